// What adaptation is worth, as values: a run beside the same job without adaptation, where the
// second run's folder goes, and the line that states the difference. The entry point that trains
// both (run_comparison, core/run/experiment_run.h) fills a Comparison; the workbench and `rlda
// train --compare none` show it without linking the trainer. Namespace run, as the entry point's.
#pragma once

#include "core/job/events.h"

#include <filesystem>
#include <string>

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

} // namespace rlda::core::run
