// Simulation-driven learning (the paper's Algorithm 4) and the greedy evaluation of a policy on a
// table. The tasks it learns from and the judging of a sequence are core/table/judge.h's.
#pragma once

#include "core/agent/state_encoding.h"
#include "core/model/spec.h"
#include "core/policy/reinforce.h"
#include "core/table/judge.h"
#include "core/table/results.h"
#include "core/table/table.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace rlda::core::sim {

// The policy's input (PolicyLearner::input) of every architecture a prefix of actions leads to,
// built once per prefix: an episode walks the same few architectures ((n+1)^k - 1)/n times over.
// Also the training state there (encode_state of the task's features_at), once per prefix and seed.
class ArchitectureCache {
public:
    ArchitectureCache(model::ModelSpec base, model::ActionSpace actions, const agent::PolicyLearner& learner);
    const torch::Tensor& layers(const std::vector<int>& prefix);
    // `task`: the one whose model and actions this cache was made for.
    const agent::StateEncoding& state(const LearnTask& task, const std::vector<int>& prefix, std::uint64_t seed);
    // Layers the vocabulary did not know, across all architectures seen so far.
    const std::vector<std::string>& unknown() const { return unknown_; }

private:
    model::ModelSpec base_;
    model::ActionSpace actions_;
    const agent::PolicyLearner& learner_;
    std::map<std::vector<int>, torch::Tensor> cache_;
    // By seed, then prefix: a lookup builds no key (it runs at every decision of every episode).
    std::map<std::uint64_t, std::map<std::vector<int>, agent::StateEncoding, std::less<>>> states_;
    std::vector<std::string> unknown_;
};

// Algorithm 4: `episodes` episodes of k sampled decisions against `table`, one REINFORCE update
// each. Stops early when `stop` is requested (between episodes). Returns episodes run. Without an
// action space, the table's actions are the paper's (deepen a block, or do nothing). A state-aware
// policy reads at each node the features of the seed the episode plays (episode_replicate), and is
// refused a table without features (feature_seeds' error).
std::int64_t learn(agent::PolicyLearner& learner, const LearnTask& task, std::int64_t episodes,
                   LearnObserver* observer = nullptr, const std::stop_token& stop = {});
std::int64_t learn(agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base,
                   std::int64_t episodes, LearnObserver* observer = nullptr, const std::stop_token& stop = {});

// Algorithm 4 over several tables at once: the policy's episode e runs against tasks[e mod n], so
// that one policy (of the structural encoder, when the models differ in blocks) learns all of them
// alike. With `standardise`, it learns from each table's reward minus the mean over the table's
// sequences, divided by their standard deviation: tables of other accuracy levels (another
// dataset) then weigh the same, and one baseline serves them all. learn() is this with one task,
// not standardised. Returns episodes run.
std::int64_t learn_tables(agent::PolicyLearner& learner, const std::vector<LearnTask>& tasks, std::int64_t episodes,
                          bool standardise, LearnObserver* observer = nullptr, const std::stop_token& stop = {});

// The greedy (argmax) sequence and where it stands. The policy may come from another model's
// table: only the action count must agree. A state-aware policy is walked under each of
// feature_seeds(task) and judged as evaluate_seed_sequences says; its probabilities are those of
// the first seed that took e.greedy.
Evaluation evaluate(agent::PolicyLearner& learner, const LearnTask& task, std::uint64_t random_seed = 0);
// The same for a table of the paper's actions.
Evaluation evaluate(agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base,
                    std::uint64_t random_seed = 0);

} // namespace rlda::core::sim
