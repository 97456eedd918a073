// Means, variances and rank correlations of a sample: the one place the engine computes them (a
// table's reward standardisation, the noise and reliability of replicate tables, the transfer
// summary's spread over replicates).
#pragma once

#include <cstddef>
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

// Ranks 1..n of `x` in increasing order; ties take the mean of the ranks they span.
std::vector<double> fractional_ranks(std::span<const double> x);

// Pearson's correlation of two samples of one length; 0 when either is constant.
double pearson(std::span<const double> x, std::span<const double> y);

// Spearman's rank correlation: Pearson's of the fractional ranks (ties handled).
double spearman(std::span<const double> x, std::span<const double> y);

} // namespace rlda::core
