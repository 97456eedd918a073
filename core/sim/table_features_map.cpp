// TableFeatures' in-memory map (at, add, seeds) alone, so that the heuristics' evaluation links before
// the features file lands; table_features.cpp (the file's reader and writer) replaces this file.
#include "core/sim/table_features.h"

#include "core/sim/results.h"
#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::sim {

const agent::DecisionFeatures* TableFeatures::at(const std::vector<int>& prefix, std::uint64_t seed) const
{
    const auto it = nodes_.find({seed, prefix});
    return it == nodes_.end() ? nullptr : &it->second;
}

void TableFeatures::add(std::uint64_t seed, std::vector<int> prefix, agent::DecisionFeatures features)
{
    const auto [it, inserted] = nodes_.try_emplace({seed, prefix}, features);
    if (!inserted && !(it->second == features))
        throw Error(fmt::format("decision features: the node [{}] under seed {} recorded twice with different "
                                "features",
                                sequence_string(prefix), seed));
}

std::vector<std::uint64_t> TableFeatures::seeds() const
{
    std::vector<std::uint64_t> out;
    for (const auto& [key, features] : nodes_)
        if (out.empty() || out.back() != key.first)
            out.push_back(key.first);
    return out;
}

} // namespace rlda::core::sim
