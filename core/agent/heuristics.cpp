// The growth heuristics: each scores the first operation's target blocks and takes the best.
#include "core/agent/heuristics.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <cmath>
#include <functional>

namespace rlda::core::agent {
namespace {

// The operation whose targets the heuristics choose among: the space's first (deepen if it has it).
model::Operation first_operation(const model::ActionSpace& actions)
{
    return actions.operations().front();
}

// The features a feature-reading agent needs at this decision; Error naming `agent` without them.
const DecisionFeatures& features_for(const std::string& agent, const DecisionContext& c)
{
    if (c.features == nullptr)
        throw Error(fmt::format("agent {}: no decision features at decision {} (it reads the training state, "
                                "which neither the trainer nor the table measured here)",
                                agent, c.decision + 1));
    if (static_cast<int>(c.features->blocks.size()) != c.actions.blocks())
        throw Error(fmt::format("agent {}: the decision features hold {} blocks, the model has {}", agent,
                                c.features->blocks.size(), c.actions.blocks()));
    return *c.features;
}

// The target block with the highest score (the lowest of equals; NaN never wins), as an action;
// Do Nothing when the first operation has no target.
Decision best_block(const DecisionContext& c, const std::function<double(int)>& score)
{
    const model::Operation op = first_operation(c.actions);
    const int targets = c.actions.targets(op);
    int best = -1;
    double best_score = 0.0;
    for (int b = 0; b < targets; ++b) {
        const double s = score(b);
        if (std::isnan(s))
            continue;
        if (best < 0 || s > best_score) {
            best = b;
            best_score = s;
        }
    }
    if (best < 0 && targets > 0)
        best = 0; // every score NaN: the lowest block, as for a tie
    return {best < 0 ? c.actions.do_nothing() : c.actions.index_of(op, best), {}};
}

// Target block `block` of the first operation; Do Nothing when it has none.
Decision grow(const DecisionContext& c, int block)
{
    const model::Operation op = first_operation(c.actions);
    const int targets = c.actions.targets(op);
    return {targets > 0 ? c.actions.index_of(op, block % targets) : c.actions.do_nothing(), {}};
}

} // namespace

Decision GradientAgent::decide(const DecisionContext& c)
{
    const DecisionFeatures& f = features_for(name(), c);
    return best_block(c, [&](int b) { return std::sqrt(f.blocks[static_cast<std::size_t>(b)].grad_sq_mean); });
}

Decision LossDropAgent::decide(const DecisionContext& c)
{
    const DecisionFeatures& f = features_for(name(), c);
    return best_block(c, [&](int b) { return f.blocks[static_cast<std::size_t>(b)].loss_drop; });
}

Decision EndBlockAgent::decide(const DecisionContext& c)
{
    const int targets = c.actions.targets(first_operation(c.actions));
    return grow(c, end_ == End::First ? 0 : targets - 1);
}

Decision GrowWhileImprovingAgent::decide(const DecisionContext& c)
{
    const DecisionFeatures& f = features_for(name(), c);
    // Not "> threshold" alone: a NaN change (no epoch yet to compare) is no improvement.
    if (!(f.test_accuracy_change > threshold_))
        return {c.actions.do_nothing(), {}};
    return grow(c, c.decision);
}

} // namespace rlda::core::agent
