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
    Q_EMIT status(tr("Saved %1").arg(path));
    Q_EMIT opened(path);
}

} // namespace rlda::app
