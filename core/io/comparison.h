// What adaptation is worth, as values: a run beside the same job without adaptation, where the
// second run's folder goes, and the line that states the difference. The entry point that trains
// both (run_comparison, core/run/experiment_run.h) fills a Comparison; the workbench and `rlda
// train --compare none` show it without linking the trainer. Namespace run, as the entry point's.
#pragma once

#include "core/config/experiment.h"
#include "core/job/events.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace rlda::core::run {

struct Comparison {
    train::RunResult adapted;  // the configured run
    train::RunResult baseline; // agent.kind "none": the agent always chooses Do Nothing
    std::filesystem::path adapted_dir;
    std::filesystem::path baseline_dir;
    bool baseline_ran = false; // false when the configured run was cancelled: no baseline
    // Final test accuracy with adaptation minus without (meaningful when baseline_ran).
    double difference() const { return adapted.final_test_acc - baseline.final_test_acc; }
};

// The comparison in one line, as `rlda train --compare none` prints it and the workbench states it:
// "adaptation: A final test accuracy; no adaptation: B; difference: +D", four decimals each.
std::string comparison_line(const Comparison& c);

// The baseline's run folder beside `out`: OUT-none.
std::filesystem::path baseline_folder(const std::filesystem::path& out);

// The same comparison at several seeds (job.seed), paired: each seed's two runs share the seed's
// starting weights, data order and warm start, so the seed's difference removes what the seed adds
// to both. What W&B users do when they group runs by seed, with the interval they leave out.
struct SeedComparisons {
    std::vector<std::uint64_t> seeds; // asked for, in order
    std::vector<Comparison> runs;     // one per seed whose two runs both finished, in that order
    bool cancelled = false;           // stopped before every seed's pair finished
};

// The mean of paired differences with its two-sided 95 % t interval (n - 1 degrees of freedom);
// no interval below 2 differences. `shown` says what the interval says at that level: +1 when it
// lies above 0 (adaptation raised the final test accuracy), -1 when below, 0 when it holds 0.
struct PairedDifference {
    int n = 0;
    double mean = 0.0;
    double sd = 0.0; // of the differences
    double low = 0.0, high = 0.0;
    bool has_interval() const { return n >= 2; }
    int shown() const { return !has_interval() ? 0 : low > 0.0 ? 1 : high < 0.0 ? -1 : 0; }
};
PairedDifference paired_difference(const std::vector<double>& differences);
PairedDifference paired_difference(const SeedComparisons& c);

// Error unless seeds are given, none twice: what a comparison over seeds is refused for at once.
void check_seeds(const std::vector<std::uint64_t>& seeds);
// What run_seed_comparisons (core/run/experiment_run.h) checks before anything trains: check_seeds,
// and every folder free (or, with `force`, rlda's). Throws Error naming the seed or the folder.
void check_seed_comparisons(const config::ExperimentConfig& c, const std::filesystem::path& out,
                            const std::vector<std::uint64_t>& seeds, bool force);

// Where seed S's pair goes under `out`: OUT/seed-S, its baseline OUT/seed-S-none.
std::filesystem::path seed_folder(const std::filesystem::path& out, std::uint64_t seed);

// What `rlda train --compare none --seeds ...` prints after the runs and the workbench states: a line
// per seed ("seed S: adaptation A, no adaptation B, difference +D"), then the mean difference with
// its interval and what it shows ("difference: +D (95 % interval +L to +H, paired t over N seeds,
// sd S): adaptation raised the final test accuracy", or "no difference shown at 95 % (the interval
// holds 0)"), and never a claim the interval does not make.
std::vector<std::string> seed_comparison_lines(const SeedComparisons& c);
// The last of those lines alone: the mean difference, its interval and what it shows.
std::string paired_difference_line(const PairedDifference& d);

} // namespace rlda::core::run
