// The learner's command-line options, shared by `rlda learn`, `rlda reproduce` and `rlda transfer`:
// --learner PRESET, then --baseline, --normalise, --entropy-bonus and --episodes-per-update over it,
// and --reward, how a replicated table's reward is read.
#pragma once

#include "core/agent/learner_options.h"
#include "core/table/results.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace rlda::app {

struct LearnerFlags {
    std::string preset = "original";
    std::optional<double> baseline;
    bool normalise = false;
    std::optional<double> entropy_bonus;
    std::optional<std::int64_t> episodes_per_update;
    std::string reward = "replicate"; // a name of core::sim::reward_draw_names()

    // The preset with the options given on the command line over it; Error for a bad combination.
    core::agent::LearnerOptions options() const;
    core::sim::RewardDraw reward_draw() const;
};

void add_learner_flags(CLI::App* cmd, LearnerFlags& flags);

} // namespace rlda::app
