// From an experiment config to a finished run folder: the glue the command line and the
// workbench share. It sits above train (the trainer and its pieces, core/train/setup.h) and io (the
// run folder it writes), so that neither of those needs the other.
#pragma once

#include "core/config/experiment.h"
#include "core/job/events.h"

#include <filesystem>
#include <string>
#include <stop_token>

namespace rlda::core::run {

using train::RunResult;
using train::TrainObserver;

// Runs Algorithm 1 as configured and leaves in `out`: config.toml (after defaults),
// metrics/*.csv, events.jsonl, warm_start.pt (at the first allocation event) and model.pt.
// An existing non-empty `out` is an Error unless `force` and rlda made it (core/util/output_folder.h).
RunResult run_experiment(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                         TrainObserver* observer = nullptr, const std::stop_token& stop = {});

// What adaptation is worth: the configured run beside the same job without adaptation.
struct Comparison {
    RunResult adapted;                 // the configured run
    RunResult baseline;                // agent.kind "none": the agent always chooses Do Nothing
    std::filesystem::path adapted_dir;
    std::filesystem::path baseline_dir;
    bool baseline_ran = false;         // false when the configured run was cancelled: no baseline
    // Final test accuracy with adaptation minus without (meaningful when baseline_ran).
    double difference() const { return adapted.final_test_acc - baseline.final_test_acc; }
};

// The comparison in one line, as `rlda train --compare none` prints it and the workbench states it:
// "adaptation: A final test accuracy; no adaptation: B; difference: +D", four decimals each.
std::string comparison_line(const Comparison& c);

// The configured experiment with no adaptation: agent.kind "none", the name with "-none" added;
// everything else (seed, data, clock, events, decisions consulted) the same, so the two runs
// differ only in what the agent chooses.
config::ExperimentConfig without_adaptation(const config::ExperimentConfig& c);
// The baseline's run folder beside `out`: OUT-none.
std::filesystem::path baseline_folder(const std::filesystem::path& out);

// Runs `c` into `out`, then without_adaptation(c) into baseline_folder(out), one after the other
// on the calling thread, both with `observer` (its on_start's run_dir tells the runs apart).
// Cancelling through `stop` ends the current run as run_experiment() does and skips the baseline
// if it has not begun. Both folders are checked before anything trains: an existing non-empty
// one is an Error unless `force` (and rlda made it). Throws what run_experiment() throws.
Comparison run_comparison(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                          TrainObserver* observer = nullptr, const std::stop_token& stop = {});

} // namespace rlda::core::run
