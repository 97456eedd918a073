// The transfer protocol: leave one model out, learn one policy on every table of the others, and
// judge it greedily on every table of the model it never saw, beside the references a reader needs
// (a random sequence, no adaptation, the best fixed sequence chosen in hindsight).
#pragma once

#include "core/agent/learner_options.h"
#include "core/config/experiment.h"
#include "core/sim/results.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace rlda::core::sim {
struct LearnTask; // core/sim/learn.h
} // namespace rlda::core::sim

namespace rlda::core::run {

struct TransferSettings {
    std::vector<std::filesystem::path> tables; // every table, of every model (sim::expand_tables)
    // Replicates of some of those tables (core/sim/replicates.h: the same table at another seed):
    // judged with their model when it is held out, so that its ranks come with their spread, and
    // never learned from, so that the training tables stay the same with or without them.
    std::vector<std::filesystem::path> replicates;
    std::vector<std::string> held_out;         // models left out in turn; empty = each model
    std::int64_t episodes = 75000;             // per held-out model and seed, over its training tables in turn
    std::vector<std::uint64_t> seeds{42};
    config::PolicyConfig policy = [] {
        config::PolicyConfig p;
        p.encoder = config::PolicyEncoder::Structural; // the original encoder serves one block count only
        return p;
    }();
    agent::LearnerOptions learner = agent::LearnerOptions::robust();
    // A replicated training table's reward: one seed's accuracy per episode (drawn with the fold's
    // seed), or the mean (core/sim/results.h).
    sim::RewardDraw reward = sim::RewardDraw::Replicate;
    // Each training model weighs the same, however many tables it has: the episodes go over the
    // models in turn, each model's tables in turn (a model of one table plays it every round).
    // Off: over the tables in turn, so that a model of three tables weighs three times one of one.
    bool balance_models = false;
};

// One held-out model: what it is judged against.
struct TransferFold {
    std::string model;
    std::vector<std::string> training_tables; // files
    std::vector<std::string> tables;          // the held-out model's
    int sequences = 0;
    double random_rank = 0.0;          // a uniformly random sequence's expected rank: (N + 1) / 2
    // Where 95 % of a random agent's mean rank falls when it is judged as often as the policies
    // (a uniformly random sequence once per seed on each held-out table; random_mean_interval).
    // A policy's mean rank below random_mean_low is better than chance. 0 and 0 in a run written
    // before they were recorded.
    double random_mean_low = 0.0;
    double random_mean_high = 0.0;
    double no_adaptation_rank = 0.0;   // mean over the held-out tables
    std::vector<int> best_fixed;       // the fixed sequence of best mean rank there, in hindsight
    double best_fixed_rank = 0.0;      // its mean rank
};

// One greedy evaluation on one held-out table.
struct TransferRank {
    std::string model; // held out
    std::uint64_t seed = 0;
    std::string table; // file
    std::string scenario;
    std::uint64_t table_seed = 0; // the job's seed the table was built with (replicates differ in it)
    sim::Evaluation evaluation;
    int no_adaptation_rank = 0;
    int best_fixed_rank = 0; // the fold's best fixed sequence on this table
};

// A reference on one held-out table, judged once (it learns nothing): each growth heuristic
// (core/agent/heuristics.h) the table can judge (the feature readers need its decision features),
// no adaptation, the fold's best fixed sequence in hindsight, and a uniformly random sequence. Its
// rank comes with the interval over the table's seeds and whether it is indistinguishable from
// the best (core/sim/agent_eval.h), as a policy's does.
struct TransferReference {
    std::string model; // held out
    std::string table; // file
    std::string scenario;
    std::string agent;  // an agent.kind ("gradient", "first", ..., "none"), "best-fixed" or "random"
    double rank = 0.0;  // random: its expected rank, (N + 1) / 2
    int rank_low = 0;   // 95 % interval over the seeds' resamples; for random, of a random sequence's
    int rank_high = 0;  // rank; 0 and 0 for a single-seed table (random: its 2.5 and 97.5 % quantiles)
    double p_best = 0.0;     // P(best) over the resamples; 0 for a single-seed table and for random
    bool among_best = false; // P(best) >= 5 %
    std::vector<int> sequence; // the sequence ranked (a heuristic's most frequent); empty for random
};
// The names of the references that are no heuristic.
inline constexpr const char* kNoAdaptationReference = "none";
inline constexpr const char* kBestFixedReference = "best-fixed";
inline constexpr const char* kRandomReference = "random";
// The references of one held-out table (heuristics in agent.kind order, then "none", "best-fixed",
// "random"). `best_fixed`: the fold's sequence.
std::vector<TransferReference> judge_references(const sim::LearnTask& task, const std::vector<int>& best_fixed);

// Every sequence's rank on one table (ties share the best), ascending: what a uniformly random
// sequence's rank is drawn from.
std::vector<int> sequence_ranks(const sim::SimulationTable& table);

// The 2.5 % and 97.5 % quantiles of the mean of independent uniform draws, `draws` from each list
// of `ranks` (sequence_ranks of each table), computed exactly by convolving the lists.
struct RankInterval {
    double low = 0.0;
    double high = 0.0;
};
RankInterval random_mean_interval(const std::vector<std::vector<int>>& ranks, int draws);

struct TransferResult {
    std::vector<TransferFold> folds;
    std::vector<TransferRank> ranks; // fold by fold, seed by seed, table by table
    std::vector<TransferReference> references; // fold by fold, table by table
    bool cancelled = false;
};

// One held-out model's ranks as a table: a row per held-out table (the rank each seed reached,
// their mean and worst, the references on that table), and the mean over the tables per seed.
// `rlda transfer` prints it, the Policy page shows it.
struct TransferSummaryRow {
    std::string table; // file
    std::string scenario;
    std::uint64_t table_seed = 0; // the seed the table was built with
    std::vector<std::optional<int>> ranks; // per seed of the summary; nullopt where none was judged
    std::optional<double> mean;
    std::optional<int> worst;
    int no_adaptation_rank = 0;
    int best_fixed_rank = 0;
    std::vector<TransferReference> references; // the table's, as judge_references orders them
};
// A scenario of the held-out model whose table exists at several seeds (replicates: the same
// scenario name, another table_seed): the greedy sequence's rank over those tables, with its spread.
struct TransferSpread {
    std::string scenario;
    int tables = 0;     // replicate tables judged
    double mean = 0.0;  // rank, over those tables and every seed
    double sd = 0.0;    // across the tables, of each table's mean rank over the seeds
    int best = 0;       // the best and worst rank among them
    int worst = 0;
};
struct TransferSummary {
    TransferFold fold;
    std::vector<std::uint64_t> seeds; // in the order they were run
    std::vector<TransferSummaryRow> rows;
    std::vector<std::optional<double>> seed_means; // over the tables, per seed
    std::optional<double> mean;                    // over every judged (seed, table)
    std::optional<double> worst_seed_mean;         // the largest of seed_means
    std::vector<TransferSpread> replicates;        // scenarios judged on 2 or more tables; else empty
};
std::vector<TransferSummary> summarize_transfer(const TransferResult& result);

// The growth heuristic (a reference whose agent is a train::is_heuristic kind) of the lowest mean
// rank over the summary's tables that judged it, and that mean; nullopt when no table judged one.
// Among equal means, the first in agent.kind order.
struct BestHeuristic {
    std::string agent;
    double mean_rank = 0.0;
};
std::optional<BestHeuristic> best_heuristic(const TransferSummary& summary);
// Every reference agent the summary's tables were judged against, in the order judge_references
// gives them, and one's mean rank over the tables that judged it (nullopt: none did).
std::vector<std::string> reference_agents(const TransferSummary& summary);
std::optional<double> reference_mean(const TransferSummary& summary, const std::string& agent);

// Told as the protocol goes (same thread): a fold's references before its first seed, each seed's
// start, every episode (LearnObserver), each rank once judged.
class TransferObserver : public sim::LearnObserver {
public:
    virtual void on_fold(const TransferFold&) {}
    virtual void on_seed(const TransferFold&, std::uint64_t /*seed*/) {}
    virtual void on_rank(const TransferRank&) {}
};

// Opens every table (its metadata names its model; an incomplete table or one without metadata is
// an Error) before anything is written. Then fills `out`: folds.csv, references.csv (each held-out
// table's references, before any learning), ranks.csv (a flushed line per rank, so that a killed
// run keeps what it judged) and <model>-seed<N>/policy.pt. Errors: a held-out
// model no table has; a fold with no training table; the original encoder with models of different
// block counts. A stop request ends it between episodes; what was judged stays.
TransferResult run_transfer(const TransferSettings& settings, const std::filesystem::path& out, bool force,
                            TransferObserver* observer = nullptr, const std::stop_token& stop = {});

// folds.csv, ranks.csv and references.csv (absent in a folder written before it: none) of a
// transfer folder, read back (the workbench's Policy page, figures). Error naming the file and line.
TransferResult read_transfer(const std::filesystem::path& folder);

} // namespace rlda::core::run
