// An agent's sequence walked down a table's decision tree, seed by seed, and ranked there.
#include "core/table/agent_eval.h"

#include "core/agent/from_config.h"
#include "core/config/names.h"
#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::sim {

std::vector<int> follow_agent(agent::Agent& agent, const LearnTask& task, std::uint64_t seed)
{
    const SimulationTable& table = *task.table;
    const double budget = table_budget(table);
    model::ModelSpec spec = *task.model;
    std::vector<int> prefix;
    for (int j = 0; j < table.decisions(); ++j) {
        const agent::DecisionFeatures* features = agent.reads_features() ? &features_at(task, prefix, seed) : nullptr;
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
    std::vector<std::vector<int>> sequences;
    for (const std::uint64_t seed : walk_seeds(task, agent.reads_features()))
        sequences.push_back(follow_agent(agent, task, seed));
    Evaluation e = evaluate_seed_sequences(*task.table, sequences, random_seed);
    add_seed_statistics(e, *task.table, random_seed);
    return e;
}

Evaluation evaluate_agent(const config::AgentConfig& agent, const LearnTask& task, std::uint64_t random_seed)
{
    if (!agent::is_heuristic(agent.kind) && agent.kind != config::AgentKind::Fixed &&
        agent.kind != config::AgentKind::None)
        throw Error(fmt::format("agent.kind \"{}\": a table judges the growth heuristics, fixed and none here{}",
                                config::to_string(agent.kind),
                                agent.kind == config::AgentKind::Policy ? " (a policy: rlda evaluate --policy)" : ""));
    const auto built = agent::make_rule_agent(agent);
    return evaluate_agent(*built, task, random_seed);
}

} // namespace rlda::core::sim
