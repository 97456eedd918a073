// Asks where to export a plot and at which size and resolution (PNG, PDF or SVG by the suffix).
#pragma once

#include "widgets/plot_export.h"

#include <QDialog>
#include <QString>

#include <optional>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace rlda::app {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    struct Request {
        QString path;
        widgets::ExportSettings settings;
    };

    ExportDialog(const QString& suggestedPath, QWidget* parent = nullptr);
    Request request() const;

    // Shows the dialog; nullopt when cancelled. It opens at the size and resolution last accepted,
    // and an accepted one is remembered with its folder (workspace.h, file_dialogs.h).
    static std::optional<Request> ask(QWidget* parent, const QString& suggestedPath);

private:
    void browse();
    void syncSuffix();

    QLineEdit* path_ = nullptr;
    QComboBox* format_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QSpinBox* dpi_ = nullptr;
};

} // namespace rlda::app
