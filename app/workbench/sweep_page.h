// The Sweeps page: builds the experiment's simulation table on either backend (`local` worker
// processes or a Slurm job array) through a detached `rlda simulate`, shows each task's state and
// rows from the files on disk (and squeue), cancels, and re-attaches to a sweep still running
// when the workbench opens again.
#pragma once

#include "core/config/experiment.h"
#include "core/sim/build.h"

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
    bool submit(const core::config::ExperimentConfig& config, const QString& backend, int parts);
    // The newest sweep under the runs root that has not collected its table, if any: shown and
    // followed again (a Slurm sweep whose follower is gone gets `rlda sweep wait`).
    bool reattach();
    void cancel();
    bool isActive() const;
    QString folder() const { return folder_; }
    // Reads the files (and squeue for Slurm) and updates the panel; every second while active.
    void poll();

Q_SIGNALS:
    void statusMessage(const QString& text);
    void finished(const QString& folder); // the table is collected

private:
    bool follow(const QString& marker);
    bool followerAlive() const;
    bool startFollower(const QStringList& args);
    void writeMarker() const;

    widgets::SweepPanel* panel_ = nullptr;
    QTimer timer_;
    QString runsRoot_;
    QString folder_;
    QString backend_;
    int parts_ = 0;
    qint64 pid_ = 0; // the detached rlda that follows the sweep
    core::config::ExperimentConfig config_;
    std::optional<core::sim::TableShape> shape_; // loads the dataset: once per sweep
    bool collected_ = false;
};

} // namespace rlda::app
