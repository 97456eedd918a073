// What training reports while it runs: plain value types, shared by core, files and the workbench.
// The observers that hear them are io::RunFolder (the files), rlda train's progress line and the
// workbench's worker, which queues each to the GUI thread; TrainObserver below states the contract
// (order, thread, blocking, exceptions) once.
#pragma once

#include "core/agent/decision_features.h"
#include "core/job/scheduler.h"
#include "core/model/spec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::train {

// After every completed epoch, and once more, `final = true`, when the run ends (see TrainObserver).
struct EpochMetrics {
    int epoch = 0;          // 1-based count of completed epochs
    double time = 0.0;      // scheduler time (start_time + clock), seconds
    double time_left = 0.0;
    double train_loss = 0.0;
    double train_acc = 0.0;
    double test_acc = 0.0;
    double lr = 0.0;        // the lr the epoch trained with
    std::int64_t parameters = 0;
    std::int64_t steps = 0; // training steps so far
    bool final = false;
    // Final only: false when a cancel stopped the final test. Then test_acc is the last test's, of
    // the model as it was at the end of `epoch`, or NaN when none was made.
    bool tested = true;
};

// Between batches, for progress bars.
struct BatchProgress {
    int epoch = 0; // the epoch in progress, 1-based
    std::int64_t batch = 0;
    std::int64_t batches = 0;
    double time = 0.0;
    double time_left = 0.0;
    double budget = 0.0;
};

// One consultation of the agent and what it did to the model.
struct AdaptationEvent {
    int decision = 0; // 1-based within the current adaptation mode
    double time = 0.0;
    double time_left = 0.0;
    std::string agent;
    int action = 0;
    bool did_nothing = false;
    std::string operation;             // "deepen", "widen"; "" for Do Nothing
    int block = -1;                    // the original block it acted on; -1 for Do Nothing
    std::vector<std::string> operations{"deepen"}; // the run's [trainer] operations: what actions mean
    std::vector<double> probabilities; // empty when the agent has none
    model::ModelSummary before;
    model::ModelSummary after;
    double max_abs_diff = -1.0; // eval-mode function-preservation check; -1 = not measured
    // What the agent was given to decide on (core/train/probe.h); absent unless it reads_features().
    std::optional<agent::DecisionFeatures> features;
};

struct AllocationRecord {
    double time = 0.0;
    Allocation change = Allocation::Same;
    std::string effect; // what the trainer did about it, in words
};

struct RunResult {
    double final_test_acc = 0.0; // of a cancelled run, maybe the last test's (EpochMetrics::tested) or NaN
    int epochs = 0;
    std::int64_t steps = 0;
    std::vector<int> actions; // every action the agent chose, Do Nothing included
    bool cancelled = false;
    model::ModelSummary final_model;
};

// Once, when everything is loaded and the first epoch is about to begin.
struct RunStart {
    std::string run_dir;          // the run folder, empty when none is written
    model::ModelSummary model;    // the starting model
    double budget = 0.0;          // seconds
    double start_time = 0.0;      // seconds already used
    std::int64_t train_samples = 0;
    std::int64_t batches_per_epoch = 0;
};

