// An agent's sequence walked down a table's decision tree, seed by seed, and ranked there.
#include "core/sim/agent_eval.h"

#include "core/sim/reliability.h"
#include "core/train/setup.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace rlda::core::sim {
namespace {

// The most frequent sequence; among equals, the one of the earliest seed.
std::vector<int> most_frequent(const std::vector<std::vector<int>>& sequences)
{
    std::map<std::vector<int>, int> count;
    for (const auto& s : sequences)
        ++count[s];
    const std::vector<int>* best = &sequences.front();
    for (const auto& s : sequences)
        if (count[s] > count[*best])
            best = &s;
    return *best;
}

} // namespace

std::vector<std::uint64_t> feature_seeds(const LearnTask& task)
{
    const SimulationTable& table = *task.table;
    if (task.features == nullptr || task.features->empty())
        throw Error(fmt::format("{} has no decision features (features.csv); build it again with rlda simulate to "
                                "record them",
                                table.source()));
    if (table.replicated())
        return table.seeds();
    auto seeds = task.features->seeds();
    if (seeds.size() != 1)
        throw Error(fmt::format("{}: decision features of {} seeds for a table of one seed", table.source(),
                                seeds.size()));
    return seeds;
}

std::vector<int> follow_agent(agent::Agent& agent, const LearnTask& task, std::uint64_t seed)
{
    const SimulationTable& table = *task.table;
    const double budget = table_budget(table);
    model::ModelSpec spec = *task.model;
    std::vector<int> prefix;
    for (int j = 0; j < table.decisions(); ++j) {
        const agent::DecisionFeatures* features = nullptr;
        if (agent.reads_features()) {
            features = task.features ? task.features->at(prefix, seed) : nullptr;
            if (features == nullptr)
                throw Error(fmt::format("{}: no decision features at the node [{}] under seed {} (agent {})",
                                        table.source(), sequence_string(prefix), seed, agent.name()));
        }
        const model::ModelSummary summary = model::summarize(spec);
        const agent::DecisionContext context{summary, task.actions, j, table.time_left(prefix), budget, features};
        const int action = agent.decide(context).action;
        if (action < 0 || action >= table.num_actions())
            throw Error(fmt::format("{}: agent {} chose action {} at the node [{}], outside 0..{}", table.source(),
                                    agent.name(), action, sequence_string(prefix), table.num_actions() - 1));
        model::apply_action(spec, task.actions, action);
        prefix.push_back(action);
    }
    return prefix;
}

Evaluation evaluate_agent(agent::Agent& agent, const LearnTask& task, std::uint64_t random_seed)
{
    check_task(task);
    const SimulationTable& table = *task.table;
    std::vector<std::vector<int>> sequences;
    std::vector<std::uint64_t> seeds;
    if (agent.reads_features()) {
        seeds = feature_seeds(task);
        for (const std::uint64_t seed : seeds)
            sequences.push_back(follow_agent(agent, task, seed));
    } else {
        sequences.push_back(follow_agent(agent, task, 0));
    }
    const bool agree = std::all_of(sequences.begin(), sequences.end(),
                                   [&](const std::vector<int>& s) { return s == sequences.front(); });
    Evaluation e = evaluate_sequence(table, most_frequent(sequences), random_seed);
    if (agree) {
        add_seed_statistics(e, table, random_seed);
        return e;
    }
    // The seeds of a replicated table disagree: the agent earns seed i's accuracy of its own sequence.
    std::vector<double> by_seed;
    for (std::size_t i = 0; i < sequences.size(); ++i)
        by_seed.push_back(table.at(sequences[i]).replicates.at(i));
    // The point rank alone: one resample is enough, and the bootstrap comes with the statistics.
    const CandidateRanks point = bootstrap_candidate(accuracies_by_seed(table), by_seed, 1, random_seed);
    double sum = 0.0;
    for (const double a : by_seed)
        sum += a;
    e.seed_sequences = sequences;
    e.accuracy = sum / static_cast<double>(by_seed.size());
    e.rank = point.rank;
    e.regret = e.optimal - e.accuracy;
    add_seed_statistics(e, table, by_seed, random_seed);
    return e;
}

Evaluation evaluate_agent(const config::AgentConfig& agent, const LearnTask& task, std::uint64_t random_seed)
{
    if (!train::is_heuristic(agent.kind) && agent.kind != config::AgentKind::Fixed &&
        agent.kind != config::AgentKind::None)
        throw Error(fmt::format("agent.kind \"{}\": a table judges the growth heuristics, fixed and none here{}",
                                config::to_string(agent.kind),
                                agent.kind == config::AgentKind::Policy ? " (a policy: rlda evaluate --policy)" : ""));
    const auto built = train::make_agent(agent);
    return evaluate_agent(*built, task, random_seed);
}

} // namespace rlda::core::sim
