// What the trainer suites share: ConvNet2 on a tiny synthetic dataset with the virtual clock, run
// to its budget by train_job, and an observer that records what the run reported.
#pragma once

#include "core/agent/agent.h"
#include "core/data/synthetic.h"
#include "core/model/zoo.h"
#include "core/train/trainer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rlda::test {

struct Recorder : core::train::TrainObserver {
    std::vector<core::train::EpochMetrics> epochs;
    std::vector<core::train::AdaptationEvent> adaptations;
    std::vector<core::train::AllocationRecord> allocations;
    std::int64_t progress = 0;
    std::function<void()> on_batch;
    void on_epoch(const core::train::EpochMetrics& m) override { epochs.push_back(m); }
    void on_adaptation(const core::train::AdaptationEvent& e) override { adaptations.push_back(e); }
    void on_allocation(const core::train::AllocationRecord& r) override { allocations.push_back(r); }
    void on_progress(const core::train::BatchProgress&) override
    {
        ++progress;
        if (on_batch)
            on_batch();
    }
};

// 4 classes of 3x12x12 prototypes plus noise: 8 steps of 32 per epoch.
inline const core::data::DatasetSplit& tiny_data()
{
    static const core::data::DatasetSplit split = [] {
        core::data::SyntheticOptions o;
        o.shape = {3, 12, 12};
        o.classes = 4;
        o.train_size = 256;
        o.test_size = 128;
        o.seed = 5;
        return core::data::make_synthetic(o);
    }();
    return split;
}

inline core::train::TrainerSettings settings()
{
    core::train::TrainerSettings s;
    s.job.batch_size = 32;
    s.job.seed = 17;
    return s;
}

struct Run {
    core::train::RunResult result;
    Recorder rec;
};

// Budget 40 s at 1 s per step: 5 whole epochs of 8 steps.
inline Run train_job(std::vector<core::train::AllocationEvent> events, core::agent::Agent& agent,
                     core::train::TrainerSettings s = settings(), const std::string& checkpoint_to = {},
                     const std::string& resume_from = {}, core::train::TrainObserver* extra = nullptr,
                     double budget = 40.0)
{
    using namespace core::train;
    Run r;
    VirtualClock clock(1.0);
    Scheduler sched(budget, std::move(events), 0.0, clock);
    s.warm_start_checkpoint = checkpoint_to;
    ObserverList obs;
    obs.add(&r.rec);
    obs.add(extra);
    Trainer t(s, core::model::zoo_model("ConvNet2", {3, 12, 12}, 4), tiny_data(), sched, clock, agent, &obs);
    if (!resume_from.empty())
        t.resume_from(resume_from);
    r.result = t.run();
    return r;
}

} // namespace rlda::test
