// Ranks and rank correlations (core/util/statistics.h).
#include "core/util/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rlda::core {

double decimal_mean(std::span<const double> accuracies)
{
    std::int64_t sum = 0;
    std::size_t count = 0;
    for (const double a : accuracies)
        if (!std::isnan(a)) {
            sum += accuracy_key(a);
            ++count;
        }
    // Both exact in a double (fewer than 2^53 billionths), so the quotient is correctly rounded:
    // equal sums over equal counts, and equal fractions, give the same mean.
    return count == 0 ? 0.0 : static_cast<double>(sum) / (1e9 * static_cast<double>(count));
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

SignedRankTest signed_rank_test(std::span<const double> differences)
{
    SignedRankTest t;
    std::vector<double> magnitude;
    std::vector<bool> positive;
    for (const double d : differences) {
        if (d == 0.0) {
            ++t.zero;
            continue;
        }
        magnitude.push_back(std::abs(d));
        positive.push_back(d > 0.0);
        ++(d > 0.0 ? t.positive : t.negative);
    }
    if (magnitude.empty())
        return t;
    // Ranks doubled, so that the mean rank of a tie is a whole number.
    const std::vector<double> rank = fractional_ranks(magnitude);
    std::vector<int> doubled(rank.size());
    int total = 0;
    int observed = 0;
    for (std::size_t i = 0; i < rank.size(); ++i) {
        doubled[i] = static_cast<int>(std::lround(2.0 * rank[i]));
        total += doubled[i];
        observed += positive[i] ? doubled[i] : 0;
    }
    t.w_plus = observed / 2.0;
    // ways[s]: how many of the 2^n sign choices give a doubled W+ of s.
    std::vector<double> ways(static_cast<std::size_t>(total) + 1, 0.0);
    ways[0] = 1.0;
    int reach = 0;
    for (const int r : doubled) {
        reach += r;
        for (int s = reach; s >= r; --s)
            ways[static_cast<std::size_t>(s)] += ways[static_cast<std::size_t>(s - r)];
    }
    const double all = std::ldexp(1.0, static_cast<int>(doubled.size()));
    double below = 0.0; // P(W+ <= observed)
    double above = 0.0; // P(W+ >= observed)
    for (int s = 0; s <= total; ++s) {
        below += s <= observed ? ways[static_cast<std::size_t>(s)] : 0.0;
        above += s >= observed ? ways[static_cast<std::size_t>(s)] : 0.0;
    }
    t.p = std::min(1.0, 2.0 * std::min(below, above) / all);
    return t;
}

double sign_test_p(int positive, int negative)
{
    const int n = positive + negative;
    if (n == 0)
        return 1.0;
    const int k = std::min(positive, negative);
    // P(X <= k) for X ~ Binomial(n, 1/2), term by term: C(n, i) / 2^n.
    double term = std::ldexp(1.0, -n);
    double tail = 0.0;
    for (int i = 0; i <= k; ++i) {
        tail += term;
        term = term * (n - i) / (i + 1);
    }
    return std::min(1.0, 2.0 * tail);
}

} // namespace rlda::core
