// Simulation-driven learning (the paper's Algorithm 4) and the evaluation of a policy on a table.
#pragma once

#include "core/agent/reinforce.h"
#include "core/model/spec.h"
#include "core/sim/results.h"
#include "core/sim/table.h"

#include <cstdint>
#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace rlda::core::sim {

// Leaf-layer ids of every architecture a prefix of actions leads to, built once per prefix: an
// episode walks the same few architectures ((n+1)^k - 1)/n times over.
class ArchitectureCache {
public:
    ArchitectureCache(const model::ModelSpec& base, const agent::PolicyLearner& learner);
    const torch::Tensor& layers(const std::vector<int>& prefix);
    // Layers the vocabulary did not know, across all architectures seen so far.
    const std::vector<std::string>& unknown() const { return unknown_; }

private:
    model::ModelSpec base_;
    const agent::PolicyLearner& learner_;
    std::map<std::vector<int>, torch::Tensor> cache_;
    std::vector<std::string> unknown_;
};

// Algorithm 4: `episodes` episodes of k sampled decisions against `table`, one REINFORCE update
// each. Stops early when `stop` is requested (between episodes). Returns episodes run.
std::int64_t learn(agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base,
                   std::int64_t episodes, LearnObserver* observer = nullptr, std::stop_token stop = {});

// The greedy (argmax) sequence and where it stands. The policy may come from another model's
// table: only the action count must agree.
Evaluation evaluate(agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base,
                    std::uint64_t random_seed = 0);


} // namespace rlda::core::sim
