// The adapting trainer (the paper's Algorithm 1): trains under the scheduler's budget, consults the
// agent after an "up", grows the model with Net2Net, and undoes the last growth on a "down".
// After an "up" it asks the agent trainer.max_decisions times, applies each chosen action (deepen or
// widen an original block: config::trainer_actions) and starts a fresh optimizer at the initial
// learning rate, as the original did; after a "down" the smaller model distils from the larger one
// (trainer.distill_*). run::run_experiment and the table builder (core/sim/build.h) drive it, on
// their own thread; what it reports, and when, is core/job/events.h's contract.
#pragma once

#include "core/agent/agent.h"
#include "core/config/experiment.h"
#include "core/job/clock.h"
#include "core/job/events.h"
#include "core/job/scheduler.h"
#include "core/model/spec.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stop_token>
#include <string>

namespace rlda::core::data {
struct DatasetSplit;
}

namespace rlda::core::train {

// The config sections the trainer reads, plus what only a caller can know.
struct TrainerSettings {
    config::JobConfig job;         // batch, optimizer, lr schedule, device (refused when absent: train/device.h), seed
    config::TrainerConfig trainer; // decisions per "up", distillation, preservation check
    std::int64_t eval_batch = 1000;
    // Where to save the warm-start checkpoint at the first allocation event; empty = nowhere.
    std::filesystem::path warm_start_checkpoint;
    // Gather the gradient statistics of decision features while training (core/train/probe.h), so
    // that decision_features() can be measured. On by itself when the agent reads_features(); a
    // table build sets it. Changes no number of the run, costs a little per step.
    bool measure_features = false;
};

// A run's state at a pending decision, held in memory: the model, the counters, the clock, the
// scheduler, LibTorch's CPU random generator and the last epoch's gradient statistics. No optimizer: a decision always starts a fresh one.
// sim::build_table builds a table as a tree of these (core/sim/build.h).
class TrainerState {
public:
    struct Data;
    TrainerState();
    ~TrainerState();
    TrainerState(const TrainerState&);
    TrainerState& operator=(const TrainerState&);

private:
    friend class Trainer;
    std::shared_ptr<const Data> data_;
};

class Trainer {
public:
    // `data`, `scheduler`, `clock`, `agent` and `observer` must outlive the trainer. The observer's
    // contract (threads, blocking, exceptions, the replay, the final report) is in events.h.
    Trainer(TrainerSettings settings, model::ModelSpec base, const data::DatasetSplit& data,
            Scheduler& scheduler, Clock& clock, agent::Agent& agent, TrainObserver* observer = nullptr);
    ~Trainer();
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    // Continues from a warm-start checkpoint instead of starting fresh: model, optimizer, clock,
    // scheduler, data order and metrics so far. The next step is the agent's first consultation.
    // Replays the checkpoint's epochs to the observer as on_epoch calls before returning (events.h).
    // Reads both checkpoint layouts (checkpoint.h). A file that is not a checkpoint, or one of
    // another job, is an Error of one line naming the file, and leaves the trainer as it was.
    void resume_from(const std::filesystem::path& checkpoint);

    // Runs until the budget is spent or `stop` is requested (checked between batches).
    RunResult run(const std::stop_token& stop = {});

    // Stepping through a run decision by decision, for building a table as a tree. A run so stepped
    // does what run() does with an agent that chose those actions, bit for bit: the same checks at
    // the same points of the same loop.
    enum class Pause {
        Decision, // the agent is about to be consulted: state() may be taken, decide() must follow
        Ended,    // the budget is spent, or `stop` was requested: run() ends it (its final report)
    };
    // Trains until the next consultation or the end, whichever comes first.
    Pause run_to_decision(const std::stop_token& stop = {});
    // Takes `action` at the pending decision, as if the agent had chosen it, then trains on to the
    // next consultation or the end. Error when no decision is pending or the action is out of range.
    Pause decide(int action, const std::stop_token& stop = {});
    // The state at a pending decision; Error when none is pending.
    TrainerState state() const;
    // The decision features at the pending decision (core/train/probe.h says what each is), as the
    // agent would be given them; Error when none is pending. Their grad_sq_mean are 0 unless the
    // run gathers them (TrainerSettings::measure_features) and has completed an epoch since it
    // started or resumed from a checkpoint that kept them. Changes nothing of the run.
    agent::DecisionFeatures decision_features() const;
    // Back to a state taken by state() of this trainer (no observer hook runs).
    void restore(const TrainerState& state);
    // What this trainer computed since construction (resumed and replayed work not counted): what
    // a table's build costs. Epochs completed, training steps (an epoch cut by the budget's end
    // counts its steps), and test evaluations computed (one of unchanged weights is reused).
    struct Work {
        std::int64_t epochs = 0;
        std::int64_t steps = 0;
        std::int64_t evaluations = 0;
    };
    Work work() const;

    // The current model (valid after construction), e.g. to save it after the run.
    const model::ModelSpec& model_spec() const;
    void save_model(const std::filesystem::path& file) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace rlda::core::train
