// Ranks and rank correlations (core/util/statistics.h).
#include "core/util/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rlda::core {

double decimal_mean(std::span<const double> accuracies)
{
    std::int64_t sum = 0;
    for (const double a : accuracies)
        sum += accuracy_key(a);
    // Both exact in a double (fewer than 2^53 billionths), so the quotient is correctly rounded:
    // equal sums over equal counts, and equal fractions, give the same mean.
    return accuracies.empty() ? 0.0
                              : static_cast<double>(sum) / (1e9 * static_cast<double>(accuracies.size()));
}

std::vector<int> competition_ranks(std::span<const double> values)
{
    std::vector<std::int64_t> keys(values.size());
    std::transform(values.begin(), values.end(), keys.begin(), accuracy_key);
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] > keys[b]; });
    std::vector<int> rank(values.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        rank[order[i]] =
            i > 0 && keys[order[i]] == keys[order[i - 1]] ? rank[order[i - 1]] : static_cast<int>(i) + 1;
    return rank;
}

double expected_random_rank(std::span<const int> ranks)
{
    double sum = 0.0;
    for (const int r : ranks)
        sum += r;
    return ranks.empty() ? 0.0 : sum / static_cast<double>(ranks.size());
}

std::vector<double> fractional_ranks(std::span<const double> x)
{
    std::vector<std::size_t> order(x.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    std::vector<double> rank(x.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]])
            ++j;
        const double mean = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k)
            rank[order[k]] = mean;
        i = j + 1;
    }
    return rank;
}

double pearson(std::span<const double> x, std::span<const double> y)
{
    const double mx = mean_of(x);
    const double my = mean_of(y);
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxx > 0.0 && syy > 0.0 ? sxy / std::sqrt(sxx * syy) : 0.0;
}

double spearman(std::span<const double> x, std::span<const double> y)
{
    return pearson(fractional_ranks(x), fractional_ranks(y));
}

} // namespace rlda::core
