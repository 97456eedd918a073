// Transfer runs side by side (docs/agent.md, "The study"): the same held-out models left out by
// runs that differ in the policy (one run per encoder, say), each model's mean rank per run beside
// the references every run shares. `rlda transfer-compare` prints it and draws its figure; the
// Policy page's Transfer tab shows it.
#pragma once

#include "core/table/reliability.h"
#include "core/transfer/summary.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
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
    // Every reference agent's mean rank over the model's tables (reference_agents, reference_mean).
    std::vector<std::pair<std::string, double>> references;
    // Per run, per held-out table (in fold order): how many independent draws its seeds are, 1 where
    // every seed chose the same sequence (TransferSummaryRow::choices), else the seeds that judged
    // the table; empty where the run judged nothing of the model.
    std::vector<std::vector<int>> draws;
    std::vector<std::string> table_files; // the model's held-out tables, in fold order
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

// A held-out table as the tests read it: every sequence's rank (sequence_ranks: what a random
// agent's rank is drawn from) and its accuracies by seed (sequences in code order) with the noise
// of its seed-blocked fit (core/table/variance_model.h), which the within-model contrasts test
// against; sigma_e and df_e are 0 for a single-seed table, which has no such test.
struct StudyTable {
    std::vector<int> ranks;
    int num_actions = 0;
    sim::ReplicateAccuracies accuracies;
    double sigma_e = 0.0;
    double df_error = 0.0;
};
using StudyTables = std::map<std::string, StudyTable>; // by the file a row names
// The held-out tables the rows name, read from their files (data/... where the shipped data is,
// when not found as written). A table that cannot be read is left out: its model gets no test
// against chance and no contrast on it. Reads files: call it off the GUI thread.
StudyTables read_study_tables(const std::vector<StudyRow>& rows);

// The study judged with the held-out model as its unit (docs/agent.md, "The study"). Learning seeds
// and a model's several tables are not independent evidence: a model is.
//
// One agent against another: each model's mean rank as a fraction of its sequences, paired by model.
// Across the models, Wilcoxon's signed-rank test (exact, two-sided, at kStudyLevel). A verdict of
// "better" or "worse" needs the test; otherwise the two are not distinguishable.
inline constexpr double kStudyLevel = 0.05;
enum class StudyVerdict { Better, Worse, NotDistinguishable };
struct StudyComparison {
    std::string agent;   // a run's label
    std::string against; // another run's label, or a reference agent (a heuristic, "none", "random")
    int models = 0;      // judged by both
    int better = 0;      // models where `agent`'s mean rank is the lower
    int worse = 0;
    int tied = 0;
    double p = 1.0; // Wilcoxon's signed-rank test over the models
    StudyVerdict verdict = StudyVerdict::NotDistinguishable;
};
// One run's policy on one model against a random agent judged as often, where "as often" counts one
// draw per table on which the policy chose the same sequence at every learning seed (its seeds are
// then one draw), else one per seed: P(a random agent's mean rank <= the policy's), exact
// (random_mean_p). Better than chance where p < kStudyLevel.
struct ChanceTest {
    std::string agent; // a run's label
    std::string model;
    int draws = 0; // over the model's tables
    double p = 1.0;
};
// Within one held-out model: a run's policy against another agent, paired by the table's seeds.
// On each of the model's replicated tables, at each seed r, an agent earns the mean accuracy at r of
// the sequences it chose there: a policy, each learning seed's greedy sequence (as ranks.csv records
// it); a reference, its sequence; random, every sequence alike. The contrast is the policy's less
// the other's, averaged over the seeds, then over the model's tables. The sequences chosen are taken
// as fixed: what is uncertain is their accuracy, whose noise is the table's sigma_e, so its
// variance is sigma_e^2 sum_s (w_a(s) - w_b(s))^2 / R for the agents' weights w over the sequences
// (the seed's offset cancels), and Satterthwaite's df over the tables. A two-sided t test, Holm's
// step-down over the model's contrasts at kStudyLevel: "better" or "worse" needs it.
struct ModelContrast {
    std::string model;
    std::string agent;       // a run's label
    std::string against;     // another run's label, a reference agent, or "random"
    int tables = 0;          // replicated tables it was tested on
    double difference = 0.0; // mean accuracy, agent less against (a fraction)
    double se = 0.0;
    double df = 0.0;
    double p = 1.0; // Holm-adjusted over the model's contrasts
    StudyVerdict verdict = StudyVerdict::NotDistinguishable;
};
struct StudyTests {
    std::vector<StudyComparison> comparisons; // each run against every other run, then each reference
    std::vector<ChanceTest> chance;           // run by run, model by model (where the tables were read)
    // Model by model: each run against each later run (the reverse is its mirror), then every
    // reference and random.
    std::vector<ModelContrast> contrasts;
    // The agent better than every other agent (every comparison of it "better": an intersection-union
    // test, each at kStudyLevel); empty when no agent is.
    std::string best;
};
StudyTests test_study(const std::vector<StudyRun>& runs, const std::vector<StudyRow>& rows,
                      const StudyTables& tables);
// The tests as the lines `rlda transfer-compare` prints and the Policy page's Transfer tab shows.
std::vector<std::string> study_test_lines(const std::vector<StudyRow>& rows, const StudyTests& tests);
// Whether run `label`'s mean rank on `row` is better than chance: its ChanceTest where the tables
// were read, else below the random interval the run recorded (beats_random).
bool beats_chance(const StudyTests& tests, const StudyRow& row, const std::string& label, double mean);

// Whether the row has a random agent's interval (a run written before it was recorded has not).
bool has_random_interval(const StudyRow& row);
// Whether `mean` is better than chance: below where 95 % of a random agent's mean rank falls.
// False when the row has no interval (a run written before it was recorded).
bool beats_random(const StudyRow& row, double mean);

} // namespace rlda::core::run
