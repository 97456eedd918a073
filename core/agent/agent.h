// Agents decide which action (an operation on an original block, or nothing) to take when the
// trainer consults them after an "up". Here: the interface and the fixed, random and no-adaptation
// agents. The growth heuristics are in heuristics.h, an agent built from a config's [agent] in
// from_config.h, and the agent that plays a saved policy in core/policy/reinforce.h. No LibTorch.
#pragma once

#include "core/agent/decision_features.h"
#include "core/model/spec.h"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rlda::core::agent {

struct DecisionContext {
    const model::ModelSummary& model;   // the current architecture
    const model::ActionSpace& actions;  // what the agent chooses among (Do Nothing last)
    int decision = 0;                   // 0-based within the adaptation mode
    double time_left = 0.0;
    double time_budget = 0.0;
    // The training state at this decision: set when the agent reads_features() and the trainer (or
    // the table it is judged on) measured it; null otherwise.
    const DecisionFeatures* features = nullptr;
    int num_actions() const { return actions.size(); }
};

struct Decision {
    int action = 0;
    std::vector<double> probabilities; // empty for agents without a distribution
};

class Agent {
public:
    virtual ~Agent() = default;
    virtual Decision decide(const DecisionContext& context) = 0;
    virtual std::string name() const = 0;
    // Whether decide() reads context.features: the trainer then measures them before asking
    // (which costs a probe batch and the gradient statistics of the last epoch).
    virtual bool reads_features() const { return false; }
};

// Plays a fixed sequence; past its end, Do Nothing.
class FixedSequenceAgent final : public Agent {
public:
    explicit FixedSequenceAgent(std::vector<int> sequence) : sequence_(std::move(sequence)) {}
    Decision decide(const DecisionContext& c) override;
    std::string name() const override;

private:
    std::vector<int> sequence_;
};

// Uniform over all actions, seeded.
class RandomAgent final : public Agent {
public:
    explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
    Decision decide(const DecisionContext& c) override;
    std::string name() const override { return "random"; }

private:
    std::mt19937_64 rng_;
};

// Never adapts: the no-adaptation baseline.
class NoAdaptationAgent final : public Agent {
public:
    Decision decide(const DecisionContext& c) override { return {c.num_actions() - 1, {}}; }
    std::string name() const override { return "none"; }
};

} // namespace rlda::core::agent
