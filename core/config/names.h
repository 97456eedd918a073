// The enumerated settings of an experiment and their names, one table per enum (defined with the
// schema, in schema.cpp): what experiment files, --set, the editor, table metadata and checkpoints
// write. experiment.h includes it.
#pragma once

#include "core/config/normalization.h"

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace rlda::core::config {

// The enumerated settings: files, --set and the editor are parsed into these at the boundary,
// and code switches on them.
enum class Optimizer { Adam, Sgd };
enum class DatasetKind { Synthetic, Cifar10, FashionMnist, Mnist };
using data::Normalization; // named "half", "dataset", "none"
enum class ClockKind { Virtual, Wall };
// None: always Do Nothing; Simulation: every action sequence in turn (a simulation-table run,
// the original's SimulationAgent); the rest are the growth heuristics of core/agent/heuristics.h
enum class AgentKind { Fixed, Random, None, Policy, Simulation, Gradient, LossDrop, First, Last, GrowWhileImproving };
enum class SweepBackend { Local, Slurm }; // worker processes here; cluster jobs
// Whether a replicated table trains its seeds of one sequence as one fused model (core/sim/build.h):
// Auto fuses on a GPU only (on the CPU a fused grouped convolution is slower than separate ones)
enum class FusedReplicates { Auto, On, Off };
// How a policy reads an architecture: the original's fixed embeddings of layer strings, the
// numbers of each layer (core/agent/structure.h), one logit per block, or those numbers with each
// block's decision features and the run's globals beside them (State, core/agent/state_encoding.h)
enum class PolicyEncoder { Original, Structural, State };
// Whether the encoder scores each block from its own layers (StructuralNet): any block count.
constexpr bool scores_blocks(PolicyEncoder e) { return e != PolicyEncoder::Original; }
// Whether it reads the training state at each decision: it learns only from tables with features.
constexpr bool reads_state(PolicyEncoder e) { return e == PolicyEncoder::State; }
enum class Change { Up, Down };            // an allocation event: more GPUs, or fewer

// Each value with its name, in the order a chooser shows them.
template <class E> const std::vector<std::pair<E, std::string>>& name_table();
template <> const std::vector<std::pair<Optimizer, std::string>>& name_table<Optimizer>();
template <> const std::vector<std::pair<DatasetKind, std::string>>& name_table<DatasetKind>();
template <> const std::vector<std::pair<Normalization, std::string>>& name_table<Normalization>();
template <> const std::vector<std::pair<ClockKind, std::string>>& name_table<ClockKind>();
template <> const std::vector<std::pair<AgentKind, std::string>>& name_table<AgentKind>();
template <> const std::vector<std::pair<SweepBackend, std::string>>& name_table<SweepBackend>();
template <> const std::vector<std::pair<FusedReplicates, std::string>>& name_table<FusedReplicates>();
template <> const std::vector<std::pair<PolicyEncoder, std::string>>& name_table<PolicyEncoder>();
template <> const std::vector<std::pair<Change, std::string>>& name_table<Change>(); // "up", "down"

template <class E>
concept NamedSetting = std::is_enum_v<E> && requires { name_table<E>(); };

// "adam", "fashion-mnist", ...
template <NamedSetting E> const std::string& to_string(E value)
{
    for (const auto& [v, name] : name_table<E>())
        if (v == value)
            return name;
    static const std::string unknown = "?";
    return unknown;
}

// The value named `name`, nullopt for an unknown name (names are case-sensitive).
template <NamedSetting E> std::optional<E> from_string(std::string_view name)
{
    for (const auto& [v, n] : name_table<E>())
        if (n == name)
            return v;
    return std::nullopt;
}

// The names in chooser order.
template <NamedSetting E> const std::vector<std::string>& names()
{
    static const std::vector<std::string> out = [] {
        std::vector<std::string> n;
        for (const auto& entry : name_table<E>())
            n.push_back(entry.second);
        return n;
    }();
    return out;
}

} // namespace rlda::core::config
