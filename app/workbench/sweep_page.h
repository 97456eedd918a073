// The Sweeps page: builds the experiment's simulation table on either backend (`local` worker
// processes or a Slurm job array) through a detached `rlda simulate`, shows each task's state and
// rows from the files on disk (and squeue), cancels, and re-attaches to a sweep still running
// when the workbench opens again. Everything it reads (the files, squeue, sacct, the markers) is
// read by a job off the GUI thread (widgets/job_tracker.h), through core/sweep/detached.h.
#pragma once

#include "core/config/experiment.h"
#include "core/sweep/detached.h"
#include "core/table/table_folder.h"
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
    QString runsRoot() const { return runsRoot_; }
    // Starts `rlda simulate` for `config` into a new folder under the runs root; false (with the
    // reason in the panel) when it cannot.
    // The panel's Seeds, when more than 1, replace config's sweep.seeds (job.seed, job.seed + 1, ...).
    bool submit(core::config::ExperimentConfig config, core::config::SweepBackend backend, int parts);
    // Looks, off the GUI thread, for the newest sweep under the runs root that has not collected
    // its table (core::sweep::find_unfinished); reattached() says whether there was one, which is
    // then shown and followed again (a Slurm sweep whose follower is gone gets `rlda sweep wait`).
    void reattach();
    void cancel();
    // Its follower lives (reads /proc: small and bounded, on the GUI thread).
    bool isActive() const;
    QString folder() const { return QString::fromStdString(sweep_.folder.string()); }
    // Starts reading the files (and squeue for Slurm) off the GUI thread; the panel is updated
    // when they answer. Every second while active; a tick is skipped while a poll is in flight.
    void poll();

Q_SIGNALS:
    void statusMessage(const QString& text);
    void reattached(bool found);
    void finished(const QString& folder); // the table is collected
    void polled(); // a poll's answer is shown

private:
    friend bool sweepPollInFlight(const SweepPage& page);

    void follow(const core::sweep::FoundSweep& found);
    void showReading(const core::sweep::SweepReading& reading);
    bool startFollower(const QStringList& args);

    widgets::SweepPanel* panel_ = nullptr;
    QTimer timer_;
    QString runsRoot_;
    core::sweep::SweepMarker sweep_; // the sweep followed: its folder, backend, parts and follower
    core::config::ExperimentConfig config_;
    std::optional<core::sim::TableShape> shape_; // once per sweep
    bool collected_ = false;
    widgets::JobTracker jobs_{this}; // the poll or the search for a sweep to re-attach to
};

// The seam for tests and bench_gui_latency, outside the page's interface: whether a poll is in
// flight (a timer tick then skips its own).
bool sweepPollInFlight(const SweepPage& page);

} // namespace rlda::app
