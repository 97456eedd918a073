#include "app/workbench/drop_receiver.h"

#include "app/workbench/drops.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMimeData>
#include <QWidget>

namespace rlda::app {

DropReceiver::DropReceiver(QWidget& window) : QObject(&window)
{
    window.setAcceptDrops(true);
    window.installEventFilter(this);
}

bool DropReceiver::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::DragEnter) {
        auto* enter = static_cast<QDragEnterEvent*>(event);
        if (enter->mimeData()->hasUrls())
            enter->acceptProposedAction();
        return true;
    }
    if (event->type() == QEvent::Drop) {
        auto* drop = static_cast<QDropEvent*>(event);
        const QStringList files = droppedFiles(drop->mimeData()->urls());
        drop->acceptProposedAction();
        if (files.isEmpty()) {
            const QString reason = tr("Only files and folders on this computer can be dropped here");
            Q_EMIT status(reason);
            Q_EMIT handled(QString(), dropKindName(DropKind::Refused), reason);
        } else {
            open(files);
        }
        return true;
    }
    return QObject::eventFilter(watched, event);
}

void DropReceiver::open(const QStringList& paths)
{
    Q_EMIT status(tr("Looking at what was dropped…"));
    job_.startJob(
        [paths] { return classifyDrops(paths); },
        [this](std::vector<DropTarget> targets) {
            for (const DropTarget& t : targets) {
                switch (t.kind) {
                case DropKind::Experiment: Q_EMIT experimentDropped(t.open); break;
                case DropKind::Model: Q_EMIT modelDropped(t.open); break;
                case DropKind::Table: Q_EMIT tableDropped(t.open); break;
                case DropKind::TablesFolder:
                    Q_EMIT note(tr("%1: a folder of tables; opening its first, %2").arg(t.path, QFileInfo(t.open).fileName()));
                    Q_EMIT tableDropped(t.open);
                    break;
                case DropKind::Policy: Q_EMIT policyDropped(t.open); break;
                case DropKind::RunFolder: Q_EMIT runDropped(t.open); break;
                case DropKind::RunsFolder: Q_EMIT runsFolderDropped(t.open); break;
                case DropKind::Refused: Q_EMIT problem(t.reason); break;
                }
                Q_EMIT handled(t.path, dropKindName(t.kind), t.reason);
            }
        },
        [this, paths](const QString& error) {
            Q_EMIT problem(error);
            for (const QString& p : paths)
                Q_EMIT handled(p, dropKindName(DropKind::Refused), error);
        });
}

} // namespace rlda::app
