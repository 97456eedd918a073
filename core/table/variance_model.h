// What a replicated table's seeds support, as a statistical model with stated coverage: the
// seed-blocked two-way model, its global test, a confidence set for the best sequence and rank
// intervals. Pure functions of the accuracies; no LibTorch.
//
// The model (docs/tables.md, *What the seeds support*): the accuracy of sequence s at seed r is
//     y[r][s] = mu + a[s] + b[r] + e[r][s],   e ~ N(0, sigma_e^2) independent,
// a[s] the sequence's effect, b[r] an offset the seed gives every sequence (its warm start, its data
// order), which cancels in every comparison at equal seeds. Sequences may hold different seeds
// (a race gives more seeds to the sequences still in contention); a missing accuracy is NaN.
// - Fitted by least squares (alternating means, exact for a balanced table); sigma_e^2 = SSE / df_e,
//   df_e = N - k - R + 1 for N accuracies of k sequences at R seeds.
// - The global test "do the sequences differ at all?": F = (SSE without the sequences' effects -
//   SSE) / (k - 1) / sigma_e^2, against F(k - 1, df_e). Exact for normal errors.
// - sigma between sequences and sigma of the seed offsets: method of moments, (MS - MS_e) / n0, n0
//   the mean count (balanced: R, k), floored at 0.
// - theta = sigma_seq^2 / sigma_e^2 with its 95 % interval from the F distribution (exact when
//   balanced): F / (1 + n0 theta) ~ F(k - 1, df_e). One seed ranks the sequences with reliability
//   theta / (1 + theta); n seeds with n theta / (1 + n theta); seeds needed for 0.8 is 4 / theta,
//   with the interval that theta's gives.
// - The confidence set for the best (Gupta's subset selection; Hsu's constrained MCB): s is in it
//   unless some j beats it by more than d se(j, s), where the difference is taken over the seeds
//   both hold, se = sigma_e sqrt(2 / common seeds), and d is Dunnett's one-sided constant for k - 1
//   comparisons on df_e degrees of freedom. It holds the truly best sequence with probability at
//   least `level`. When the global test does not reject at 1 - level, the set is every sequence.
// - Rank intervals (marginal: each holds its own sequence's true rank with probability at least
//   `level`, not all at once): the pairwise t tests of s against every other sequence, Holm's
//   step-down at 1 - level; low = 1 + the sequences significantly above s, high = k - those below.
#pragma once

#include "core/table/reliability.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rlda::core::sim {

inline constexpr double kConfidence = 0.95; // the level of every set and interval the tool prints

struct VarianceModel {
    int sequences = 0;             // k
    int seeds = 0;                 // R: seeds any sequence holds
    std::int64_t observations = 0; // N: accuracies present
    bool balanced = true;          // every sequence at every seed
    std::vector<double> effect;    // per sequence: its seed-adjusted mean accuracy (mu + a[s])
    std::vector<int> counts;       // per sequence: the seeds it holds
    double sigma_e = 0.0;          // sequence x seed noise: sd of one accuracy about the model
    double sigma_sequences = 0.0;  // sd of the sequences' true effects
    double sigma_seeds = 0.0;      // sd of the per-seed offset
    double df_error = 0.0;         // df_e; 0 when there is nothing left to estimate sigma_e from
    // The global test.
    double f = 0.0;
    double df_sequences = 0.0;
    double p_value = 1.0;
    // theta = sigma_sequences^2 / sigma_e^2 and its 95 % interval.
    double theta = 0.0, theta_low = 0.0, theta_high = 0.0;

    // The sequences differ at level `level`: p < 1 - level (replicates that agree exactly and differ
    // between sequences have p = 0).
    bool separates(double level = kConfidence) const { return df_error > 0.0 && p_value < 1.0 - level; }
    // The reliability of a ranking by the mean of n seeds, n theta / (1 + n theta).
    double reliability(double n) const;
};

// The reliability of a ranking by the mean of n seeds when theta = sigma_sequences^2 / sigma_e^2:
// n theta / (1 + n theta) (1 for an infinite theta: replicates that agree exactly).
double ranking_reliability(double theta, double n);

// Seeds needed for a ranking of reliability `target`, with a 95 % interval (theta's).
SeedsNeeded seeds_needed(const VarianceModel& m, double target = kReliableRho);

// Error as check_replicates, or for a sequence with no accuracy, or for fewer than 2 seeds.
VarianceModel fit_variance_model(const ReplicateAccuracies& r);

// The confidence set for the best sequence.
struct BestSet {
    double level = kConfidence;
    std::vector<std::int64_t> members; // sequences, by effect (best first), then index
    double margin = 0.0;               // d: Dunnett's constant; the set's margin is d se
    bool all = false;                  // the global test did not reject: every sequence
};
BestSet best_set(const ReplicateAccuracies& r, const VarianceModel& m, double level = kConfidence);

// A marginal rank interval [low, high] (1 = best) per sequence.
struct RankIntervals {
    double level = kConfidence;
    std::vector<int> low, high;
};
RankIntervals rank_intervals(const ReplicateAccuracies& r, const VarianceModel& m,
                             double level = kConfidence);
// One sequence's (index `s`): what rank_intervals gives it, for a caller that needs a few of a large
// table's (k - 1 tests each, not k (k - 1)).
std::pair<int, int> rank_interval(const ReplicateAccuracies& r, const VarianceModel& m, std::size_t s,
                                  double level = kConfidence);

// The interval of a candidate that is no one row (an agent whose sequence differs between seeds):
// `candidate[i]` earned at replicate i, compared with every sequence as a row would be.
std::pair<int, int> candidate_rank_interval(const ReplicateAccuracies& r, const VarianceModel& m,
                                            const std::vector<double>& candidate, double level = kConfidence);

// Whether that candidate would be in the confidence set for the best, taken as one more sequence
// (Dunnett's constant for k comparisons): every sequence when the global test does not reject.
bool candidate_among_best(const ReplicateAccuracies& r, const VarianceModel& m,
                          const std::vector<double>& candidate, double level = kConfidence);

// The lines `rlda noise` and the Tables page print before the reliability (reliability_text): the
// global test first, in words when the table cannot separate its sequences; then the components.
std::vector<std::string> variance_lines(const VarianceModel& m);

} // namespace rlda::core::sim
