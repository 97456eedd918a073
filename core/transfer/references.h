// The references a held-out table is judged against, beside a transferred policy: the growth
// heuristics, no adaptation, the best fixed sequence in hindsight and a uniformly random sequence,
// with the exact interval of a random agent's mean rank. No LibTorch: nothing here learns.
#pragma once

#include "core/config/experiment.h"
#include "core/table/judge.h"
#include "core/table/table.h"
#include "core/transfer/results.h"

#include <vector>

namespace rlda::core::run {

// The references of one held-out table (heuristics in agent.kind order, then "none", "best-fixed",
// "random"). `best_fixed`: the fold's sequence.
std::vector<TransferReference> judge_references(const sim::LearnTask& task,
                                                const std::vector<int>& best_fixed);

// Every sequence's rank on one table (ties share the best), ascending: what a uniformly random
// sequence's rank is drawn from.
std::vector<int> sequence_ranks(const sim::SimulationTable& table);

// A uniformly random sequence on one table: its expected rank (tie-aware) and where 95 % of its
// ranks fall (the 2.5 and 97.5 % quantiles of sequence_ranks): the "random" reference.
struct RandomRank {
    double rank = 0.0;
    int low = 0, high = 0;
};
RandomRank random_rank(const sim::SimulationTable& table);

// Whether `agent` (a heuristic, configured) can walk `task`'s table: a feature reader needs the
// table's decision features.
bool walks_table(const config::AgentConfig& agent, const sim::LearnTask& task);

// The 2.5 % and 97.5 % quantiles of the mean of independent uniform draws, `draws` from each list
// of `ranks` (sequence_ranks of each table), computed exactly by convolving the lists.
RankInterval random_mean_interval(const std::vector<std::vector<int>>& ranks, int draws);

// How often a random agent does at least as well as `mean` by chance: P(M <= mean), exactly, where
// M is the mean over the tables of the mean of draws[t] uniform draws from ranks[t] (the rank lists
// of one held-out model's tables). draws[t] is 1 on a table where a policy chose one sequence at
// every learning seed, since its seeds then add no independent draw (study_tests).
double random_mean_p(const std::vector<std::vector<int>>& ranks, const std::vector<int>& draws, double mean);

} // namespace rlda::core::run
