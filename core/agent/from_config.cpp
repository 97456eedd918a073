// The agents of an [agent] section that need no file.
#include "core/agent/from_config.h"

#include "core/agent/heuristics.h"
#include "core/config/names.h"
#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::agent {

bool is_heuristic(config::AgentKind kind)
{
    switch (kind) {
    case config::AgentKind::Gradient:
    case config::AgentKind::LossDrop:
    case config::AgentKind::First:
    case config::AgentKind::Last:
    case config::AgentKind::GrowWhileImproving:
        return true;
    case config::AgentKind::Fixed:
    case config::AgentKind::Random:
    case config::AgentKind::None:
    case config::AgentKind::Policy:
    case config::AgentKind::Simulation:
        break;
    }
    return false;
}

bool is_rule_agent(config::AgentKind kind)
{
    return is_heuristic(kind) || kind == config::AgentKind::Fixed || kind == config::AgentKind::Random ||
           kind == config::AgentKind::None;
}

std::unique_ptr<Agent> make_rule_agent(const config::AgentConfig& c)
{
    switch (c.kind) {
    case config::AgentKind::Fixed:
        return std::make_unique<FixedSequenceAgent>(c.sequence);
    case config::AgentKind::Random:
        return std::make_unique<RandomAgent>(c.seed);
    case config::AgentKind::None:
        return std::make_unique<NoAdaptationAgent>();
    case config::AgentKind::Gradient:
        return std::make_unique<GradientAgent>();
    case config::AgentKind::LossDrop:
        return std::make_unique<LossDropAgent>();
    case config::AgentKind::First:
        return std::make_unique<EndBlockAgent>(EndBlockAgent::End::First);
    case config::AgentKind::Last:
        return std::make_unique<EndBlockAgent>(EndBlockAgent::End::Last);
    case config::AgentKind::GrowWhileImproving:
        return std::make_unique<GrowWhileImprovingAgent>(c.threshold);
    case config::AgentKind::Policy:
        throw Error(
            "agent.kind: \"policy\" is loaded from its file (agent.policy), not built from the config alone");
    case config::AgentKind::Simulation:
        break;
    }
    throw Error(
        fmt::format("agent.kind: \"{}\" does not train jobs: it builds simulation tables (rlda simulate)",
                    config::to_string(c.kind)));
}

} // namespace rlda::core::agent
