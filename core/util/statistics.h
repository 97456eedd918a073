// Means, variances, ranks, quantiles and rank correlations of a sample: the one place the engine
// computes them (a table's reward standardisation and ranks, the noise and reliability of replicate
// tables and their bootstrap intervals, the transfer summary's spread over replicates, the figures'
// axis ranges).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

namespace rlda::core {

// The arithmetic mean, summed in order; 0 for no values.
inline double mean_of(std::span<const double> x)
{
    double sum = 0.0;
    for (const double v : x)
        sum += v;
    return x.empty() ? 0.0 : sum / static_cast<double>(x.size());
}

// sum((x - mean)^2) / (n - ddof): ddof 0 is the population variance, 1 the sample variance. 0 when
// there are no more values than ddof.
inline double variance_of(std::span<const double> x, std::size_t ddof)
{
    if (x.size() <= ddof)
        return 0.0;
    const double m = mean_of(x);
    double squares = 0.0;
    for (const double v : x)
        squares += (v - m) * (v - m);
    return squares / static_cast<double>(x.size() - ddof);
}

// Accuracies, and means of them, are compared to 9 decimals: as whole billionths. A table holds
// decimals (a test set's share of correct images, written in its shortest form), and two means of
// the same decimals are one value whatever order they were summed in: 0.81272 and
// 0.8127199999999999 are equal. NaN is below every accuracy.
inline std::int64_t accuracy_key(double accuracy)
{
    return std::isnan(accuracy) ? std::numeric_limits<std::int64_t>::min() : std::llround(accuracy * 1e9);
}
// The mean of accuracies summed as whole billionths (exact), so that equal decimals give equal means.
// NaN (a seed a row lacks) is left out; 0 when nothing is left.
double decimal_mean(std::span<const double> accuracies);

// The competition rank ("1224") of `value` among `values`: 1 + how many are strictly higher, so that
// equal values share the better rank; compared as accuracy_key does. `projection` reads each
// element's value. The one rank of the engine: a sequence's in its table, a mean's in a resample, a
// candidate's among a table's rows.
template <typename Range, typename Projection = std::identity>
int competition_rank(const Range& values, double value, Projection projection = {})
{
    const std::int64_t key = accuracy_key(value);
    int higher = 0;
    for (const auto& v : values)
        higher += accuracy_key(std::invoke(projection, v)) > key ? 1 : 0;
    return 1 + higher;
}
// Every value's competition_rank among them, in one sort.
std::vector<int> competition_ranks(std::span<const double> values);
// The rank a uniformly random sequence is expected to take: the mean of every sequence's
// competition rank, so that ties count as the rank they share ((N + 1) / 2 only without ties).
double expected_random_rank(std::span<const int> ranks);

// The sample quantile of `values` (not empty) at probability q in [0, 1]: the element at index
// q (n - 1) of the sorted values, that index rounded away from the median (down for q < 0.5, up
// above), so that the interval between the quantiles at q and 1 - q holds at least 1 - 2q of the
// values. The one percentile rule: the bootstrap's rank intervals, a random sequence's rank
// interval, the figures' robust axis ranges.
template <typename T> T quantile(std::vector<T> values, double q)
{
    const double at = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
    const auto k = static_cast<std::size_t>(q < 0.5 ? std::floor(at) : std::ceil(at));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
}

// Ranks 1..n of `x` in increasing order; ties take the mean of the ranks they span.
std::vector<double> fractional_ranks(std::span<const double> x);

// Pearson's correlation of two samples of one length; 0 when either is constant.
double pearson(std::span<const double> x, std::span<const double> y);

// Spearman's rank correlation: Pearson's of the fractional ranks (ties handled).
double spearman(std::span<const double> x, std::span<const double> y);

// Wilcoxon's signed-rank test of paired differences (one per unit: a held-out model, say): whether
// they are symmetric about 0. Zeros are dropped, as Wilcoxon did; tied magnitudes share their mean
// rank. The two-sided p-value is exact: the distribution of W+ over every sign of the nonzero
// differences, counted by dynamic programming over their (doubled) ranks. 1 when none is nonzero.
struct SignedRankTest {
    int positive = 0;    // differences above 0
    int negative = 0;    // below 0
    int zero = 0;        // dropped
    double w_plus = 0.0; // the sum of the ranks of the positive differences
    double p = 1.0;
};
SignedRankTest signed_rank_test(std::span<const double> differences);

// The sign test's exact two-sided p-value: `positive` and `negative` of positive + negative fair
// coin flips. 1 when both are 0.
double sign_test_p(int positive, int negative);

} // namespace rlda::core
