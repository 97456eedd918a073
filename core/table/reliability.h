// How far a replicated simulation table can be trusted: the same table built at several seeds, and
// what its replicates say about its ranking. Pure functions of the accuracies; no LibTorch.
//
// What is printed of a table's trust comes from the seed-blocked model (core/table/variance_model.h,
// docs/tables.md *What the seeds support*); what is here is descriptive beside it:
// - Split-half rank reliability: the seeds are split into two halves; Spearman's rho between the
//   two halves' mean accuracies (ties take their mean rank), averaged over the splits (every split
//   up to 200 of them, else 200 drawn with a seeded generator). Halves of floor(R/2) and ceil(R/2)
//   seeds; m = R/2 seeds a half (2.5 for 5 seeds) in the formulas below. A split in which a half's
//   means tie every sequence is left out (rho undefined); if all are, the reliability is undefined.
// - Spearman-Brown: the reliability of a mean of n seeds is n r1 / (1 + (n - 1) r1), r1 that of one
//   seed. From the halves' rho, r1 = rho / (m - (m - 1) rho); the whole table's (R seeds) is then
//   the stepped-up 2 rho / (1 + rho). A negative rho (halves that disagree by chance) gives r1 < 0:
//   the table's reliability is then none (0), and no number of seeds is promised. Seeds needed for a
//   reliability of at least 0.8: the smallest n with n r1 / (1 + (n - 1) r1) >= 0.8; none when r1 <= 0 (the
//   halves do not agree at all).
// - A race's table (seeds that only some sequences hold): the split halves and the bootstrap read
//   the seeds every sequence holds (ReplicateAccuracies::held_by_all), the model all of them.
// - P(best), descriptive: a bootstrap over seeds (resamples of R seeds drawn with replacement; each
//   resample's mean accuracies; the sequence of the highest mean is that resample's best, ties
//   sharing), every one of the R^R resamples once for 6 seeds or fewer (exact), else kResamples
//   drawn. A sequence's P(best) is the share of resamples in which it is the best; `indistinguishable`
//   lists those of 5 % or more. Neither is a confidence set: core/table/variance_model.h has that.
// - A sequence's rank: the point rank in the mean table (1 + the number of strictly better means),
//   and the 2.5th and 97.5th percentiles of its rank over the same resamples (not printed: they
//   covered the true rank 66 to 85 % of the time in simulation, test_calibration).
#pragma once

#include "core/table/table.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::sim {

// Accuracies of one table at R seeds: accuracy[r][code], every replicate over the same sequences in
// the same order (complete tables of one shape).
struct ReplicateAccuracies {
    std::vector<std::uint64_t> seeds;
    std::vector<std::vector<double>> accuracy;

    int replicates() const { return static_cast<int>(accuracy.size()); }
    std::size_t sequences() const { return accuracy.empty() ? 0 : accuracy.front().size(); }
    // The mean over the replicates (decimal_mean; NaN, a seed a sequence lacks, left out), and the
    // sample standard deviation (0 for one replicate).
    std::vector<double> mean() const;
    std::vector<double> sd() const;
    // The replicates that hold every sequence, in order (all of them unless some are NaN: a race's
    // later seeds). The split halves and the bootstrap, which resample whole seeds, read these.
    // `this` itself when every replicate holds every sequence (no copy), else `storage`, filled.
    const ReplicateAccuracies& held_by_all(ReplicateAccuracies& storage) const;
    // Which replicates held_by_all keeps: their indices.
    std::vector<std::size_t> replicates_held_by_all() const;
};

// Error unless there is at least one replicate and all have the same number of sequences (>= 2).
void check_replicates(const ReplicateAccuracies& r);

// A complete table's accuracies by seed, sequences in code order: a replicated table's seed columns,
// or a single-seed table's accuracy as its one replicate (seed `seed`). Error for an incomplete one.
ReplicateAccuracies accuracies_by_seed(const SimulationTable& t, std::uint64_t seed = 0);
// Separate complete tables of one shape, the same table built at `seeds`, as replicates.
ReplicateAccuracies accuracies_of(const std::vector<const SimulationTable*>& tables,
                                  const std::vector<std::uint64_t>& seeds);

inline constexpr double kReliableRho = 0.8; // the reliability "how many seeds" aims at
inline constexpr double kBestShare = 0.05;  // indistinguishable from the best: P(best) >= 5 %
inline constexpr int kResamples = 2000;     // bootstrap resamples drawn at random
// Up to this many (R^R for R seeds: 6 seeds or fewer), every resample is taken once instead: exact.
inline constexpr std::size_t kExactResamples = 50'000;
inline constexpr int kMaxSplits = 200;      // split-half splits averaged
// Ranks kept by one bootstrap (resamples x sequences): a table of more than 10,000 sequences gets
// fewer resamples than kResamples (at least 50).
inline constexpr std::size_t kMaxBootstrapRanks = 20'000'000;

// Seeds needed for a ranking of a given reliability, with a 95 % interval: nullopt is "no number
// of seeds" (the reliability, or its bound, is 0).
struct SeedsNeeded {
    std::optional<int> point, low, high;
};

