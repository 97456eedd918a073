// What a table can support: the warnings of core/table/table_checks.h.
#include "core/table/table_checks.h"

#include <fmt/format.h>

#include <algorithm>

namespace rlda::core::sim {

std::optional<std::string> unrankable_table_warning(const SimulationTable& table, const std::string& name)
{
    if (!table.complete() || table.rows().size() < 2)
        return std::nullopt;
    const auto [low, high] = std::ranges::minmax_element(
        table.rows(), [](const TableRow& a, const TableRow& b) { return a.accuracy < b.accuracy; });
    if (low->accuracy != high->accuracy)
        return std::nullopt;
    return fmt::format(
        "{}: all {} sequences end at the same accuracy ({}), so the table ranks nothing: every "
        "agent is rank 1/{} on it, and learning from it has no signal",
        name, table.rows().size(), low->accuracy, table.sequences());
}

} // namespace rlda::core::sim
