#include "app/workbench/run_feed.h"

#include "app/workbench/learning_page.h"
#include "app/workbench/page_tabs.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/worker.h"
#include "core/io/run_reader.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/plot/training_view.h"

#include <QFileInfo>

namespace rlda::app {

RunFeed::RunFeed(RunController& controller, PageTabs& pages, widgets::RunControl& control, QObject* parent)
    : QObject(parent), controller_(controller), pages_(pages), control_(control)
{
    connect(&controller_, &RunController::stateChanged, this, &RunFeed::onStateChanged);
    connect(controller_.worker(), &Worker::message, this, &RunFeed::log);
    connectTraining();
    connectLearning();
}

void RunFeed::beginTraining(const QString& folder)
{
    currentRun_ = folder;
    adaptedRun_ = folder;
    pages_.training->clear();
    pages_.architecture->clear();
    pages_.policy->decisions()->clear();
    control_.reset();
}

void RunFeed::beginLearning(const QString& folder)
{
    currentRun_ = folder;
    pages_.learning->clear();
    control_.reset();
}

void RunFeed::connectTraining()
{
    Worker* w = controller_.worker();
    connect(w, &Worker::started, this, [this](const core::train::RunStart& s) {
        const QString folder = QString::fromStdString(s.run_dir);
        // A comparison's second run, the job without adaptation: the training curves follow it,
        // while the Architecture and Policy pages keep the adapted run's model and decisions.
        // A comparison over seeds starts each seed's adapted run in a folder of its own: the pages
        // start over for it.
        followingBaseline_ =
            folder == QString::fromStdString(core::run::baseline_folder(adaptedRun_.toStdString()).string());
        if (folder != currentRun_ && !followingBaseline_) {
            beginTraining(folder);
            control_.setState(RunState::Running);
        }
        if (followingBaseline_) {
            currentRun_ = folder;
            pages_.training->clear();
            control_.reset();
            control_.setState(RunState::Running);
        } else {
            pages_.architecture->setInitial(s.model);
        }
        Q_EMIT log(tr("Training %1 in %2").arg(QString::fromStdString(s.model.name), folder));
    });
    connect(w, &Worker::epoch, pages_.training, &widgets::TrainingView::addEpoch);
    connect(w, &Worker::progress, &control_, &widgets::RunControl::setTrainingProgress);
    connect(w, &Worker::adaptation, this, [this](const core::train::AdaptationEvent& e) {
        pages_.training->addAdaptation(e);
        if (followingBaseline_)
            return;
        pages_.architecture->addAdaptation(e);
        pages_.policy->decisions()->addDecision(e);
    });
    connect(w, &Worker::allocation, this, [this](const core::train::AllocationRecord& r) {
        pages_.training->addAllocation(r);
        Q_EMIT log(tr("t = %1 s: allocation %2: %3")
                       .arg(r.time, 0, 'f', 1)
                       .arg(QString::fromStdString(core::train::to_string(r.change)), QString::fromStdString(r.effect)));
    });
    connect(w, &Worker::comparisonFinished, this, &RunFeed::showComparison);
    connect(w, &Worker::seedComparisonsFinished, this, &RunFeed::showSeedComparisons);
}

void RunFeed::connectLearning()
{
    Worker* w = controller_.worker();
    connect(w, &Worker::stageStarted, this, [this](const core::run::StageStart& s) {
        stageFirstEpisode_ = s.first_episode;
        stageEpisodes_ = s.stage.episodes;
        learningTable_ = QString::fromStdString(s.stage.table);
        Q_EMIT log(tr("Learning stage %1/%2: %3 for %L4 episodes at temperature %5")
                       .arg(s.index + 1)
                       .arg(s.count)
                       .arg(learningTable_)
                       .arg(s.stage.episodes)
                       .arg(s.temperature));
    });
    connect(w, &Worker::episodes, this, [this](const std::vector<core::sim::EpisodeRecord>& batch) {
        pages_.learning->addEpisodes(batch);
        if (!batch.empty())
            control_.setLearningProgress(batch.back().episode - stageFirstEpisode_, stageEpisodes_);
    });
    connect(w, &Worker::greedy, pages_.learning, &LearningPage::showGreedy);
    connect(w, &Worker::learningFinished, this, [this](const core::run::LearnRunResult& r) {
        // The table is read off the GUI thread; a failure reaches the log as a status message.
        pages_.policy->showRanked(learningTable_, QString::fromStdString(pages_.learning->settings().model),
                                  QFileInfo(currentRun_).fileName(), r.evaluation);
        Q_EMIT log(tr("Learning ended after %L1 episodes: greedy [%2], rank %3/%4")
                       .arg(r.episodes)
                       .arg(QString::fromStdString(core::sim::sequence_string(r.evaluation.greedy)))
                       .arg(r.evaluation.rank)
                       .arg(r.evaluation.sequences));
    });
}

void RunFeed::onStateChanged(RunState state, const QString& message)
{
    control_.setState(state, message); // one enum: app::RunState is RunControl::State
    const bool active = controller_.isActive();
    pages_.learning->setRunning(active);
    Q_EMIT activeChanged(active);
    Q_EMIT status(message.isEmpty() ? tr("Run %1").arg(runStateName(state))
                                    : tr("Run %1: %2").arg(runStateName(state), message));
    if (state == RunState::Failed)
        Q_EMIT log(tr("Run failed: %1").arg(message));
    if (state == RunState::Finished || state == RunState::Cancelled || state == RunState::Failed) {
        Q_EMIT log(tr("Run %1: %2").arg(runStateName(state), currentRun_));
        Q_EMIT ended(state);
    }
}

void RunFeed::showComparison(const core::run::Comparison& comparison)
{
    const QString summary = QString::fromStdString(core::run::comparison_line(comparison));
    Q_EMIT log(summary);
    overlayComparison({comparison.adapted_dir, comparison.baseline_dir}, comparison.adapted_dir, summary);
}

void RunFeed::showSeedComparisons(const core::run::SeedComparisons& comparisons)
{
    std::vector<std::filesystem::path> dirs;
    for (const auto& pair : comparisons.runs) {
        dirs.push_back(pair.adapted_dir);
        dirs.push_back(pair.baseline_dir);
    }
    const auto lines = core::run::seed_comparison_lines(comparisons);
    for (const auto& line : lines)
        Q_EMIT log(tr("Comparison over seeds: %1").arg(QString::fromStdString(line)));
    // The run of the comparison is the last seed's adapted one.
    overlayComparison(std::move(dirs), comparisons.runs.back().adapted_dir,
                      QString::fromStdString(lines.back()));
}

void RunFeed::overlayComparison(std::vector<std::filesystem::path> dirs, const std::filesystem::path& adapted,
                                const QString& summary)
{
    comparisonJob_.startJob(
        [dirs = std::move(dirs)] {
            QList<core::io::RunData> runs;
            for (const auto& dir : dirs)
                runs.push_back(core::io::read_run(dir));
            return runs;
        },
        [this, summary,
         adapted = QString::fromStdString(adapted.string())](const QList<core::io::RunData>& runs) {
            // The run of the comparison is the adapted one: what File → Export and the pages name.
            currentRun_ = adapted;
            followingBaseline_ = false;
            pages_.training->setRuns(runs); // a colour and a legend entry each
            pages_.showPage(Page::Training);
            comparisonSummary_ = summary;
            Q_EMIT status(summary); // after the run's "finished", which the state change says first
        },
        [this](const QString& error) { Q_EMIT log(tr("Comparison: %1").arg(error)); });
}

} // namespace rlda::app
