// The Runs page's live watch of its root, as TensorBoard follows its logdir.
#pragma once

#include "widgets/run/run_listing.h"

#include <QList>
#include <QObject>
#include <QStringList>

class QFileSystemWatcher;
class QTimer;

namespace rlda::widgets {

// A QFileSystemWatcher on the root, the folders that may become or hold runs, every run folder, and
// the subfolders and appended files of each run still being written (inotify watches files and
// folders, not trees, and a file replaced by rename is dropped from its watch: each watch() re-adds
// what is missing). A change starts a single-shot timer of kRescanDelayMs that further changes do
// not restart (a run writing without pause still shows every kRescanDelayMs, or twice as long as
// the last listing took, so that a large run read again at every change takes at most a third of a
// core); rescanDue() says when it runs out. At most kMaxWatchedPaths paths are watched (inotify's
// per-user limit is shared with every program); past it, where a watch is refused, or while the
// root is missing (deleted, to be made again), the root is rescanned every kPollMs.
class RunWatcher : public QObject {
    Q_OBJECT
public:
    static constexpr int kRescanDelayMs = 400;
    static constexpr int kPollMs = 5000;
    static constexpr int kMaxWatchedPaths = 2000;

    explicit RunWatcher(QObject* parent = nullptr);

    // Watches what a listing of `root` found: runs still written first (they are what following is
    // for, and what the cap must not cut), then `folders`, then every other run.
    void watch(const QString& root, const QList<core::io::RunData>& runs, const QList<RunFacts>& facts,
               const QStringList& folders);
    // The listing took this long: the next rescans wait at least twice that.
    void listingTook(qint64 ms);
    // Something changed: a rescan is due, unless one is already.
    void changed();
    QStringList watchedPaths() const;

Q_SIGNALS:
    void rescanDue();

private:
    QFileSystemWatcher* watcher_;
    QTimer* rescan_;
    QTimer* poll_;
};

} // namespace rlda::widgets
