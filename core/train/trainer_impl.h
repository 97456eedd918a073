// Trainer::Impl, the trainer's state and its work, in three files by concern (below). Internal to
// core/train: only trainer.cpp, trainer_adaptation.cpp and trainer_persistence.cpp include it.
#pragma once

#include "core/train/trainer.h"

#include "core/data/dataset.h"
#include "core/data/sampler.h"
#include "core/net/net.h"
#include "core/train/probe.h"

#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace rlda::core::train {

// The members are in the order the constructor initializes them: sampler after device, actions after
// s and base.
struct Trainer::Impl {
    using Pause = Trainer::Pause;

    // What the run is given and its data on the device: set by the constructor, read by all.
    TrainerSettings s;
    model::ModelSpec base;
    const data::DatasetSplit& data;
    Scheduler& sched;
    Clock& clock;
    agent::Agent& agent;
    TrainObserver null_observer;
    TrainObserver& obs;

    torch::Device device{torch::kCPU};
    data::Dataset train, test; // on `device`
    data::BatchSampler sampler;

    // The model trained and its optimizer: trained by the epoch loop, replaced by adaptation, resume()
    // and Trainer::restore.
    model::Net net{nullptr};
    std::unique_ptr<torch::optim::Optimizer> opt;
    double lr = 0.0;

    // Adaptation's state: written by adaptation (and resume, restore), read by the epoch loop (when to
    // consult, the distillation loss).
    model::ActionSpace actions; // what the agent chooses among: [trainer] operations on base's blocks
    std::vector<int> grown;     // actions applied and not undone: the current spec is base + these
    std::vector<int> chosen;    // every action the agent chose
    bool adapting = false;
    int decisions = 0;
    model::Net teacher{nullptr};
    double distill_weight = 0.0;

    // The run's counters, metrics and bookkeeping: advanced by the epoch loop, saved and put back by
    // persistence.
    int epochs_started = 0;
    int epochs_completed = 0;
    std::int64_t steps = 0;
    bool checkpoint_saved = false;
    std::vector<EpochMetrics> history;
    std::optional<int> forced; // decide(): the action to take instead of asking the agent
    // Bumped whenever the weights may change (a step, an adaptation, a new network): an evaluation of
    // unchanged weights (a run's final report right after its last epoch's) is not computed again.
    std::uint64_t weights_version = 0;
    std::optional<std::pair<std::uint64_t, double>> last_evaluation;
    // The accuracy of the last test made, NaN before the first.
    double last_tested_accuracy() const
    {
        return last_evaluation ? last_evaluation->second : std::numeric_limits<double>::quiet_NaN();
    }
    Trainer::Work work; // by this trainer, for build costs
    // Decision features: gathered when measuring (the settings, or an agent that reads them).
    bool measuring = false;
    GradientStats grad_stats;         // the epoch in progress
    std::vector<double> grad_sq_mean; // the last completed epoch's; empty: none gathered yet

    // Setting up (trainer.cpp): the constructor, and the helpers that adaptation, resume() and
    // Trainer::restore call again when they put a new network or optimizer in place.
    Impl(TrainerSettings settings, model::ModelSpec base_spec, const data::DatasetSplit& d, Scheduler& sc,
         Clock& c, agent::Agent& a, TrainObserver* o);
    void place(model::Net& n) const;
    void make_optimizer();
    std::unique_ptr<torch::optim::Optimizer> make_optimizer(model::Net& n, double rate) const;
    void set_lr(double value);

    // The epoch loop (trainer.cpp): what Trainer::run, run_to_decision and decide call.
    enum class EpochEnd { Completed, Interrupted, Expired, Cancelled };
    // The test accuracy of the model as it is, or nullopt when `stop` was requested before the test
    // set was through (checked between evaluation batches: a cancel does not wait for a test of
    // 10,000 images); a stopped test costs no time and is not remembered.
    std::optional<double> evaluate(const std::stop_token& stop = {});
    torch::Tensor loss_for(const torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& y);
    EpochEnd train_epoch(const std::stop_token& stop);
    EpochMetrics measure(double lr_used, double test_acc);
    RunResult run(const std::stop_token& stop);
    bool decision_pending() const;
    Pause run_to_decision(const std::stop_token& stop);
    Pause decide(int action, const std::stop_token& stop);

    // Adaptation (trainer_adaptation.cpp): the epoch loop calls consult() before an epoch in adaptation
    // mode and handle_allocation() at an allocation change; Trainer::decision_features calls
    // decision_features().
    agent::DecisionFeatures decision_features();
    void consult();
    std::string undo_last_growth();
    void handle_allocation(Allocation change, const std::string& checkpoint_note);

    // Persistence (trainer_persistence.cpp): the warm-start checkpoint, saved by handle_allocation() at
    // the first allocation change and read by Trainer::resume_from. Trainer::state, restore and
    // save_model, in the same file, use the members above directly.
    void save_checkpoint(const std::filesystem::path& file);
    void resume(const std::filesystem::path& file);
    std::string operations_text() const;
    void guarded_grow(const std::filesystem::path& file, model::ModelSpec& spec, int action) const;
};

} // namespace rlda::core::train
