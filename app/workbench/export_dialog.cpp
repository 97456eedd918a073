// The export dialog: a path whose suffix follows the chosen format, a size, and a DPI.
#include "app/workbench/export_dialog.h"

#include "widgets/file_dialogs.h"
#include "app/workbench/workspace.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace rlda::app {

ExportDialog::ExportDialog(const QString& suggestedPath, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Export plot"));
    setObjectName(QStringLiteral("exportDialog"));
    path_ = new QLineEdit(suggestedPath, this);
    path_->setObjectName(QStringLiteral("exportPath"));
    path_->setMinimumWidth(360);
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse);
    format_ = new QComboBox(this);
    for (const QString& s : widgets::exportSuffixes())
        format_->addItem(s.toUpper(), s);
    const auto current = widgets::exportFormatFor(suggestedPath);
    if (current)
        format_->setCurrentIndex(static_cast<int>(*current));
    auto spin = [this](int min, int max, int value, const QString& suffix) {
        auto* s = new QSpinBox(this);
        s->setRange(min, max);
        s->setValue(value);
        s->setSuffix(suffix);
        return s;
    };
    // The size and resolution last exported with (workspace::exportSettings).
    const widgets::ExportSettings last = workspace::exportSettings();
    width_ = spin(16, 20000, last.size.width(), tr(" px"));
    height_ = spin(16, 20000, last.size.height(), tr(" px"));
    dpi_ = spin(24, 2400, last.dpi, tr(" DPI"));
    width_->setObjectName(QStringLiteral("exportWidth"));
    height_->setObjectName(QStringLiteral("exportHeight"));
    dpi_->setObjectName(QStringLiteral("exportDpi"));
    width_->setToolTip(tr("The image is exactly this many pixels wide (a PDF: this many points)"));
    height_->setToolTip(tr("The image is exactly this many pixels high (a PDF: this many points)"));
    dpi_->setToolTip(tr("The resolution written into the PNG and SVG: how large they print (pixels ÷ DPI inches). "
                        "It changes no pixel."));
    auto* form = new QFormLayout(this);
    form->addRow(tr("File"), pathRow);
    form->addRow(tr("Format"), format_);
    form->addRow(tr("Width"), width_);
    form->addRow(tr("Height"), height_);
    form->addRow(tr("Resolution"), dpi_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::syncSuffix);
    syncSuffix();
}

void ExportDialog::browse()
{
    const QString path = widgets::saveFileName(this, widgets::FileKind::Export, tr("Export plot"), path_->text(),
                                      tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"));
    if (!path.isEmpty())
        path_->setText(path);
    if (const auto f = widgets::exportFormatFor(path))
        format_->setCurrentIndex(static_cast<int>(*f));
}

void ExportDialog::syncSuffix()
{
    const QString suffix = format_->currentData().toString();
    QString path = path_->text();
    const QFileInfo info(path);
    if (widgets::exportFormatFor(path))
        path.chop(info.suffix().size() + 1);
    path_->setText(path + QLatin1Char('.') + suffix);
}

ExportDialog::Request ExportDialog::request() const
{
    return {path_->text().trimmed(), {QSize(width_->value(), height_->value()), dpi_->value()}};
}

std::optional<ExportDialog::Request> ExportDialog::ask(QWidget* parent, const QString& suggestedPath)
{
    ExportDialog dialog(suggestedPath, parent);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    const Request r = dialog.request();
    // The next export starts where and as this one was made.
    workspace::setExportSettings(r.settings);
    widgets::rememberFolder(widgets::FileKind::Export, r.path, false);
    return r;
}

} // namespace rlda::app
