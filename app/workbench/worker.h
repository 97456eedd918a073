// The engine off the GUI thread: a Worker lives in its own QThread, runs one training or learning
// run at a time, and turns core's observer calls into queued signals carrying value types.
// Pause and cancel are thread-safe calls from the GUI thread; the run checks them between batches
// (training) or episodes (learning), and reports Paused from there, once it has stopped.
#pragma once

#include "app/workbench/metatypes.h"

#include <QDeadlineTimer>
#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>
#include <vector>

namespace rlda::app {

QString runStateName(RunState state); // RunControl::stateName in lower case: "finished"

class Worker : public QObject {
    Q_OBJECT
public:
    ~Worker() override;
    // Thread-safe: callable from any thread while a run is in progress. After pause() the run
    // stops at its next batch (or episode) and emits stateChanged(Paused) from there.
    void pause();
    void resume();
    void cancel();
    // Cancels and refuses every later run: the window is closing.
    void close();

    // Each runs to the end on the worker's thread (RunController queues the call there); `out` is
    // the run folder (created, never overwritten: an existing non-empty folder fails the run).
    void runTraining(const rlda::core::config::ExperimentConfig& config, const QString& out);
    void runLearning(const rlda::core::run::LearnRunSettings& settings, const QString& out);
    // core::run::run_comparison: `out`, then the same job without adaptation beside it; started()
    // tells the two runs apart by their folders, comparisonFinished() when both have ended.
    void runComparison(const rlda::core::config::ExperimentConfig& config, const QString& out);
    // core::run::run_seed_comparisons: the comparison at each seed, paired, under `out`;
    // seedComparisonsFinished() at the end, also after a cancel once a seed's pair has finished.
    void runSeedComparisons(const rlda::core::config::ExperimentConfig& config, const QString& out,
                            const std::vector<std::uint64_t>& seeds);

Q_SIGNALS:
    void stateChanged(rlda::app::RunState state, const QString& message);
    void started(const rlda::core::train::RunStart& start);
    void epoch(const rlda::core::train::EpochMetrics& metrics);
    void progress(const rlda::core::train::BatchProgress& progress); // at most every 50 ms
    void adaptation(const rlda::core::train::AdaptationEvent& event);
    void allocation(const rlda::core::train::AllocationRecord& record);
    void message(const QString& text);
    void trainingFinished(const rlda::core::train::RunResult& result);
    void stageStarted(const rlda::core::run::StageStart& stage);
    void episodes(const std::vector<rlda::core::sim::EpisodeRecord>& batch); // batched, every 50 ms
    void greedy(qint64 episode, const rlda::core::sim::Evaluation& evaluation);
    void learningFinished(const rlda::core::run::LearnRunResult& result);
    void comparisonFinished(const rlda::core::run::Comparison& comparison); // not when cancelled
    void seedComparisonsFinished(const rlda::core::run::SeedComparisons& comparisons);

private:
    friend class WorkerObserver;
    // Blocks the run while paused; returns at once when cancelled. Only on the worker's thread.
    void waitWhilePaused();
    bool begin(); // false when closed
    void end(bool cancelled, const QString& failure);
    template <class Body>
    void guarded(Body&& body);

    std::stop_source stop_;
    std::atomic<bool> paused_{false};
    std::atomic<bool> closed_{false};
    std::mutex mutex_;
    std::condition_variable_any resumed_;
};

// Owns the worker and its thread on the GUI side: one run at a time, a clean stop on shutdown.
class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override; // shutdown()

    Worker* worker() const { return worker_; }
    RunState state() const { return state_; }
    bool isActive() const; // Running, Paused or Cancelling

    // False (and nothing started) while another run is active.
    bool startTraining(const core::config::ExperimentConfig& config, const QString& out);
    bool startLearning(const core::run::LearnRunSettings& settings, const QString& out);
    bool startComparison(const core::config::ExperimentConfig& config, const QString& out);
    bool startSeedComparisons(const core::config::ExperimentConfig& config, const QString& out,
                              const std::vector<std::uint64_t>& seeds);
    void pause();
    void resume();
    void cancel();
    // Cancels a run in progress and waits until `deadline` for it to end: the run stops at its
    // next batch (or episode) and what it wrote stays on disk. False when it is still running at
    // the deadline (inside one step: loading a dataset, an evaluation, a save): it is left to stop
    // on its own, and stopped() follows when it has. The controller cannot start runs afterwards.
    bool shutdown(QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));

Q_SIGNALS:
    void stateChanged(rlda::app::RunState state, const QString& message);
    // The worker's thread has ended after shutdown(), its run's last state reported.
    void stopped();

private:
    bool start(std::function<void(Worker*)> run); // queued on the worker's thread; false while one is active

    QThread thread_;
    Worker* worker_ = nullptr; // lives in thread_, deleted when it finishes
    RunState state_ = RunState::Idle;
};

// Registers the value types above for queued connections; called once before any run.
void registerMetaTypes();

} // namespace rlda::app
