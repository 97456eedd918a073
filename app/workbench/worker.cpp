// Worker and RunController: observer calls become queued signals; progress and episodes are
// thinned to what a screen can show (every 50 ms), epochs and adaptations always go through.
#include "app/workbench/worker.h"

#include "app/workbench/engine.h"
#include "core/util/error.h"
#include "core/util/error_text.h"
#include "widgets/thread_handoff.h"

#include <chrono>
#include <exception>

namespace rlda::app {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kEmitInterval = std::chrono::milliseconds(50);

} // namespace

QString runStateName(RunState state) { return widgets::RunControl::stateName(state).toLower(); }

void registerMetaTypes()
{
    qRegisterMetaType<RunState>();
    qRegisterMetaType<core::config::ExperimentConfig>();
    qRegisterMetaType<core::run::LearnRunSettings>();
    qRegisterMetaType<core::train::RunStart>();
    qRegisterMetaType<core::train::EpochMetrics>();
    qRegisterMetaType<core::train::BatchProgress>();
    qRegisterMetaType<core::train::AdaptationEvent>();
    qRegisterMetaType<core::train::AllocationRecord>();
    qRegisterMetaType<core::train::RunResult>();
    qRegisterMetaType<core::run::StageStart>();
    qRegisterMetaType<std::vector<core::sim::EpisodeRecord>>();
    qRegisterMetaType<core::sim::Evaluation>();
    qRegisterMetaType<core::run::LearnRunResult>();
    qRegisterMetaType<core::run::Comparison>();
    qRegisterMetaType<core::run::SeedComparisons>();
}

// Runs on the worker thread, inside the engine's loops.
class WorkerObserver final : public core::train::TrainObserver, public core::run::LearnRunObserver {
public:
    explicit WorkerObserver(Worker& w) : w_(w) {}
    ~WorkerObserver() override { flushEpisodes(); }

    void on_start(const core::train::RunStart& s) override { Q_EMIT w_.started(s); }
    void on_epoch(const core::train::EpochMetrics& m) override { Q_EMIT w_.epoch(m); }
    void on_progress(const core::train::BatchProgress& p) override
    {
        const auto now = Clock::now();
        if (now - lastProgress_ >= kEmitInterval || p.batch == p.batches) {
            lastProgress_ = now;
            Q_EMIT w_.progress(p);
        }
        w_.waitWhilePaused();
    }
    void on_adaptation(const core::train::AdaptationEvent& e) override { Q_EMIT w_.adaptation(e); }
    void on_allocation(const core::train::AllocationRecord& r) override { Q_EMIT w_.allocation(r); }
    void on_message(const std::string& text) override { Q_EMIT w_.message(QString::fromStdString(text)); }
    void on_finished(const core::train::RunResult& r) override { Q_EMIT w_.trainingFinished(r); }

    void on_stage(const core::run::StageStart& s) override
    {
        flushEpisodes();
        Q_EMIT w_.stageStarted(s);
    }
    void on_episode(const core::sim::EpisodeRecord& r) override
    {
        pending_.push_back(r);
        if (Clock::now() - lastEpisodes_ >= kEmitInterval)
            flushEpisodes();
        w_.waitWhilePaused();
    }
    void on_greedy(std::int64_t episode, const core::sim::Evaluation& e) override
    {
        flushEpisodes();
        Q_EMIT w_.greedy(episode, e);
    }

    void flushEpisodes()
    {
        lastEpisodes_ = Clock::now();
        if (pending_.empty())
            return;
        Q_EMIT w_.episodes(pending_);
        pending_.clear();
    }

private:
    Worker& w_;
    Clock::time_point lastProgress_{}, lastEpisodes_ = Clock::now();
    std::vector<core::sim::EpisodeRecord> pending_;
};

void Worker::pause() { paused_ = true; } // reported by the run when it stops: waitWhilePaused()

void Worker::resume()
{
    {
        std::lock_guard lock(mutex_);
        paused_ = false;
    }
    resumed_.notify_all();
    Q_EMIT stateChanged(RunState::Running, {});
}

void Worker::cancel()
{
    Q_EMIT stateChanged(RunState::Cancelling, {});
    std::lock_guard lock(mutex_);
    stop_.request_stop(); // also wakes a paused run: the wait below watches the token
}

void Worker::close()
{
    closed_ = true;
    std::lock_guard lock(mutex_);
    stop_.request_stop();
}

void Worker::waitWhilePaused()
{
    if (!paused_ || stop_.stop_requested())
        return;
    // From here, so that Paused means the run has stopped; a resume needs it (RunController).
    Q_EMIT stateChanged(RunState::Paused, {});
    std::unique_lock lock(mutex_);
    resumed_.wait(lock, stop_.get_token(), [this] { return !paused_.load(); });
}

bool Worker::begin()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = std::stop_source();
        paused_ = false;
    }
    if (closed_) { // a run queued just before the window closed never starts
        Q_EMIT stateChanged(RunState::Cancelled, {});
        return false;
    }
    Q_EMIT stateChanged(RunState::Running, {});
    return true;
}

// Deleted on its own thread once the thread has finished (RunController's deleteLater): after
// shutdown()'s close() on the GUI thread, through Qt's queue (widgets/thread_handoff.h).
Worker::~Worker()
{
    widgets::handoffAcquire(this);
}

