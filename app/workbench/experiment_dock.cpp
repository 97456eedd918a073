#include "app/workbench/experiment_dock.h"

#include "widgets/file_dialogs.h"
#include "core/config/experiment_io.h"
#include "core/util/error_text.h"
#include "widgets/run/experiment_editor.h"
#include "widgets/run/run_control.h"

#include <QFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include <exception>

namespace rlda::app {

ExperimentDock::ExperimentDock(QWidget* parent) : QDockWidget(tr("Experiment"), parent)
{
    setObjectName(QStringLiteral("experimentDock"));
    // Closable too: View brings it back (its toggle action is disabled on a dock that cannot close).
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    editor_ = new widgets::ExperimentEditor(content);
    auto* scroll = new QScrollArea(content);
    scroll->setWidget(editor_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    runControl_ = new widgets::RunControl(content);
    layout->addWidget(scroll, 1);
    layout->addWidget(runControl_);
    setWidget(content);
    // Wide enough for the form without a horizontal scroll bar.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setMinimumWidth(editor_->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 16);
    connect(editor_, &widgets::ExperimentEditor::openRequested, this, &ExperimentDock::openWithDialog);
    connect(editor_, &widgets::ExperimentEditor::saveAsRequested, this, [this] { save(true); });
    // Every change counts as an edit; opening and saving clear the flag after the editor shows the
    // experiment (its changed() comes first).
    connect(editor_, &widgets::ExperimentEditor::changed, this, [this] { edited_ = true; });
}

void ExperimentDock::openDefault()
{
    QFile file(QStringLiteral(":/config/default.toml"));
    if (!file.open(QIODevice::ReadOnly)) {
        Q_EMIT note(tr("The built-in default experiment is missing"));
        return;
    }
    try {
        editor_->setConfig(core::config::parse_experiment(file.readAll().toStdString(), "default.toml"));
        edited_ = false;
        Q_EMIT note(tr("Opened the default experiment: ConvNet2 on a Fashion-MNIST subset, one more GPU at 20 s"));
    } catch (const std::exception& e) {
        Q_EMIT note(QString::fromStdString(core::error_line(e)));
    }
}

bool ExperimentDock::open(const QString& path)
{
    QString error;
    if (!editor_->loadFile(path, &error)) {
        Q_EMIT problem(error);
        return false;
    }
    edited_ = false;
    Q_EMIT note(tr("Opened %1").arg(path));
    Q_EMIT opened(path);
    return true;
}

void ExperimentDock::openWithDialog()
{
    const QString path =
        widgets::openFileName(this, widgets::FileKind::Experiment, tr("Open experiment"), tr("Experiments (*.toml);;All files (*)"));
    if (!path.isEmpty())
        open(path);
}

void ExperimentDock::save(bool askForName)
{
    QString path = editor_->fileName();
    if (askForName || path.isEmpty() || path.startsWith(QLatin1Char(':')))
        path = widgets::saveFileName(this, widgets::FileKind::Experiment, tr("Save experiment"),
                            path.isEmpty() ? QStringLiteral("experiment.toml") : path, tr("Experiments (*.toml)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!editor_->saveFile(path, &error)) {
        Q_EMIT note(error);
        return;
    }
    edited_ = false;
    Q_EMIT status(tr("Saved %1").arg(path));
    Q_EMIT opened(path);
}

QString ExperimentDock::draft() const
{
    return edited_ ? QString::fromStdString(core::config::to_toml(editor_->config())) : QString();
}

QString ExperimentDock::origin() const
{
    return editor_->fileName();
}

bool ExperimentDock::openDraft(const QString& toml, const QString& origin)
{
    try {
        editor_->setConfig(core::config::parse_experiment(toml.toStdString(), "the kept draft"));
    } catch (const std::exception& e) {
        Q_EMIT problem(tr("The unsaved edits kept from the last session do not open: %1")
                           .arg(QString::fromStdString(core::error_line(e))));
        return false;
    }
    editor_->setFileName(origin);
    edited_ = true;
    Q_EMIT note(
        origin.isEmpty() || origin.startsWith(QLatin1Char(':'))
            ? tr("Opened your unsaved experiment from the last session; File → Save as… keeps it")
            : tr("Opened your unsaved edits of %1 from the last session; File → Save writes them there")
                  .arg(origin));
    return true;
}

} // namespace rlda::app
