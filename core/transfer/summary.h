// A transfer run summarized per held-out model, as `rlda transfer` prints it and the Policy page
// shows it: the rank each seed reached on each table, their means, the replicates' spread and the
// references' means.
#pragma once

#include "core/transfer/results.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::run {

// One held-out model's ranks as a table: a row per held-out table (the rank each seed reached,
// their mean and worst, the references on that table), and the mean over the tables per seed.
// `rlda transfer` prints it, the Policy page shows it.
struct TransferSummaryRow {
    std::string table; // file
    std::string scenario;
    std::uint64_t table_seed = 0;          // the seed the table was built with
    std::vector<std::optional<int>> ranks; // per seed of the summary; nullopt where none was judged
    std::optional<double> mean;
    std::optional<int> worst;
    int no_adaptation_rank = 0;
    int best_fixed_rank = 0;
    // How many different greedy sequences the seeds chose here: 1 when the policy's choice does not
    // vary with the learning seed, so that its seeds are one draw, not several (study_tests).
    int choices = 0;
    // Per seed of the summary: the greedy sequence judged (ranks.csv's); empty where none was.
    std::vector<std::vector<int>> greedy;
    std::vector<TransferReference> references; // the table's, as judge_references orders them
};
// A scenario of the held-out model whose table exists at several seeds (replicates: the same
// scenario name, another table_seed): the greedy sequence's rank over those tables, with its spread.
struct TransferSpread {
    std::string scenario;
    int tables = 0;    // replicate tables judged
    double mean = 0.0; // rank, over those tables and every seed
    double sd = 0.0;   // across the tables, of each table's mean rank over the seeds
    int best = 0;      // the best and worst rank among them
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

// The growth heuristic (a reference whose agent is a agent::is_heuristic kind) of the lowest mean
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

} // namespace rlda::core::run
