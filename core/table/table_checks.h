// What a table can support, said where it is opened, evaluated or learned from: the one wording of
// each warning, for the command line and the workbench alike. No LibTorch.
#pragma once

#include "core/table/table.h"

#include <optional>
#include <string>

namespace rlda::core::sim {

// A complete table whose sequences all end at one accuracy ranks nothing: every agent is rank 1
// on it, and learning from it has no signal. The warning naming `name` and that accuracy; nullopt
// for a table that ranks, or an incomplete one.
std::optional<std::string> unrankable_table_warning(const SimulationTable& table, const std::string& name);

} // namespace rlda::core::sim