void Worker::end(bool cancelled, const QString& failure)
{
    paused_ = false;
    // Everything the run did and signalled happens before the controller sees it end: Qt's queue
    // orders it, and this tells ThreadSanitizer so (widgets/thread_handoff.h).
    widgets::handoffRelease(this);
    if (!failure.isEmpty())
        Q_EMIT stateChanged(RunState::Failed, failure);
    else
        Q_EMIT stateChanged(cancelled ? RunState::Cancelled : RunState::Finished, {});
}

// One run from begin() to end(): `body` returns whether it was cancelled; an exception fails it
// with its message (core's messages are written for users), one line of it (LibTorch's carry a backtrace).
template <class Body>
void Worker::guarded(Body&& body)
{
    if (!begin())
        return;
    bool cancelled = false;
    QString failure;
    try {
        WorkerObserver observer(*this);
        cancelled = body(observer);
    } catch (const std::exception& e) {
        failure = QString::fromStdString(core::error_line(e));
    }
    end(cancelled, failure);
}

void Worker::runTraining(const core::config::ExperimentConfig& config, const QString& out)
{
    guarded([&](WorkerObserver& observer) {
        return engine().runExperiment(config, out.toStdString(), &observer, stop_.get_token()).cancelled;
    });
}

void Worker::runLearning(const core::run::LearnRunSettings& settings, const QString& out)
{
    guarded([&](WorkerObserver& observer) {
        const auto result = engine().runLearning(settings, out.toStdString(), &observer, stop_.get_token());
        observer.flushEpisodes();
        Q_EMIT learningFinished(result);
        return result.cancelled;
    });
}

void Worker::runComparison(const core::config::ExperimentConfig& config, const QString& out)
{
    guarded([&](WorkerObserver& observer) {
        const auto c = engine().runComparison(config, out.toStdString(), &observer, stop_.get_token());
        const bool cancelled = !c.baseline_ran || c.adapted.cancelled || c.baseline.cancelled;
        if (!cancelled)
            Q_EMIT comparisonFinished(c);
        return cancelled;
    });
}

void Worker::runSeedComparisons(const core::config::ExperimentConfig& config, const QString& out,
                                const std::vector<std::uint64_t>& seeds)
{
    guarded([&](WorkerObserver& observer) {
        const auto c =
            engine().runSeedComparisons(config, out.toStdString(), seeds, &observer, stop_.get_token());
        if (!c.runs.empty()) // what finished is stated, also after a cancel
            Q_EMIT seedComparisonsFinished(c);
        return c.cancelled;
    });
}

RunController::RunController(QObject* parent) : QObject(parent), worker_(new Worker)
{
    registerMetaTypes();
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &Worker::stateChanged, this, [this](RunState s, const QString& message) {
        widgets::handoffAcquire(worker_); // Worker::end's release
        // A late "paused" after a cancel or the run's end (a click racing them) must not stick.
        if (s == RunState::Paused && state_ != RunState::Running)
            return;
        state_ = s;
        Q_EMIT stateChanged(s, message);
    });
    // Queued: emitted on the worker's thread as it ends, after the run's last state change.
    connect(&thread_, &QThread::finished, this, [this] {
        if (isActive()) {
            state_ = RunState::Cancelled;
            Q_EMIT stateChanged(state_, {});
        }
        Q_EMIT stopped();
    });
    thread_.setObjectName(QStringLiteral("rlda-worker"));
    thread_.start();
}

RunController::~RunController() { shutdown(); }

bool RunController::isActive() const { return widgets::RunControl::isActive(state_); }

bool RunController::startTraining(const core::config::ExperimentConfig& config, const QString& out)
{
    return start([config, out](Worker* w) { w->runTraining(config, out); });
}

bool RunController::startLearning(const core::run::LearnRunSettings& settings, const QString& out)
{
    return start([settings, out](Worker* w) { w->runLearning(settings, out); });
}

bool RunController::startComparison(const core::config::ExperimentConfig& config, const QString& out)
{
    return start([config, out](Worker* w) { w->runComparison(config, out); });
}

bool RunController::startSeedComparisons(const core::config::ExperimentConfig& config, const QString& out,
                                         const std::vector<std::uint64_t>& seeds)
{
    return start([config, out, seeds](Worker* w) { w->runSeedComparisons(config, out, seeds); });
}

bool RunController::start(std::function<void(Worker*)> run)
{
    if (isActive() || !thread_.isRunning())
        return false;
    state_ = RunState::Running; // at once, so that a second click before the worker starts is refused
    widgets::queueCall(worker_, [w = worker_, run = std::move(run)] { run(w); });
    return true;
}

void RunController::pause()
{
    if (state_ == RunState::Running)
        worker_->pause();
}

void RunController::resume()
{
    if (state_ == RunState::Paused)
        worker_->resume();
}

void RunController::cancel()
{
    if (isActive())
        worker_->cancel();
}

bool RunController::shutdown(QDeadlineTimer deadline)
{
    if (!thread_.isRunning())
        return true;
    worker_->close();
    widgets::handoffRelease(worker_); // ~Worker's acquire
    thread_.quit(); // after the run in progress returns to the thread's event loop
    if (!thread_.wait(deadline))
        return false; // the thread's finished() brings the last state and stopped()
    // The worker's last state change is still queued for this thread; the run is over now.
    if (isActive()) {
        state_ = RunState::Cancelled;
        Q_EMIT stateChanged(state_, {});
    }
    return true;
}

} // namespace rlda::app
