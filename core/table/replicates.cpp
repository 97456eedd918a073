#include "core/table/replicates.h"

#include "core/util/error.h"
#include "core/util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlda::core::sim {
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
    const auto r = accuracies_of(tables, std::vector<std::uint64_t>(tables.size()));
    auto out = replicate_noise(r);
    out.best = tables.front()->rows()[static_cast<std::size_t>(out.best_code)].actions;
    return out;
}

ReplicateNoise replicate_noise(const ReplicateAccuracies& r)
{
    check_replicates(r);
    if (r.replicates() < 2)
        throw Error(fmt::format("replicates: {} replicate given; the noise needs at least 2", r.replicates()));
    const auto& acc = r.accuracy;
    ReplicateNoise out;
    out.replicates = r.replicates();
    out.sequences = static_cast<std::int64_t>(r.sequences());
    std::vector<double> level; // each replicate's mean accuracy
    level.reserve(acc.size());
    for (const auto& a : acc)
        level.push_back(mean_of(a));
    const std::vector<double> mean = r.mean(); // each sequence's, over the replicates
    std::vector<double> one(acc.size()), centred_one(acc.size());
    double within = 0.0, centred = 0.0;
    for (std::size_t s = 0; s < mean.size(); ++s) {
        for (std::size_t i = 0; i < acc.size(); ++i) {
            one[i] = acc[i][s];
            centred_one[i] = acc[i][s] - level[i];
        }
        within += variance_of(one, 1);
        centred += variance_of(centred_one, 1);
    }
    const auto n = static_cast<double>(mean.size());
    out.within_sd = std::sqrt(within / n);
    out.centred_sd = std::sqrt(centred / n);
    out.across_sd = std::sqrt(variance_of(mean, 1));

    double corr = 0.0;
    int pairs = 0;
    for (std::size_t i = 0; i < acc.size(); ++i)
        for (std::size_t j = i + 1; j < acc.size(); ++j, ++pairs)
            corr += spearman(acc[i], acc[j]);
    out.rank_correlation = corr / pairs;

    out.best_code = std::max_element(mean.begin(), mean.end()) - mean.begin();
    const auto best = static_cast<std::size_t>(out.best_code);
    for (const auto& a : acc) // best in a replicate: nothing there is strictly more accurate
        out.best_agrees += std::none_of(a.begin(), a.end(), [&](double v) { return v > a[best]; }) ? 1 : 0;
    return out;
}

} // namespace rlda::core::sim
