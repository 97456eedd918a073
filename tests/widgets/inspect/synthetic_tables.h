// Simulation tables of any shape built in the test: every sequence of `decisions` over `actions`
// with deterministic accuracies and one clear optimum (0.9) at `best`; `skipEvery` > 0 leaves out
// every sequence whose index is 1 modulo it (never `best`), as a killed build leaves a partial table.
#pragma once

#include "core/table/table.h"

#include <cstdint>
#include <vector>

namespace rlda::test {

inline core::sim::SimulationTable syntheticTable(int decisions, int actions, const std::vector<int>& best,
                                                 int skipEvery = 0)
{
    core::sim::SimulationTable t(decisions, actions);
    std::vector<int> seq(static_cast<std::size_t>(decisions), 0);
    std::int64_t total = 1;
    for (int i = 0; i < decisions; ++i)
        total *= actions;
    for (std::int64_t code = 0; code < total; ++code) {
        std::int64_t c = code;
        for (int i = decisions; i-- > 0;) {
            seq[static_cast<std::size_t>(i)] = static_cast<int>(c % actions);
            c /= actions;
        }
        if (skipEvery > 0 && code % skipEvery == 1 && seq != best)
            continue;
        core::sim::TableRow row;
        row.actions = seq;
        row.time_left.assign(static_cast<std::size_t>(decisions), 100.0);
        row.total_time = 400.0;
        row.accuracy = seq == best ? 0.9 : 0.5 + 0.3 * static_cast<double>((code * 7) % 13) / 13.0;
        t.add(row);
    }
    return t;
}

} // namespace rlda::test
