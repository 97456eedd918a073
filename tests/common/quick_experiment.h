// config/synthetic-quick.toml, the experiment the workbench suites train and sweep: ConvNet2 on
// synthetic data, 2 decisions (a 16-row table), done in seconds.
#pragma once

#include "core/config/experiment_io.h"

namespace rlda::test {

// The shipped file at its 4 s budget, or at `budget` seconds.
inline core::config::ExperimentConfig quick_experiment(double budget = 4.0)
{
    auto c = core::config::load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
    c.scheduler.budget = budget;
    return c;
}

} // namespace rlda::test
