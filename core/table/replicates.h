// Replicate tables: the same table built again at other seeds (the same starting model, data,
// scenario, budget and decisions; only the job's seed differs). They say how much of a table is
// noise: how far one sequence's accuracy moves between replicates, against how far sequences differ.
#pragma once

#include "core/table/reliability.h"
#include "core/table/table.h"
#include "core/table/table_meta.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlda::core::sim {

// True when `a` and `b` describe one table built at two seeds: every field but the seed and where
// it was read from agrees.
bool replicates_of(const TableMeta& a, const TableMeta& b);

// Groups of replicates among `metas`: indices into it, each group in the order given, groups in
// the order of their first member. A table with no replicate is a group of one.
std::vector<std::vector<std::size_t>> replicate_groups(const std::vector<TableMeta>& metas);

// The noise of one group of replicate tables (at least 2, complete, of one shape).
struct ReplicateNoise {
    int replicates = 0;
    std::int64_t sequences = 0;
    // sqrt of the mean over sequences of the sample variance of a sequence's accuracy across the
    // replicates: how far one sequence's accuracy moves when the table is built again.
    double within_sd = 0.0;
    // The same with each replicate's mean accuracy taken out first: the part of that move which is
    // not the whole table shifting (a replicate's warm start may be better or worse overall).
    double centred_sd = 0.0;
    // The sample standard deviation, across sequences, of their accuracy averaged over replicates:
    // how far sequences differ.
    double across_sd = 0.0;
    // Spearman's rank correlation of the accuracies of two replicates, averaged over every pair:
    // 1 when the replicates order the sequences alike, about 0 when the order is noise.
    double rank_correlation = 0.0;
    // In how many replicates the sequence best on average is itself the best (ties count).
    int best_agrees = 0;
    std::int64_t best_code = 0; // the sequence of best mean accuracy over the replicates (its code)
    std::vector<int> best;      // and its actions (the table overload)
    // Whether the sequences' means differ at all: a spread below a billionth of accuracy (rounding
    // in the means of sequences that tie) is none.
    bool sequences_differ() const { return across_sd > 1e-9; }
    // within_sd / across_sd: near 0 a table orders sequences reliably; near 1 or above the order
    // of the top sequences is mostly noise. 0 when the sequences do not differ (undefined).
    double ratio() const { return sequences_differ() ? within_sd / across_sd : 0.0; }
};
// Error when fewer than 2 tables are given, or they differ in shape or are incomplete.
ReplicateNoise replicate_noise(const std::vector<const SimulationTable*>& tables);
// The same of a replicated table's seeds (accuracies_by_seed), or of tables made replicates.
ReplicateNoise replicate_noise(const ReplicateAccuracies& r);

} // namespace rlda::core::sim
