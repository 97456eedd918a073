// The run in progress, fed to the pages that show it: the worker's signals (epochs, adaptations,
// allocations, learning episodes, the greedy sequence) go to the Training, Architecture, Policy and
// Learning pages and the run control; its state to the run control and the status bar; and a
// comparison's two runs, once both have ended, are overlaid with the difference stated.
#pragma once

#include "app/workbench/metatypes.h"
#include "widgets/job_tracker.h"

#include <QObject>
#include <QString>

#include <filesystem>
#include <vector>

namespace rlda::app {

class PageTabs;
class RunController;

class RunFeed : public QObject {
    Q_OBJECT
public:
    RunFeed(RunController& controller, PageTabs& pages, widgets::RunControl& control, QObject* parent);

    // The pages made ready for a run about to start into `folder`.
    void beginTraining(const QString& folder);
    void beginLearning(const QString& folder);
    QString currentRun() const { return currentRun_; } // the run started last
    QString comparisonSummary() const
    {
        return comparisonSummary_;
    } // the last comparison's line (over seeds: the paired difference)

Q_SIGNALS:
    void log(const QString& text);
    void status(const QString& text);
    void activeChanged(bool active); // a run is under way (the experiment is not to be edited)
    void ended(rlda::app::RunState state); // Finished, Cancelled or Failed

private:
    void connectTraining();
    void connectLearning();
    void onStateChanged(RunState state, const QString& message);
    void showComparison(const core::run::Comparison& comparison);
    // Each seed's line and the paired difference in the log, the difference in the status bar, and
    // every seed's two runs overlaid on the Training page.
    void showSeedComparisons(const core::run::SeedComparisons& comparisons);
    // Reads `dirs` off the GUI thread, overlays them on the Training page, makes `adapted` the
    // current run and states `summary`.
    void overlayComparison(std::vector<std::filesystem::path> dirs, const std::filesystem::path& adapted,
                           const QString& summary);

    RunController& controller_;
    PageTabs& pages_;
    widgets::RunControl& control_;
    QString currentRun_;
    QString adaptedRun_;             // the adapted run whose baseline comes next, in a comparison
    bool followingBaseline_ = false; // the run in progress is a comparison's run without adaptation
    QString comparisonSummary_;
    QString learningTable_;        // the table of the learning stage in progress
    qint64 stageFirstEpisode_ = 0; // for the progress bar of a learning stage
    qint64 stageEpisodes_ = 0;
    widgets::JobTracker comparisonJob_{this}; // reads the two runs of a comparison, at its end
};

} // namespace rlda::app
