// A small simulation table for the policy suites: every sequence of a few decisions, one first
// action clearly best, so that a learner that works finds it in a few hundred episodes.
#pragma once

#include "core/table/table.h"

#include <cmath>
#include <vector>

namespace rlda::test {

// Every sequence of `decisions` over `actions`: accuracy 0.85 - 0.01 x the last action when the
// first is `best`, else 0.5 + 0.01 x it; times left 300, 290, ... of a budget of 400.
inline core::sim::SimulationTable first_action_table(int decisions, int actions, int best)
{
    core::sim::SimulationTable t(decisions, actions);
    std::vector<int> seq(static_cast<std::size_t>(decisions), 0);
    for (int code = 0; code < static_cast<int>(std::pow(actions, decisions)); ++code) {
        int c = code;
        std::vector<double> left;
        for (int j = decisions; j-- > 0;) {
            seq[static_cast<std::size_t>(j)] = c % actions;
            c /= actions;
        }
        for (int j = 0; j < decisions; ++j)
            left.push_back(300.0 - 10.0 * j);
        const double acc = seq.front() == best ? 0.85 - 0.01 * seq.back() : 0.5 + 0.01 * seq.back();
        t.add({seq, left, 400.0, acc});
    }
    return t;
}

} // namespace rlda::test
