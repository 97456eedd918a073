// Judging a sequence, or a rule that walks a table's decision tree, on a simulation table: its
// rank, accuracy and regret beside the paper's baselines, and what a replicated table's seeds say
// of it. The tables a policy learns from are read through the same task (core/sim/learn.h). No
// LibTorch.
#pragma once

#include "core/agent/decision_features.h"
#include "core/model/actions.h"
#include "core/model/spec.h"
#include "core/table/open_table.h"
#include "core/table/results.h"
#include "core/table/table.h"
#include "core/table/table_features.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rlda::core::sim {

// One table, the model its sequences start from, and what its action numbers mean.
struct LearnTask {
    const SimulationTable* table = nullptr;
    const model::ModelSpec* model = nullptr;
    model::ActionSpace actions;
    RewardDraw reward = RewardDraw::Replicate;
    std::uint64_t draw_seed = 0; // the replicate of episode e: a hash of (draw_seed, e) modulo the seeds
    const TableFeatures* features = nullptr; // the table's decision features; null or empty: none
    std::vector<double> seed_offsets = {};   // RewardDraw::Centred: seed_offsets(*table); else empty
};

// The names of RewardDraw, as --reward takes them and a learning run's settings record them:
// "replicate", "mean", "centred".
const std::vector<std::pair<RewardDraw, std::string>>& reward_draw_names();
const std::string& reward_draw_name(RewardDraw reward);

// Per seed of a replicated table: its mean accuracy over the table's sequences less the mean of
// those means, over the seeds every row holds (0 for a race's later seeds, which no episode draws).
// Empty for a single-seed table.
std::vector<double> seed_offsets(const SimulationTable& table);

// Error unless the task's table numbers the actions of its model and operations, and is complete:
// what every judge of a table checks before walking it.
void check_task(const LearnTask& task);
// The table's time budget (its rows' total time); Error for an empty table.
double table_budget(const SimulationTable& table);

// An opened table as a task: its table, model and actions (and its seed offsets, for Centred).
LearnTask learn_task(const OpenedTable& table, RewardDraw reward = RewardDraw::Replicate,
                     std::uint64_t draw_seed = 0);

// The seeds under which a feature-reading agent or policy is walked: a replicated table's seeds()
// (each seed has its own training state), else the one seed its features were recorded at. Error
// for a task without features: "T has no decision features (features.csv); build it again with rlda
// simulate to record them", T the table's source; for a single-seed table's features of several seeds.
std::vector<std::uint64_t> feature_seeds(const LearnTask& task);
// The seeds a rule that may read the training state is walked under: feature_seeds(task) when it
// does, else one walk, under seed 0, which nothing reads.
std::vector<std::uint64_t> walk_seeds(const LearnTask& task, bool reads_state);
// The features recorded at the node `prefix` under `seed`; Error naming the table, the node and the
// seed where there are none.
const agent::DecisionFeatures& features_at(const LearnTask& task, const std::vector<int>& prefix,
                                           std::uint64_t seed);

// Which of a replicated table's seeds episode `episode` (the policy's counter) plays: a hash of
// (task.draw_seed, episode) modulo the seeds; 0 for a single-seed table. A race's table draws among
// the seeds every row holds (its first round's), so that every sequence has a reward. A function of the
// episode, so that a learning run continued from its policy file draws what the unbroken run would have.
std::size_t episode_replicate(const LearnTask& task, std::int64_t episode);
// The accuracy episode `episode` earns with `row` of `task`'s table: the row's accuracy, or for a
// replicated table drawn as task.reward says (episode_replicate's seed, or the mean).
double episode_accuracy(const LearnTask& task, const TableRow& row, std::int64_t episode);

// The sequence with the best mean rank over `tables` (all of one model: the same decisions and
// actions), chosen in hindsight, and that mean: the best any fixed sequence does on them. Error
// for no tables or tables of different shapes.
struct FixedSequence {
    std::vector<int> actions;
    double mean_rank = 0.0;
};
FixedSequence best_fixed_sequence(const std::vector<const SimulationTable*>& tables);

// Where `sequence` stands in `table`, with the paper's baselines: what evaluate() reports for a
// greedy sequence, without its probabilities. `random_seed` seeds the 10 random sequences.
Evaluation evaluate_sequence(const SimulationTable& table, const std::vector<int>& sequence,
                             std::uint64_t random_seed = 0);
// The sequences a rule that reads the training state took, one per seed of feature_seeds() (or a
// single one), judged as one. When they agree, that sequence is judged as evaluate_sequence does.
// When they differ (a replicated table whose seeds trained differently) the rule is judged as what
// it is, one that ends at each seed's own sequence: its accuracy is the mean over the seeds of what
// each seed's sequence earned at that seed, its rank 1 + the sequences whose mean is strictly higher
// (the scale of a policy's rank in the mean table), e.greedy the most frequent sequence (the
// earliest seed's among equals), and Evaluation::seed_sequences lists each seed's.
Evaluation evaluate_seed_sequences(const SimulationTable& table,
                                   const std::vector<std::vector<int>>& sequences,
                                   std::uint64_t random_seed = 0);

// Adds what a replicated table's seeds say to `e` (evaluated on `table`), from the seed-blocked
// model (core/table/variance_model.h): the marginal 95 % rank intervals of the greedy, optimal and
// no-adaptation sequences, whether the greedy sequence is in the 95 % confidence set for the best,
// and the table's reliability; P(best) over a bootstrap of the seeds, descriptive. When
// e.seed_sequences lists a sequence per seed, the greedy "sequence" is no one row: it earned each
// seed's own sequence's accuracy at that seed, and is compared with every row as one more sequence
// (candidate_rank_interval, candidate_among_best). Leaves `e` unchanged for a single-seed table.
// `seed` seeds the bootstrap.
void add_seed_statistics(Evaluation& e, const SimulationTable& table, std::uint64_t seed = 0);

} // namespace rlda::core::sim
