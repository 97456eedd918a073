// The pieces of a run built from its config: dataset, agent, clock, allocation events and the
// job's model. core/run/experiment_run.h puts them together into a run folder.
#pragma once

#include "core/agent/agent.h"
#include "core/config/experiment.h"
#include "core/data/dataset.h"
#include "core/job/events.h"
#include "core/model/spec.h"
#include "core/train/trainer.h"

#include <filesystem>
#include <memory>
#include <stop_token>

namespace rlda::core::train {

// The configured dataset; errors name the expected files and how to obtain them.
data::DatasetSplit load_dataset(const config::DatasetConfig& c, std::uint64_t seed);
// A saved policy (greedy or sampling at agent.temperature), or any agent of
// agent::make_rule_agent (core/agent/from_config.h); the policy's warnings (layers outside its
// vocabulary) go to `observer`.
std::unique_ptr<agent::Agent> make_agent(const config::AgentConfig& c, TrainObserver* observer = nullptr);
std::unique_ptr<Clock> make_clock(const config::SchedulerConfig& c);
std::vector<AllocationEvent> allocation_events(const config::SchedulerConfig& c);
// The job's model for the dataset's sample shape and classes.
model::ModelSpec job_model(const config::ExperimentConfig& c, const data::DatasetSplit& data);

} // namespace rlda::core::train
