#include "core/sim/replicates.h"

#include "core/util/error.h"
#include "core/util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rlda::core::sim {
namespace {

// Ranks 1..n of `v` (ties take their mean rank), for Spearman's correlation.
std::vector<double> fractional_ranks(const std::vector<double>& v)
{
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> rank(v.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
            ++j;
        const double mean = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k)
            rank[order[k]] = mean;
        i = j + 1;
    }
    return rank;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y)
{
    const double mx = mean_of(x);
    const double my = mean_of(y);
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxx > 0.0 && syy > 0.0 ? sxy / std::sqrt(sxx * syy) : 0.0;
}

} // namespace

bool replicates_of(const TableMeta& a, const TableMeta& b)
{
    TableMeta x = a;
    x.seed = b.seed;
    x.source = b.source;
    return x == b;
}

std::vector<std::vector<std::size_t>> replicate_groups(const std::vector<TableMeta>& metas)
{
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < metas.size(); ++i) {
        const auto it = std::find_if(groups.begin(), groups.end(),
                                     [&](const auto& g) { return replicates_of(metas[g.front()], metas[i]); });
        if (it == groups.end())
            groups.push_back({i});
        else
            it->push_back(i);
    }
    return groups;
}

ReplicateNoise replicate_noise(const std::vector<const SimulationTable*>& tables)
{
    if (tables.size() < 2)
        throw Error(fmt::format("replicates: {} table given; the noise needs at least 2", tables.size()));
    const SimulationTable& first = *tables.front();
    for (const auto* t : tables) {
        if (t->decisions() != first.decisions() || t->num_actions() != first.num_actions())
            throw Error(fmt::format("replicates: {} has {} decisions over {} actions, {} has {} over {}", t->source(),
                                    t->decisions(), t->num_actions(), first.source(), first.decisions(),
                                    first.num_actions()));
        if (!t->complete())
            throw Error(fmt::format("replicates: {} is incomplete ({} of {} rows)", t->source(), t->rows().size(),
                                    t->sequences()));
    }
    ReplicateNoise out;
    out.replicates = static_cast<int>(tables.size());
    out.sequences = first.sequences();

    // Accuracies by replicate, rows in the same (lexicographic) order in every table.
    std::vector<std::vector<double>> acc;
    for (const auto* t : tables) {
        acc.emplace_back();
        for (const auto& row : first.rows())
            acc.back().push_back(t->accuracy(row.actions));
    }
    std::vector<double> level; // each replicate's mean accuracy
    for (const auto& a : acc)
        level.push_back(mean_of(a));
    std::vector<double> mean; // each sequence's, over the replicates
    std::vector<double> one(acc.size()), centred_one(acc.size());
    double within = 0.0, centred = 0.0;
    for (std::size_t s = 0; s < first.rows().size(); ++s) {
        for (std::size_t i = 0; i < acc.size(); ++i) {
            one[i] = acc[i][s];
            centred_one[i] = acc[i][s] - level[i];
        }
        mean.push_back(mean_of(one));
        within += variance_of(one, 1);
        centred += variance_of(centred_one, 1);
    }
    const double n = static_cast<double>(mean.size());
    out.within_sd = std::sqrt(within / n);
    out.centred_sd = std::sqrt(centred / n);
    out.across_sd = std::sqrt(variance_of(mean, 1));

    double corr = 0.0;
    int pairs = 0;
    for (std::size_t i = 0; i < acc.size(); ++i)
        for (std::size_t j = i + 1; j < acc.size(); ++j, ++pairs)
            corr += pearson(fractional_ranks(acc[i]), fractional_ranks(acc[j]));
    out.rank_correlation = corr / pairs;

    const auto best = static_cast<std::size_t>(std::max_element(mean.begin(), mean.end()) - mean.begin());
    out.best = first.rows()[best].actions;
    for (const auto* t : tables)
        out.best_agrees += t->rank(out.best) == 1 ? 1 : 0;
    return out;
}

} // namespace rlda::core::sim
