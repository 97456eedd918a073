// Transfer runs side by side (docs/agent.md, "The study"): the same held-out models left out by
// runs that differ in the policy (one run per encoder, say), each model's mean rank per run beside
// the references every run shares. `rlda transfer-compare` prints it and draws its figure; the
// Policy page's Transfer tab shows it.
#pragma once

#include "core/transfer/summary.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::run {

struct StudyRun {
    std::string label;                       // the run's name in the table and figure ("state")
    std::vector<TransferSummary> summaries;  // summarize_transfer of its run
};

// A transfer run folder read and summarized (read_transfer, summarize_transfer), named `label`, or,
// when that is empty, by the folder's own name ("runs/study/state/" is "state"). Throws Error as
// read_transfer does.
StudyRun read_study_run(const std::filesystem::path& folder, std::string label = {});

// One held-out model across the runs.
struct StudyRow {
    std::string model;
    int sequences = 0;  // a table
    int tables = 0;     // judged
    std::vector<std::optional<double>> means;  // per run: its mean rank over seeds and tables;
                                               // nullopt where the run judged nothing of this model
    // The references, from the first run that left the model out (TransferFold's).
    double random = 0.0;
    double random_low = 0.0;  // a random agent judged as often: 95 % within [low, high]
    double random_high = 0.0;
    double no_adaptation = 0.0;
    double best_fixed = 0.0;
    std::optional<BestHeuristic> heuristic;
};

// A row per held-out model, in the order the runs first meet them. Throws Error naming both runs
// when two runs left the same model out with different tables to judge it on: their ranks would
// not be comparable.
std::vector<StudyRow> compare_transfers(const std::vector<StudyRun>& runs);

// One agent over every held-out model: the mean, over the models that judged it, of its mean rank
// as a fraction of the model's sequences, so that models of 16 and 64 sequences weigh alike. A
// reference agent that is best on one model and worst on another shows here for what it is.
struct StudyAverage {
    std::string agent; // a run's label, or a reference's agent ("gradient", "none", "random", ...)
    bool run = false;  // a run's policy, not a reference
    double fraction = 0.0;
    int models = 0;
};
// Each run, then each reference agent in the order the first run's tables list them.
std::vector<StudyAverage> study_averages(const std::vector<StudyRun>& runs, const std::vector<StudyRow>& rows);

// Whether the row has a random agent's interval (a run written before it was recorded has not).
bool has_random_interval(const StudyRow& row);
// Whether `mean` is better than chance: below where 95 % of a random agent's mean rank falls.
// False when the row has no interval (a run written before it was recorded).
bool beats_random(const StudyRow& row, double mean);

} // namespace rlda::core::run