// How reproducible a table's ranking is. What is printed (reliability_text) is the seed-blocked
// model's (core/table/variance_model.h), each number with its 95 % interval; the split halves are
// a check that assumes no model, printed as their rho alone.
struct Reliability {
    int replicates = 0;
    // The model's: one seed's reliability theta / (1 + theta), the table's R seeds', and seeds needed
    // for kReliableRho, each with its 95 % interval; whether the global test separates the sequences.
    double one_seed = 0.0, one_seed_low = 0.0, one_seed_high = 0.0;
    double all_seeds = 0.0, all_seeds_low = 0.0, all_seeds_high = 0.0;
    // The seeds a sequence holds: every sequence all `replicates` of them, except in a race's table,
    // whose all_seeds is then the reliability at their mean count.
    int fewest_seeds = 0, most_seeds = 0;
    double mean_seeds = 0.0;
    SeedsNeeded needed;
    bool separates = false;
    // The split halves (below: their own Spearman-Brown arithmetic, kept for the tests of it).
    int splits = 0;            // split-halves averaged; 0 for a single-seed table (unknown)
    // Splits left out: a half whose means tie every sequence has no ranking, so Spearman's rho is
    // undefined. When every split is (all sequences alike), the reliability is undefined: splits 0.
    int undefined_splits = 0;
    double split_half = 0.0;   // mean Spearman rho between the halves
    double single_seed = 0.0;  // r1: one seed's ranking
    double table = 0.0;        // all R seeds' mean ranking (stepped up); 0 when single_seed <= 0
    std::optional<int> seeds_needed; // for kReliableRho; nullopt: no number of seeds reaches it
    bool known() const { return replicates >= 2; } // a replicated table: measured (or undefined)
};

// Error as check_replicates. A single replicate gives known() == false. `seed` draws the splits
// when there are more than kMaxSplits.
Reliability rank_reliability(const ReplicateAccuracies& r, std::uint64_t seed = 0);
// The same with the table's seed-blocked model already fitted (fit_variance_model of `r`), so that a
// caller that prints the model too fits it once.
struct VarianceModel;
Reliability rank_reliability(const ReplicateAccuracies& r, const VarianceModel& model,
                             std::uint64_t seed = 0);

// One line for every place that reports it (rlda simulate, noise, evaluate; the Tables page):
// "reliability: one seed 0.21, the table's 3 seeds 0.44 (split halves: rho 0.26, 3 splits); 0.8
// needs 16 seeds", or for one seed that it is unknown and how to measure it.
std::string reliability_text(const Reliability& r);

// Spearman-Brown: the reliability of a mean of `n` seeds from one seed's `r1`.
double stepped_up(double r1, double n);
// The smallest n >= 1 with stepped_up(r1, n) >= target; nullopt when r1 <= 0.
std::optional<int> seeds_for(double r1, double target = kReliableRho);

// One bootstrap over seeds, shared by the best set and the rank intervals so that they agree.
struct Bootstrap {
    int resamples = 0;
    std::vector<double> best_share;              // per sequence: P(best)
    std::vector<std::int64_t> indistinguishable; // sequences with P(best) >= kBestShare, by P, then code
    std::vector<int> mean_rank;                  // per sequence: the point rank in the mean table
    // Per sequence: the 2.5th and 97.5th percentile of its rank over the resamples.
    std::vector<int> rank_low, rank_high;
};

// `resamples` resamples (fewer for a huge table: kMaxBootstrapRanks) drawn with std::mt19937_64
// seeded with `seed`. With one replicate every
// resample is the table itself: one best (and its ties), intervals of width zero.
Bootstrap bootstrap_ranks(const ReplicateAccuracies& r, int resamples = kResamples, std::uint64_t seed = 0);

// The same bootstrap seen from a candidate that is no one sequence: an agent whose sequence differs
// between the seeds (each seed's own training state leads it elsewhere) and that earns
// `candidate[i]` at replicate i. Over the same resamples as bootstrap_ranks(r, resamples, seed): its
// rank in each (1 + the sequences with a strictly higher mean; itself not counted) and its share of
// the best (as a row's: shared with the rows that tie it at the top, whole when above them all).
// A candidate equal to a row's accuracies gets that row's rank, interval and P(best). `rank` is
// its point rank in the mean table. Error as check_replicates, or for a candidate of another size.
struct CandidateRanks {
    int rank = 0;
    int low = 0, high = 0;
    double best_share = 0.0;
};
CandidateRanks bootstrap_candidate(const ReplicateAccuracies& r, const std::vector<double>& candidate,
                                   int resamples = kResamples, std::uint64_t seed = 0);

// What a table's seeds say, computed once per table (the workbench does it off the GUI thread): its
// reliability; and for a complete replicated table, by row (the order of table.rows()): the
// seed-blocked model's lines (its global test first, core/table/variance_model.h), the 95 %
// confidence set for the best (every row when `best_set_all`), each row's marginal 95 % rank
// interval, P(best) over the bootstrap of the seeds (descriptive) and its standard deviation over
// the seeds. A single-seed or incomplete table has none of these.
struct TableTrust {
    Reliability reliability;
    std::vector<std::string> model_lines;
    std::vector<std::int64_t> best_set; // rows, best first
    bool best_set_all = false;
    std::vector<int> rank_low, rank_high;
    std::optional<Bootstrap> bootstrap;
    std::vector<double> sd;
};
TableTrust table_trust(const SimulationTable& t, std::uint64_t seed = 0);

} // namespace rlda::core::sim
