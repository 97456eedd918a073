// The workbench's main window: assembles the panels and turns user choices into model summaries.
#pragma once

#include <QMainWindow>
#include <QString>

class QLineEdit;
class QSpinBox;

namespace rlda::widgets {
class ModelPanel;
class ZooPanel;
} // namespace rlda::widgets

namespace rlda::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // A zoo name or the path of a TOML model file; errors go to the status bar.
    void showModel(const QString& nameOrPath);
    void setDeepenActions(const QString& actions);
    void setInputShape(const QString& shape);
    void setClasses(int classes);

private:
    void buildMenus();
    void buildToolBar();
    void openModelFile();
    // Recomputes the summary from the current source and fields; errors go to the status bar.
    void refresh();
    void reportError(QLineEdit* culprit, const QString& message);

    widgets::ZooPanel* zoo_ = nullptr;
    widgets::ModelPanel* modelPanel_ = nullptr;
    QLineEdit* inputEdit_ = nullptr;
    QSpinBox* classesSpin_ = nullptr;
    QLineEdit* deepenEdit_ = nullptr;
    QString source_; // what load_model() gets: a zoo name or a file path
};

} // namespace rlda::app
