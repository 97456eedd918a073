// Judging an agent that is no policy (a growth heuristic, fixed, none) on a table: its sequence walked
// down the table's decision tree with the features recorded at each node, ranked as a policy's is.
#pragma once

#include "core/agent/agent.h"
#include "core/config/experiment.h"
#include "core/table/judge.h"
#include "core/table/results.h"

#include <cstdint>
#include <vector>

namespace rlda::core::sim {

// The sequence `agent` takes on task's table under `seed`: from the root, at each decision node it
// is asked with the node's architecture, the table's time left there (SimulationTable::time_left)
// and, when it reads_features(), the features recorded there under `seed`
// (task.features->at(prefix, seed)); its action leads to the next node. Error naming the table, the
// node and the seed where features are missing, or the action when it is outside the table's.
std::vector<int> follow_agent(agent::Agent& agent, const LearnTask& task, std::uint64_t seed);

// `agent` judged on `task` (check_task first), the seeds' statistics included (add_seed_statistics;
// `random_seed` seeds them and the 10 random sequences, as `rlda evaluate` does for a policy):
// - an agent that does not read features takes one sequence, judged exactly as a policy's greedy
//   sequence (evaluate_sequence);
// - one that does is walked under each of feature_seeds(task) (core/sim/learn.h), and its
//   sequences judged as one by evaluate_seed_sequences: one sequence when the seeds agree, else a
//   rule that ends at each seed's own sequence.
// The agent must answer a node the same whatever it was asked before (every agent here but random
// and a sampling policy does).
Evaluation evaluate_agent(agent::Agent& agent, const LearnTask& task, std::uint64_t random_seed = 0);

// The same for a configured agent (agent::make_rule_agent): a growth heuristic (agent::is_heuristic),
// fixed or none; the study of heuristics against policies calls this. Error naming the kind for a
// policy (evaluate() judges one), random or simulation.
Evaluation evaluate_agent(const config::AgentConfig& agent, const LearnTask& task, std::uint64_t random_seed = 0);

} // namespace rlda::core::sim
