// A transfer run, held-out model by held-out model.
#include "core/transfer/summary.h"

#include "core/agent/from_config.h"
#include "core/config/names.h"
#include "core/util/statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace rlda::core::run {
namespace {

// Rows of one scenario are its replicates (the held-out model's tables differ there in the seed).
std::vector<TransferSpread> replicate_spread(const std::vector<TransferSummaryRow>& rows)
{
    // The rows of each scenario, the scenarios in order of first appearance: one pass, not one per
    // scenario.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const TransferSummaryRow*>> of;
    for (const auto& row : rows)
        if (row.mean) {
            auto& group = of[row.scenario];
            if (group.empty())
                order.push_back(row.scenario);
            group.push_back(&row);
        }
    std::vector<TransferSpread> out;
    for (const auto& scenario : order) {
        TransferSpread sp;
        sp.scenario = scenario;
        std::vector<double> means;
        double sum = 0.0;
        int n = 0;
        for (const auto* other : of[scenario]) {
            means.push_back(*other->mean);
            for (const auto& r : other->ranks)
                if (r) {
                    sum += *r;
                    ++n;
                    sp.best = sp.best == 0 ? *r : std::min(sp.best, *r);
                    sp.worst = std::max(sp.worst, *r);
                }
        }
        if (means.size() < 2)
            continue;
        sp.tables = static_cast<int>(means.size());
        sp.mean = sum / n;
        sp.sd = std::sqrt(variance_of(means, 1));
        out.push_back(std::move(sp));
    }
    return out;
}

} // namespace

std::vector<TransferSummary> summarize_transfer(const TransferResult& r)
{
    // Indexed once, so that the summary takes time linear in the study (a folder of 20,000 tables
    // took minutes when each cell searched every rank): each model's seeds in order of first
    // appearance, the first rank of each (model, seed, table), each (model, table)'s references.
    std::map<std::string, std::vector<std::uint64_t>> seeds_of;
    std::set<std::pair<std::string, std::uint64_t>> seen;
    std::map<std::tuple<std::string, std::uint64_t, std::string>, const TransferRank*> rank_of;
    for (const auto& x : r.ranks) {
        if (seen.emplace(x.model, x.seed).second)
            seeds_of[x.model].push_back(x.seed);
        rank_of.try_emplace({x.model, x.seed, x.table}, &x);
    }
    std::map<std::pair<std::string, std::string>, std::vector<const TransferReference*>> references_of;
    for (const auto& x : r.references)
        references_of[{x.model, x.table}].push_back(&x);

    std::vector<TransferSummary> out;
    for (const TransferFold& f : r.folds) {
        TransferSummary s;
        s.fold = f;
        if (const auto it = seeds_of.find(f.model); it != seeds_of.end())
            s.seeds = it->second;
        std::vector<double> seed_sum(s.seeds.size(), 0.0);
        std::vector<int> seed_count(s.seeds.size(), 0);
        double all = 0.0;
        int count = 0;
        for (const auto& table : f.tables) {
            TransferSummaryRow row;
            row.table = table;
            double sum = 0.0;
            int n = 0;
            std::vector<std::vector<int>> chosen;
            for (std::size_t i = 0; i < s.seeds.size(); ++i) {
                const auto found = rank_of.find({f.model, s.seeds[i], table});
                const TransferRank* it = found == rank_of.end() ? nullptr : found->second;
                if (!it) {
                    row.ranks.emplace_back(std::nullopt);
                    row.greedy.emplace_back();
                    continue;
                }
                const int rank = it->evaluation.rank;
                row.ranks.emplace_back(rank);
                row.greedy.push_back(it->evaluation.greedy);
                if (std::find(chosen.begin(), chosen.end(), it->evaluation.greedy) == chosen.end())
                    chosen.push_back(it->evaluation.greedy);
                row.scenario = it->scenario;
                row.table_seed = it->table_seed;
                row.no_adaptation_rank = it->no_adaptation_rank;
                row.best_fixed_rank = it->best_fixed_rank;
                row.worst = std::max(row.worst.value_or(0), rank);
                sum += rank;
                ++n;
                seed_sum[i] += rank;
                ++seed_count[i];
            }
            if (n > 0)
                row.mean = sum / n;
            row.choices = static_cast<int>(chosen.size());
            if (const auto refs = references_of.find({f.model, table}); refs != references_of.end())
                for (const auto* x : refs->second)
                    row.references.push_back(*x);
            all += sum;
            count += n;
            s.rows.push_back(std::move(row));
        }
        for (std::size_t i = 0; i < s.seeds.size(); ++i) {
            s.seed_means.push_back(seed_count[i] ? std::optional<double>(seed_sum[i] / seed_count[i])
                                                 : std::nullopt);
            if (s.seed_means.back())
                s.worst_seed_mean = std::max(s.worst_seed_mean.value_or(0.0), *s.seed_means.back());
        }
        if (count > 0)
            s.mean = all / count;
        s.replicates = replicate_spread(s.rows);
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<std::string> reference_agents(const TransferSummary& summary)
{
    std::vector<std::string> out;
    for (const auto& row : summary.rows)
        for (const auto& r : row.references)
            if (std::find(out.begin(), out.end(), r.agent) == out.end())
                out.push_back(r.agent);
    return out;
}

std::optional<double> reference_mean(const TransferSummary& summary, const std::string& agent)
{
    double sum = 0.0;
    int n = 0;
    for (const auto& row : summary.rows)
        for (const auto& r : row.references)
            if (r.agent == agent) {
                sum += r.rank;
                ++n;
            }
    return n > 0 ? std::optional<double>(sum / n) : std::nullopt;
}

std::optional<BestHeuristic> best_heuristic(const TransferSummary& summary)
{
    std::optional<BestHeuristic> best;
    for (const auto& [kind, name] : config::name_table<config::AgentKind>()) {
        if (!agent::is_heuristic(kind))
            continue;
        const auto mean = reference_mean(summary, name);
        if (mean && (!best || *mean < best->mean_rank))
            best = BestHeuristic{name, *mean};
    }
    return best;
}

} // namespace rlda::core::run
