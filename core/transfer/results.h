// What the transfer protocol (core/run/transfer_protocol.h) finds, as plain values: each held-out
// model's fold, each greedy evaluation on one of its tables, and the references judged beside them.
// Read back from a transfer folder by core/transfer/files.h; summarized by core/transfer/summary.h.
#pragma once

#include "core/table/results.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlda::core::run {

// One held-out model: what it is judged against.
struct TransferFold {
    std::string model;
    std::vector<std::string> training_tables; // files
    std::vector<std::string> tables;          // the held-out model's
    int sequences = 0;
    double random_rank =
        0.0; // a uniformly random sequence's expected rank (expected_random_rank), over the tables
    // Where 95 % of a random agent's mean rank falls when it is judged as often as the policies
    // (a uniformly random sequence once per seed on each held-out table; random_mean_interval).
    // A policy's mean rank below random_mean_low is better than chance. 0 and 0 in a run written
    // before they were recorded.
    double random_mean_low = 0.0;
    double random_mean_high = 0.0;
    double no_adaptation_rank = 0.0; // mean over the held-out tables
    std::vector<int> best_fixed;     // the fixed sequence of best mean rank there, in hindsight
    double best_fixed_rank = 0.0;    // its mean rank
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
// the best (core/table/agent_eval.h), as a policy's does.
struct TransferReference {
    std::string model; // held out
    std::string table; // file
    std::string scenario;
    std::string agent;         // an agent.kind ("gradient", "first", ..., "none"), "best-fixed" or "random"
    double rank = 0.0;         // random: its expected rank (expected_random_rank, tie-aware)
    int rank_low = 0;          // 95 % interval over the seeds' resamples; for random, of a random sequence's
    int rank_high = 0;         // rank; 0 and 0 for a single-seed table (random: its 2.5 and 97.5 % quantiles)
    double p_best = 0.0;       // P(best) over the resamples; 0 for a single-seed table and for random
    bool among_best = false;   // in the 95 % confidence set for the best (core/table/variance_model.h)
    std::vector<int> sequence; // the sequence ranked (a heuristic's most frequent); empty for random
};
// The names of the references that are no heuristic.
inline constexpr const char* kNoAdaptationReference = "none";
inline constexpr const char* kBestFixedReference = "best-fixed";
inline constexpr const char* kRandomReference = "random";
// Where a quantity falls 95 % of the time: its 2.5 % and 97.5 % quantiles.
struct RankInterval {
    double low = 0.0;
    double high = 0.0;
};

struct TransferResult {
    std::vector<TransferFold> folds;
    std::vector<TransferRank> ranks;           // fold by fold, seed by seed, table by table
    std::vector<TransferReference> references; // fold by fold, table by table
    bool cancelled = false;
};

} // namespace rlda::core::run