// What a training run tells its observers, and when. Every hook has an empty default, so an
// observer overrides only what it needs. In the order a run makes them:
//
//   on_message(text)     A warning or note worth a log line: from the Trainer's constructor (a CUDA
//                        device asked for and not there), and from run_experiment (the config's
//                        warnings, the agent's notes). It may come before on_start.
//   on_start(RunStart)   Once, when the data and model are loaded and nothing has trained yet. Sent
//                        by run_experiment (it knows the run folder), not by Trainer itself: code
//                        that drives a Trainer directly gets none.
//   on_epoch(metrics)    The replay: resume_from() calls it once for every epoch in the checkpoint's
//                        history, in order, with the values recorded then (none `final`), before it
//                        returns, so that an observer of a branch sees the same series as one of the
//                        unbroken run. Only epochs are replayed: the allocation and adaptations
//                        before the checkpoint are not reported again.
//   on_adaptation(e)     After each consultation of the agent while adapting (at most
//                        trainer.max_decisions after an "up"), before the epoch it affects: the model
//                        is already deepened (or not: did_nothing) and the optimizer fresh.
//   on_progress(p)       After every training step. p.epoch counts epochs started, interrupted ones
//                        included, so after an allocation it runs ahead of EpochMetrics::epoch.
//   on_allocation(r)     When the scheduler reports a change, between two batches, after the trainer
//                        acted on it (r.effect) and after the warm-start checkpoint, if any, was
//                        written. The epoch in progress ends there and is reported by no on_epoch.
//   on_epoch(metrics)    After every completed epoch, with its test accuracy.
//   on_epoch(final)      Once, when the budget is spent or the run is cancelled: `final = true`. It
//                        is not an epoch: nothing trained since the last report, `epoch` repeats the
//                        count of completed epochs, train_loss and train_acc are 0, and test_acc is
//                        a fresh evaluation of the model as it ends (which costs eval_cost on the
//                        virtual clock), unless a stop ended the test early: then `tested` is false,
//                        test_acc the last test's (NaN before any) and the run counts as cancelled.
//                        Whoever counts epochs skips it.
//   on_finished(result)  Last, once, cancelled runs included.
//
// Thread: every hook runs synchronously on the thread that called the constructor, resume_from(),
// run() or run_experiment(), one at a time; hooks are never called concurrently.
// Blocking: a hook may block as long as it likes and the run waits for it; the workbench pauses a
// run this way (its Worker blocks in on_progress). With a WallClock the time blocked
// counts against the budget; with the VirtualClock it does not. A stop requested meanwhile is seen
// at the next check between batches, so a blocking hook should wake on the same stop token.
// Exceptions: an exception thrown from a hook propagates unchanged out of the call that fired it
// (the constructor, resume_from(), run(), run_experiment()): the run is abandoned there, with no
// further hooks, no final report and no on_finished, and that Trainer must not be run again. What
// was written before stays (the warm-start checkpoint, a RunFolder's records).
class TrainObserver {
public:
    virtual ~TrainObserver() = default;
    virtual void on_start(const RunStart&) {}
    virtual void on_epoch(const EpochMetrics&) {}
    virtual void on_progress(const BatchProgress&) {}
    virtual void on_adaptation(const AdaptationEvent&) {}
    virtual void on_allocation(const AllocationRecord&) {}
    virtual void on_message(const std::string&) {} // warnings and notes worth a log line
    virtual void on_finished(const RunResult&) {}
};

// Fans every call out to several observers, in the order they were added. An observer that throws
// stops that call's fan-out: those after it miss the call, and the exception goes on to the run.
class ObserverList final : public TrainObserver {
public:
    void add(TrainObserver* o)
    {
        if (o)
            list_.push_back(o);
    }
    void on_start(const RunStart& s) override { each(&TrainObserver::on_start, s); }
    void on_epoch(const EpochMetrics& m) override { each(&TrainObserver::on_epoch, m); }
    void on_progress(const BatchProgress& p) override { each(&TrainObserver::on_progress, p); }
    void on_adaptation(const AdaptationEvent& e) override { each(&TrainObserver::on_adaptation, e); }
    void on_allocation(const AllocationRecord& r) override { each(&TrainObserver::on_allocation, r); }
    void on_message(const std::string& s) override { each(&TrainObserver::on_message, s); }
    void on_finished(const RunResult& r) override { each(&TrainObserver::on_finished, r); }

private:
    template <class T>
    void each(void (TrainObserver::*hook)(const T&), const T& value)
    {
        for (auto* o : list_)
            (o->*hook)(value);
    }

    std::vector<TrainObserver*> list_;
};

} // namespace rlda::core::train
