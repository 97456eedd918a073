// Growth heuristics from the literature as agents: GradMax's gradient, Firefly's loss drop,
// AutoGrow's grow-while-improving, and always the first or the last block (docs/agent.md).
#pragma once

#include "core/agent/agent.h"

namespace rlda::core::agent {

// The rules every heuristic here shares (stated once, tested in test_heuristics):
// - Targets: the original blocks of the action space's first operation (deepen when the space has
//   it, ActionSpace::targets), so that a deepen-and-widen space is answered as the deepen-only one
//   is; a space whose first operation has no target (widening a one-block model) gets Do Nothing.
// - Ties: the lowest block wins; a score that is not a number (NaN) never wins.
// - Features: an agent that reads_features() throws Error naming itself when context.features is
//   null (the trainer did not measure them, or the table has none at that node), or when they hold
//   another number of blocks than the action space.

// GradMax (Evci et al., ICLR 2022): grow where the loss's gradient is largest. Scores each block
// by its gradient norm per parameter, sqrt(grad_sq_mean), so that large blocks do not win by size.
class GradientAgent final : public Agent {
public:
    Decision decide(const DecisionContext& c) override;
    std::string name() const override { return "gradient"; }
    bool reads_features() const override { return true; }
};

// Firefly (Wu et al., NeurIPS 2020): grow the block whose growth would lower the loss most, the
// first-order loss drop the trainer measured (BlockFeatures::loss_drop).
class LossDropAgent final : public Agent {
public:
    Decision decide(const DecisionContext& c) override;
    std::string name() const override { return "loss-drop"; }
    bool reads_features() const override { return true; }
};

// Always the first target block, or always the last: the simplest fixed rules, the baselines
// "grow at the input" and "grow at the output". Read no features.
class EndBlockAgent final : public Agent {
public:
    enum class End { First, Last };
    explicit EndBlockAgent(End end) : end_(end) {}
    Decision decide(const DecisionContext& c) override;
    std::string name() const override { return end_ == End::First ? "first" : "last"; }

private:
    End end_;
};

// AutoGrow (Wen et al., KDD 2020): keep growing while growth still pays. Grows while the last
// epoch raised the test accuracy by more than `threshold` (a fraction: 0.001 = 0.1 points),
// else Do Nothing. Which block: AutoGrow grows every growing sub-network at each growth step; with
// one block a decision the blocks take turns, decision j growing target j mod (targets), so k
// decisions grow the first k blocks. The rule reads only the context, so the agent answers a node
// of a table the same however the walk reached it.
class GrowWhileImprovingAgent final : public Agent {
public:
    explicit GrowWhileImprovingAgent(double threshold) : threshold_(threshold) {}
    Decision decide(const DecisionContext& c) override;
    std::string name() const override { return "grow-while-improving"; }
    bool reads_features() const override { return true; }
    double threshold() const { return threshold_; }

private:
    double threshold_;
};

} // namespace rlda::core::agent
