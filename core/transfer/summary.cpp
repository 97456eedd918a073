// A transfer run, held-out model by held-out model.
#include "core/transfer/summary.h"

#include "core/agent/from_config.h"
#include "core/config/names.h"
#include "core/util/statistics.h"

#include <algorithm>
#include <cmath>

namespace rlda::core::run {
namespace {

// Rows of one scenario are its replicates (the held-out model's tables differ there in the seed).
std::vector<TransferSpread> replicate_spread(const std::vector<TransferSummaryRow>& rows)
{
    std::vector<TransferSpread> out;
    std::vector<std::string> done;
    for (const auto& row : rows) {
        if (!row.mean || std::find(done.begin(), done.end(), row.scenario) != done.end())
            continue;
        done.push_back(row.scenario);
        TransferSpread sp;
        sp.scenario = row.scenario;
        std::vector<double> means;
        double sum = 0.0;
        int n = 0;
        for (const auto& other : rows) {
            if (other.scenario != row.scenario || !other.mean)
                continue;
            means.push_back(*other.mean);
            for (const auto& r : other.ranks)
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
    std::vector<TransferSummary> out;
    for (const TransferFold& f : r.folds) {
        TransferSummary s;
        s.fold = f;
        for (const auto& x : r.ranks)
            if (x.model == f.model && std::find(s.seeds.begin(), s.seeds.end(), x.seed) == s.seeds.end())
                s.seeds.push_back(x.seed);
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
                const auto it = std::find_if(r.ranks.begin(), r.ranks.end(), [&](const TransferRank& x) {
                    return x.model == f.model && x.seed == s.seeds[i] && x.table == table;
                });
                if (it == r.ranks.end()) {
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
            for (const auto& x : r.references)
                if (x.model == f.model && x.table == table)
                    row.references.push_back(x);
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
