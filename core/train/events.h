// What training reports while it runs: plain value types, shared by core, files and the workbench.
#pragma once

#include "core/model/spec.h"
#include "core/train/scheduler.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlda::core::train {

// After every completed epoch (and once more, `final = true`, when the budget runs out).
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
    std::vector<double> probabilities; // empty when the agent has none
    model::ModelSummary before;
    model::ModelSummary after;
    double max_abs_diff = -1.0; // eval-mode function-preservation check; -1 = not measured
};

struct AllocationRecord {
    double time = 0.0;
    Allocation change = Allocation::Same;
    std::string effect; // what the trainer did about it, in words
};

struct RunResult {
    double final_test_acc = 0.0;
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

// Hooks called on the training thread. The workbench forwards them as queued Qt signals.
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

// Fans every call out to several observers, in order.
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
