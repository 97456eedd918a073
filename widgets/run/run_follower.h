// Following one opened run folder that is still being written, as TensorBoard follows its logdir:
// what the run appends reaches the views as it is written, without reopening it.
#pragma once

#include "core/io/run_reader.h"
#include "widgets/job_tracker.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <cstddef>
#include <map>
#include <string>

class QFileSystemWatcher;
class QTimer;

namespace rlda::widgets {

// follow(run) takes the run as it was shown and watches its folder, metrics/ and the files a run
// appends to (QFileSystemWatcher). A change starts a single-shot timer (kDelayMs, or twice as long
// as the last read took, so that following a long run takes at most a third of a core; not
// restarted by further changes, so a run that writes without pause is still read); when it fires
// the folder is read again with core::io::read_run() off the GUI thread (widgets/job_tracker.h) and
// appended() carries a RunData holding only the records past those already shown (series points,
// episodes, allocations, adaptations, messages, and the final/finished events once they come).
// A file that shrank means the run was started again in that folder: rewritten() carries the whole
// run instead. Following stops at stop(), at the next follow(), and once the run's "finished" event
// has been delivered. On the GUI thread only.
class RunFollower : public QObject {
    Q_OBJECT
public:
    static constexpr int kDelayMs = 300;

    explicit RunFollower(QObject* parent = nullptr);

    void follow(const core::io::RunData& shown);
    void stop();
    bool isFollowing() const { return !path_.empty(); }
    QString path() const { return QString::fromStdString(path_.string()); }

Q_SIGNALS:
    void appended(const rlda::core::io::RunData& more); // its path is the followed run's
    void rewritten(const rlda::core::io::RunData& run);

private:
    struct Counts {
        std::map<std::string, std::size_t> series;
        std::size_t episodes = 0, adaptations = 0, allocations = 0, messages = 0;
        bool final = false, finished = false;
    };
    static Counts countsOf(const core::io::RunData& run);
    void changed();
    void read();
    void got(core::io::RunData run);
    void watch(); // the folder, metrics/ and its files: re-added after each read (rename drops them)

    std::filesystem::path path_;
    Counts shown_;
    QFileSystemWatcher* watcher_ = nullptr;
    QTimer* delay_ = nullptr;
    bool again_ = false; // a change came while a read was running
    QElapsedTimer readTime_; // since the read running now started
    JobTracker reading_{this};
};

} // namespace rlda::widgets
