// A held-out table's references, and where a random agent's mean rank falls.
#include "core/transfer/references.h"

#include "core/agent/from_config.h"
#include "core/config/names.h"
#include "core/table/agent_eval.h"
#include "core/util/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rlda::core::run {

using namespace sim;

std::vector<TransferReference> judge_references(const LearnTask& task, const std::vector<int>& best_fixed)
{
    const SimulationTable& table = *task.table;
    std::vector<TransferReference> out;
    const auto judged = [&](const std::string& name, const config::AgentConfig& agent) {
        const Evaluation e = evaluate_agent(agent, task);
        TransferReference r;
        r.agent = name;
        r.rank = e.rank;
        r.rank_low = e.greedy_spread.low;
        r.rank_high = e.greedy_spread.high;
        r.p_best = e.greedy_spread.best_share;
        r.among_best = e.greedy_among_best;
        r.sequence = e.greedy;
        out.push_back(std::move(r));
    };
    for (const auto& [kind, name] : config::name_table<config::AgentKind>()) {
        if (!agent::is_heuristic(kind))
            continue;
        config::AgentConfig agent;
        agent.kind = kind;
        if (!walks_table(agent, task))
            continue;
        judged(name, agent);
    }
    config::AgentConfig none;
    none.kind = config::AgentKind::None;
    judged(kNoAdaptationReference, none);
    config::AgentConfig fixed;
    fixed.kind = config::AgentKind::Fixed;
    fixed.sequence = best_fixed;
    judged(kBestFixedReference, fixed);
    // A uniformly random sequence: its expected rank, and where 95 % of its ranks fall.
    const RandomRank r = random_rank(table);
    TransferReference random;
    random.agent = kRandomReference;
    random.rank = r.rank;
    random.rank_low = r.low;
    random.rank_high = r.high;
    out.push_back(std::move(random));
    for (auto& r : out)
        r.table = table.source();
    return out;
}

std::vector<int> sequence_ranks(const SimulationTable& table)
{
    std::vector<double> accuracies;
    accuracies.reserve(table.rows().size());
    for (const TableRow& row : table.rows())
        accuracies.push_back(row.accuracy);
    std::vector<int> ranks = competition_ranks(accuracies);
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

RandomRank random_rank(const SimulationTable& table)
{
    const std::vector<int> ranks = sequence_ranks(table);
    return {expected_random_rank(ranks), quantile(ranks, 0.025), quantile(ranks, 0.975)};
}

bool walks_table(const config::AgentConfig& agent, const LearnTask& task)
{
    const bool has_features = task.features != nullptr && !task.features->empty();
    return has_features || !agent::make_rule_agent(agent)->reads_features();
}

namespace {

// The distribution of sum_t weight[t] * (the sum of draws[t] uniform draws from ranks[t]): one list
// convolved in per draw. Index s holds P(sum = s).
std::vector<double> weighted_draw_sum(const std::vector<std::vector<int>>& ranks,
                                      const std::vector<int>& draws, const std::vector<int>& weight)
{
    std::vector<double> sum{1.0};
    for (std::size_t t = 0; t < ranks.size(); ++t) {
        const auto& list = ranks[t];
        if (list.empty())
            continue;
        const int top = *std::max_element(list.begin(), list.end()) * weight[t];
        const double p = 1.0 / static_cast<double>(list.size());
        for (int d = 0; d < draws[t]; ++d) {
            std::vector<double> next(sum.size() + static_cast<std::size_t>(top), 0.0);
            for (std::size_t s = 0; s < sum.size(); ++s)
                if (sum[s] > 0.0)
                    for (const int r : list)
                        next[s + static_cast<std::size_t>(r * weight[t])] += sum[s] * p;
            sum = std::move(next);
        }
    }
    return sum;
}

} // namespace

RankInterval random_mean_interval(const std::vector<std::vector<int>>& ranks, int draws)
{
    int count = 0;
    for (const auto& list : ranks)
        count += list.empty() ? 0 : draws;
    if (count == 0)
        return {};
    const std::vector<double> sum =
        weighted_draw_sum(ranks, std::vector<int>(ranks.size(), draws), std::vector<int>(ranks.size(), 1));
    const auto quantile = [&](double q) {
        double cdf = 0.0;
        for (std::size_t s = 0; s < sum.size(); ++s) {
            cdf += sum[s];
            if (cdf >= q - 1e-12)
                return static_cast<double>(s) / count;
        }
        return static_cast<double>(sum.size() - 1) / count;
    };
    return {quantile(0.025), quantile(0.975)};
}

double random_mean_p(const std::vector<std::vector<int>>& ranks, const std::vector<int>& draws, double mean)
{
    // M * tables * L is a whole number when each of table t's draws weighs L / draws[t], with L the
    // least common multiple of the draws.
    int common = 1;
    int tables = 0;
    for (std::size_t t = 0; t < ranks.size(); ++t)
        if (!ranks[t].empty() && draws[t] > 0) {
            common = std::lcm(common, draws[t]);
            ++tables;
        }
    if (tables == 0)
        return 1.0;
    std::vector<int> weight(ranks.size(), 0); // an empty list or no draw adds nothing to the sum
    for (std::size_t t = 0; t < ranks.size(); ++t)
        if (!ranks[t].empty() && draws[t] > 0)
            weight[t] = common / draws[t];
    const std::vector<double> sum = weighted_draw_sum(ranks, draws, weight);
    const double bound = mean * tables * common + 1e-9;
    double p = 0.0;
    for (std::size_t s = 0; s < sum.size() && static_cast<double>(s) <= bound; ++s)
        p += sum[s];
    return std::min(1.0, p);
}

} // namespace rlda::core::run
