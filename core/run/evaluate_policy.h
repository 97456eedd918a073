// A saved policy judged on tables: the one entry point of `rlda evaluate`, `rlda figures` and the
// workbench's Policy page. No LibTorch type here: callers include no LibTorch header.
#pragma once

#include "core/table/open_table.h"
#include "core/table/results.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace rlda::core::run {

// Loads `policy` once (what its reader warns about, such as a file of the format before tensor
// files, goes to `warn`), then judges its greedy sequence on each table (sim::evaluate,
// core/sim/learn.h) with what the table's seeds say of it (sim::add_seed_statistics), both seeded by
// `seed`. Gradients are off on the calling thread meanwhile. Throws Error naming the policy file,
// or the table whose actions it does not choose among.
std::vector<sim::Evaluation> evaluate_policy(const std::filesystem::path& policy,
                                             const std::vector<const sim::OpenedTable*>& tables,
                                             std::uint64_t seed = 0,
                                             const std::function<void(const std::string&)>& warn = {});

} // namespace rlda::core::run
