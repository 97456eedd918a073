// The Models page: pick a zoo model or a TOML model file and preview it deepened by a sequence of
// actions, block by block with parameter counts, as a table and as a graph with each layer's shape.
#pragma once

#include "widgets/plot_export.h"

#include <QString>
#include <QWidget>

class QLineEdit;
class QSpinBox;
class QToolBar;

namespace rlda::widgets {
class ModelGraph;
class ModelPanel;
class ZooPanel;
} // namespace rlda::widgets

namespace rlda::app {

class ModelsPage : public QWidget {
    Q_OBJECT
public:
    explicit ModelsPage(QWidget* parent = nullptr);
    // Disconnects the line edits first: ~QWidget closes a top-level page, and the focused edit's
    // editingFinished would otherwise call refresh() on a page already half destroyed.
    ~ModelsPage() override;

    // A zoo name or the path of a TOML model file; errors go to statusMessage().
    void showModel(const QString& nameOrPath);
    void setGrowthActions(const QString& actions);
    void setInputShape(const QString& shape);
    void setClasses(int classes);

    // The graph beside the table, and its export (File → Export plot on this page).
    widgets::ModelGraph* graph() const { return graph_; }
    QString exportGraph(const QString& path, const widgets::ExportSettings& settings = {}) const;

Q_SIGNALS:
    void statusMessage(const QString& text);

private:
    QToolBar* buildToolBar();
    void openModelFile();
    // Recomputes the summary from the current source and fields; errors go to statusMessage().
    void refresh();
    void reportError(QLineEdit* culprit, const QString& message);

    widgets::ZooPanel* zoo_ = nullptr;
    widgets::ModelPanel* modelPanel_ = nullptr;
    widgets::ModelGraph* graph_ = nullptr;
    QLineEdit* inputEdit_ = nullptr;
    QSpinBox* classesSpin_ = nullptr;
    QLineEdit* growthEdit_ = nullptr;
    QString source_; // what load_model() gets: a zoo name or a file path
};

} // namespace rlda::app
