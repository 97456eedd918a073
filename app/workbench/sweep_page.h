// The Sweeps page: builds the experiment's simulation table on either backend (`local` worker
// processes or a Slurm job array) through a detached `rlda simulate`, shows each task's state and
// rows from the files on disk (and squeue), cancels, and re-attaches to a sweep still running
// when the workbench opens again. Everything it reads (the files, squeue, sacct, the markers) is
// read by a job off the GUI thread (widgets/job_tracker.h).
#pragma once

#include "core/config/experiment.h"
#include "core/sim/build.h"
#include "widgets/job_tracker.h"

#include <QString>
#include <QTimer>
#include <QWidget>

#include <optional>

namespace rlda::widgets {
class SweepPanel;
}

namespace rlda::app {

class SweepPage : public QWidget {
    Q_OBJECT
public:
    explicit SweepPage(QWidget* parent = nullptr);

    widgets::SweepPanel* panel() const { return panel_; }
    void setRunsRoot(const QString& dir) { runsRoot_ = dir; }
    // Starts `rlda simulate` for `config` into a new folder under the runs root; false (with the
    // reason in the panel) when it cannot.
    // The panel's Seeds, when more than 1, replace config's sweep.seeds (job.seed, job.seed + 1, ...).
    bool submit(core::config::ExperimentConfig config, core::config::SweepBackend backend, int parts);
    // Looks, off the GUI thread, for the newest sweep under the runs root that has not collected
    // its table; reattached() says whether there was one, which is then shown and followed again
    // (a Slurm sweep whose follower is gone gets `rlda sweep wait`).
    void reattach();
    void cancel();
    bool isActive() const;
    QString folder() const { return folder_; }
    // Starts reading the files (and squeue for Slurm) off the GUI thread; the panel is updated
    // when they answer. Every second while active; a tick is skipped while a poll is in flight.
    void poll();
    bool isPolling() const { return jobs_.isRunning(); }

Q_SIGNALS:
    void statusMessage(const QString& text);
    void reattached(bool found);
    void finished(const QString& folder); // the table is collected
    void polled(); // a poll's answer is shown

public:
    struct Reading; // what a poll read (sweep_page.cpp)
    struct Found;   // a sweep to follow again

private:
    void follow(const Found& found);
    void showReading(const Reading& reading);
    bool followerAlive() const;
    bool startFollower(const QStringList& args);
    void writeMarker() const;

    widgets::SweepPanel* panel_ = nullptr;
    QTimer timer_;
    QString runsRoot_;
    QString folder_;
    core::config::SweepBackend backend_ = core::config::SweepBackend::Local;
    int parts_ = 0;
    qint64 pid_ = 0; // the detached rlda that follows the sweep
    core::config::ExperimentConfig config_;
    std::optional<core::sim::TableShape> shape_; // loads the dataset: once per sweep
    bool collected_ = false;
    widgets::JobTracker jobs_{this}; // the poll or the search for a sweep to re-attach to
};

} // namespace rlda::app
