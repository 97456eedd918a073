// The agents an experiment's [agent] section names that need no file and no LibTorch: fixed,
// random, none and the growth heuristics. A saved policy is loaded by train::make_agent
// (core/train/setup.h), which builds the others here.
#pragma once

#include "core/agent/agent.h"
#include "core/config/experiment.h"

#include <memory>

namespace rlda::core::agent {

// The growth heuristics (gradient, loss-drop, first, last, grow-while-improving): agents that need
// no file and answer a decision from its context alone, so that a table can judge them.
bool is_heuristic(config::AgentKind kind);

// Whether make_rule_agent builds `kind`: fixed, random, none or a growth heuristic.
bool is_rule_agent(config::AgentKind kind);

// Fixed, random, none or a growth heuristic as c configures it. Error naming agent.kind for a
// policy (train::make_agent loads one) and for simulation (which builds tables, not jobs).
std::unique_ptr<Agent> make_rule_agent(const config::AgentConfig& c);

} // namespace rlda::core::agent
