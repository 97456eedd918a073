// Replicated tables drawn from a known truth (core/table/simulated_table.h).
#include "core/table/simulated_table.h"

#include "core/util/error.h"
#include "core/util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlda::core::sim {

int TableTruth::sequences() const
{
    int n = 1;
    for (int d = 0; d < decisions; ++d)
        n *= num_actions;
    return n;
}

std::vector<int> TableTruth::ranks() const
{
    return competition_ranks(effect);
}

std::size_t TableTruth::best() const
{
    return static_cast<std::size_t>(std::max_element(effect.begin(), effect.end()) - effect.begin());
}

TableTruth random_truth(int decisions, int num_actions, double mean, double sigma_sequences,
                        double sigma_seeds, double sigma_e, double prefix_share, std::mt19937_64& rng)
{
    TableTruth t;
    t.decisions = decisions;
    t.num_actions = num_actions;
    t.sigma_seeds = sigma_seeds;
    t.sigma_e = sigma_e;
    t.prefix_share = prefix_share;
    std::normal_distribution<double> effect(mean, sigma_sequences);
    t.effect.resize(static_cast<std::size_t>(t.sequences()));
    for (double& e : t.effect)
        e = effect(rng);
    return t;
}

std::vector<double> draw_seed(const TableTruth& truth, std::mt19937_64& rng)
{
    const int k = truth.sequences();
    if (static_cast<int>(truth.effect.size()) != k || truth.decisions < 1 || truth.num_actions < 1)
        throw Error(fmt::format("simulated table: {} effects for {} sequences", truth.effect.size(), k));
    std::normal_distribution<double> normal(0.0, 1.0);
    const double offset = truth.sigma_seeds * normal(rng);
    std::vector<double> y(static_cast<std::size_t>(k));
    for (int s = 0; s < k; ++s)
        y[static_cast<std::size_t>(s)] = truth.effect[static_cast<std::size_t>(s)] + offset;
    // Noise of each prefix length: a sequence's code divided by num_actions^(decisions - length) is
    // its prefix's, so that sequences of one prefix are a block of consecutive codes.
    const int levels = truth.decisions - 1;
    const double shared_sd = levels > 0 ? truth.sigma_e * std::sqrt(truth.prefix_share / levels) : 0.0;
    const double own_sd = truth.sigma_e * std::sqrt(levels > 0 ? 1.0 - truth.prefix_share : 1.0);
    int block = k;
    for (int length = 1; length <= levels; ++length) {
        block /= truth.num_actions;
        double shared = 0.0;
        for (int s = 0; s < k; ++s) {
            if (s % block == 0)
                shared = shared_sd * normal(rng);
            y[static_cast<std::size_t>(s)] += shared;
        }
    }
    for (double& v : y)
        v += own_sd * normal(rng);
    return y;
}

ReplicateAccuracies draw_table(const TableTruth& truth, int seeds, std::mt19937_64& rng)
{
    ReplicateAccuracies r;
    for (int i = 0; i < seeds; ++i) {
        r.seeds.push_back(static_cast<std::uint64_t>(i));
        r.accuracy.push_back(draw_seed(truth, rng));
    }
    return r;
}

} // namespace rlda::core::sim
