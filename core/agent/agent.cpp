// The heuristic agents: fixed sequence and uniform random.
#include "core/agent/agent.h"

#include <fmt/format.h>

namespace rlda::core::agent {

Decision FixedSequenceAgent::decide(const DecisionContext& c)
{
    const auto i = static_cast<std::size_t>(c.decision);
    return {i < sequence_.size() ? sequence_[i] : c.num_actions() - 1, {}};
}

std::string FixedSequenceAgent::name() const
{
    std::string s;
    for (int a : sequence_)
        s += (s.empty() ? "" : " ") + std::to_string(a);
    return fmt::format("fixed [{}]", s);
}

Decision RandomAgent::decide(const DecisionContext& c)
{
    std::uniform_int_distribution<int> pick(0, c.num_actions() - 1);
    const int n = c.num_actions();
    return {pick(rng_), std::vector<double>(static_cast<std::size_t>(n), 1.0 / n)};
}

} // namespace rlda::core::agent
