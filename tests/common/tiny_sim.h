// What the table-building suites share: the tiny experiment whose table they build, and two small
// helpers for comparing files and error messages.
#pragma once

#include "core/config/experiment_io.h"
#include "core/util/error.h"
#include "tests/common/error_of.h"
#include "tests/common/text_file.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

namespace rlda::test {

// ConvNet2 on 4 classes of 3x12x12: 4 steps of 32 an epoch, 1 s a step, so 10 epochs in the
// budget; the allocation goes up at 10 s (mid-epoch 3) and k = 2 decisions over 4 actions = 16 rows.
// Noisy enough that the sequences end at different accuracies, so equal tables mean something.
inline constexpr const char* tiny_toml = "name = \"tiny\"\n"
                                         "[job]\nmodel = \"ConvNet2\"\nbatch_size = 32\nseed = 5\n"
                                         "[dataset]\nkind = \"synthetic\"\nshape = [3, 12, 12]\nclasses = 4\n"
                                         "train_size = 128\ntest_size = 64\nnoise = 4.0\n"
                                         "[scheduler]\nbudget = 40.0\nevents = [{ time = 10.0, change = \"up\" }]\n"
                                         "step_cost = 1.0\n"
                                         "[trainer]\nmax_decisions = 2\n"
                                         "[agent]\nkind = \"simulation\"\n";

inline core::config::ExperimentConfig tiny_config() { return core::config::parse_experiment(tiny_toml, "tiny.toml"); }

} // namespace rlda::test
