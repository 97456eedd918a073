// Subcommands of `rlda`: each adds itself to the CLI11 app and runs when selected. A command parses
// its options into core's types and calls one entry point of the engine (core/run/,
// core/sim/build.h, ...); what it refuses is a core::Error, which main.cpp prints as one line with
// exit code 1 (2: a command line CLI11 cannot parse).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rlda::core::sweep {
class SlurmSweep;
}

namespace rlda::core::config {
struct ExperimentConfig;
}

namespace rlda::app {

// `--dataset KIND` and every `--set section.key=value` of `train` and `simulate`, applied together
// and then validated once (core::config::apply_overrides), so that their order never matters.
void apply_command_line(core::config::ExperimentConfig& config, const std::string& dataset,
                        const std::vector<std::string>& overrides);

// CONFIG of `train` and `simulate`: the path as given when something is there; else, a bare name
// (no '/') of a shipped example, `synthetic-quick` or `synthetic-quick.toml`, is that example's
// file in the first of core::example_dirs() holding it (installed: share/rlda-workbench/examples);
// else the path as given, for the reader to refuse by name.
std::string experiment_file(const std::string& config);

// Registers `rlda config keys` (every setting of an experiment file, from core/config/schema.h) and
// `rlda config examples` (the shipped example experiments, core/util/data_dir.h).
std::function<int()> add_config_command(CLI::App& app);
// Registers `rlda model show …`. The returned callable runs the command and gives its exit code.
std::function<int()> add_model_command(CLI::App& app);
// Registers `rlda train CONFIG.toml …`.
std::function<int()> add_train_command(CLI::App& app);
// Registers `rlda simulate CONFIG.toml …`.
std::function<int()> add_simulate_command(CLI::App& app);
// Registers `rlda learn …` and `rlda evaluate …`.
std::function<int()> add_learn_command(CLI::App& app);
std::function<int()> add_evaluate_command(CLI::App& app);
// Registers `rlda reproduce …` (the paper's evaluation on its shipped tables).
std::function<int()> add_reproduce_command(CLI::App& app);
// Registers `rlda transfer …` (leave one model out, learn on the rest, judge on it).
std::function<int()> add_transfer_command(CLI::App& app);
// Registers `rlda transfer-compare RUN…` (transfer runs side by side, per held-out model).
std::function<int()> add_transfer_compare_command(CLI::App& app);
// Registers `rlda noise TABLES…` (replicate tables: one sequence's spread against the sequences').
std::function<int()> add_noise_command(CLI::App& app);
// Registers `rlda figures …`; without the GUI build it only says that it needs it.
std::function<int()> add_figures_command(CLI::App& app);
// Registers `rlda sweep status|wait|cancel DIR` (Slurm sweeps, re-attached through DIR/sweep.json).
std::function<int()> add_sweep_command(CLI::App& app);
// Follows a Slurm sweep to its end, a progress line whenever it changes (unless `quiet`), failed
// parts resubmitted, table.csv collected: 0 when complete, 130 when cancelled or detached by
// Ctrl-C / SIGTERM (the jobs go on), Error naming the parts that failed for good and their logs.
int follow_slurm_sweep(core::sweep::SlurmSweep& job, double poll_seconds, bool quiet = false);

} // namespace rlda::app
