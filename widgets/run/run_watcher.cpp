// The Runs page's live watch of its root.
#include "widgets/run/run_watcher.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QSet>
#include <QTimer>

#include <algorithm>

namespace rlda::widgets {

RunWatcher::RunWatcher(QObject* parent)
    : QObject(parent)
    , watcher_(new QFileSystemWatcher(this))
    , rescan_(new QTimer(this))
    , poll_(new QTimer(this))
{
    rescan_->setSingleShot(true);
    rescan_->setInterval(kRescanDelayMs);
    poll_->setInterval(kPollMs);
    connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &RunWatcher::changed);
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, &RunWatcher::changed);
    connect(rescan_, &QTimer::timeout, this, &RunWatcher::rescanDue);
    connect(poll_, &QTimer::timeout, this, &RunWatcher::changed);
}

void RunWatcher::changed()
{
    // Not restarted by further changes: a run that writes without pause still shows every
    // kRescanDelayMs instead of never.
    if (!rescan_->isActive())
        rescan_->start();
}

void RunWatcher::listingTook(qint64 ms) { rescan_->setInterval(std::max<int>(kRescanDelayMs, int(2 * ms))); }

QStringList RunWatcher::watchedPaths() const { return watcher_->directories() + watcher_->files(); }

void RunWatcher::watch(const QString& root, const QList<core::io::RunData>& runs, const QList<RunFacts>& facts,
                       const QStringList& folders)
{
    QStringList want{root};
    for (int i = 0; i < runs.size(); ++i)
        if (stillWritten(runs[i], facts[i])) {
            want << QString::fromStdString(runs[i].path.string());
            want << facts[i].appended;
        }
    want << folders;
    for (const auto& run : runs)
        want << QString::fromStdString(run.path.string());
    QSet<QString> wanted;
    QStringList ordered;
    for (const QString& p : std::as_const(want))
        if (!p.isEmpty() && !wanted.contains(p)) {
            wanted.insert(p);
            ordered << p;
        }
    const bool capped = ordered.size() > kMaxWatchedPaths;
    if (capped) {
        ordered = ordered.mid(0, kMaxWatchedPaths);
        wanted = QSet<QString>(ordered.begin(), ordered.end());
    }
    const QStringList have = watcher_->files() + watcher_->directories();
    QStringList drop;
    for (const QString& p : have)
        if (!wanted.contains(p))
            drop << p;
    if (!drop.isEmpty())
        watcher_->removePaths(drop);
    const QSet<QString> had(have.begin(), have.end());
    QStringList add;
    for (const QString& p : std::as_const(ordered))
        if (!had.contains(p))
            add << p;
    // A path gone since the listing is refused too; the next listing no longer wants it. The root
    // itself, refused, is polled for: a root deleted and made again is watched again.
    const QStringList refused = add.isEmpty() ? QStringList() : watcher_->addPaths(add);
    bool lost = capped;
    for (const QString& p : refused)
        lost = lost || p == root || QFileInfo::exists(p);
    if (lost && !root.isEmpty())
        poll_->start();
    else
        poll_->stop();
}

} // namespace rlda::widgets
