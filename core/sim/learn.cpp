// Episodes against a table and greedy evaluation; the hot loop of `rlda learn`.
#include "core/sim/learn.h"

#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::sim {
namespace {

double budget_of(const SimulationTable& table)
{
    if (table.rows().empty())
        throw Error(fmt::format("{}: the simulation table is empty", table.source()));
    return table.rows().front().total_time;
}

void check_fit(const agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base)
{
    const int n = model::original_block_count(base);
    if (table.num_actions() != n + 1)
        throw Error(fmt::format("{}: the table has {} actions per decision, but {} has {} blocks + do nothing",
                                table.source(), table.num_actions(), base.name, n));
    if (learner.actions() != table.num_actions())
        throw Error(fmt::format("{}: the policy chooses among {} actions, the table has {}", table.source(),
                                learner.actions(), table.num_actions()));
    if (!table.complete())
        throw Error(fmt::format("{}: the simulation table is incomplete; finish it with rlda simulate first",
                                table.source()));
}

} // namespace

ArchitectureCache::ArchitectureCache(const model::ModelSpec& base, const agent::PolicyLearner& learner)
    : base_(base), learner_(learner)
{
}

const torch::Tensor& ArchitectureCache::layers(const std::vector<int>& prefix)
{
    auto it = cache_.find(prefix);
    if (it != cache_.end())
        return it->second;
    model::ModelSpec spec = base_;
    for (int a : prefix)
        model::deepen_spec(spec, a);
    return cache_.emplace(prefix, learner_.encode(model::summarize(spec).leaf_layers, &unknown_)).first->second;
}

std::int64_t learn(agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base,
                   std::int64_t episodes, LearnObserver* observer, std::stop_token stop)
{
    check_fit(learner, table, base);
    const double budget = budget_of(table);
    const int k = table.decisions();
    ArchitectureCache architectures(base, learner);
    std::vector<int> prefix;
    prefix.reserve(static_cast<std::size_t>(k));
    EpisodeRecord rec;
    std::int64_t done = 0;
    for (; done < episodes && !stop.stop_requested(); ++done) {
        prefix.clear();
        rec.probabilities.clear();
        rec.temperature = learner.temperature();
        rec.lr = learner.lr();
        for (int j = 0; j < k; ++j) {
            agent::Choice c = learner.sample(architectures.layers(prefix), table.time_left(prefix), budget);
            prefix.push_back(c.action);
            rec.probabilities.push_back(std::move(c.probabilities));
        }
        rec.accuracy = table.accuracy(prefix);
        rec.reward = agent::reward(rec.accuracy);
        rec.objective = learner.finish_episode(rec.reward);
        rec.episode = learner.episode();
        rec.actions = prefix;
        if (observer)
            observer->on_episode(rec);
    }
    return done;
}

Evaluation evaluate(agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base,
                    std::uint64_t random_seed)
{
    check_fit(learner, table, base);
    const double budget = budget_of(table);
    ArchitectureCache architectures(base, learner);
    Evaluation e;
    for (int j = 0; j < table.decisions(); ++j) {
        agent::Choice c = learner.greedy(architectures.layers(e.greedy), table.time_left(e.greedy), budget);
        e.greedy.push_back(c.action);
        e.probabilities.push_back(std::move(c.probabilities));
    }
    e.accuracy = table.accuracy(e.greedy);
    e.rank = table.rank(e.greedy);
    e.sequences = static_cast<int>(table.rows().size());
    e.optimal_sequence = table.optimal().actions;
    e.optimal = table.optimal().accuracy;
    e.regret = e.optimal - e.accuracy;
    e.no_adaptation = table.accuracy(table.no_adaptation_sequence());
    e.random_mean = table.random_mean(10, random_seed);
    e.random_expected = table.expected_random();
    return e;
}

std::string sequence_string(const std::vector<int>& actions)
{
    std::string s;
    for (int a : actions)
        s += (s.empty() ? "" : " ") + std::to_string(a);
    return s;
}

} // namespace rlda::core::sim
