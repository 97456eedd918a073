// From an experiment config to a finished run folder: the glue the command line and the
// workbench share. It sits above train (the trainer and its pieces, core/train/setup.h) and io (the
// run folder it writes), so that neither of those needs the other.
#pragma once

#include "core/config/experiment.h"
#include "core/io/comparison.h" // Comparison, baseline_folder
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

// The configured experiment with no adaptation: agent.kind "none", the name with "-none" added;
// everything else (seed, data, clock, events, decisions consulted) the same, so the two runs
// differ only in what the agent chooses.
config::ExperimentConfig without_adaptation(const config::ExperimentConfig& c);

// Runs `c` into `out`, then without_adaptation(c) into baseline_folder(out), one after the other
// on the calling thread, both with `observer` (its on_start's run_dir tells the runs apart).
// Cancelling through `stop` ends the current run as run_experiment() does and skips the baseline
// if it has not begun. Both folders are checked before anything trains: an existing non-empty
// one is an Error unless `force` (and rlda made it). Throws what run_experiment() throws.
Comparison run_comparison(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                          TrainObserver* observer = nullptr, const std::stop_token& stop = {});

// run_comparison at each of `seeds` (job.seed), one seed after the other, seed S's pair in
// seed_folder(out, S) and its baseline beside it. Every folder is checked before anything trains.
// A stop ends the current run and skips the seeds after it: `cancelled`, and `runs` holds the seeds
// whose two runs finished. Error for no seeds or a seed given twice.
SeedComparisons run_seed_comparisons(const config::ExperimentConfig& c, const std::filesystem::path& out,
                                     const std::vector<std::uint64_t>& seeds, bool force,
                                     TrainObserver* observer = nullptr, const std::stop_token& stop = {});

} // namespace rlda::core::run
