// A simulation table for tests that must not depend on the paper's tables: every sequence of 3
// decisions over ConvNet2's 4 actions, with made-up but fixed accuracies and times left.
#pragma once

#include "core/table/table.h"

#include <string>

namespace rlda::test {

inline std::string write_synthetic_table(const std::string& path)
{
    core::sim::SimulationTable t(3, 4);
    for (int code = 0; code < 64; ++code) {
        const int a = code / 16, b = code / 4 % 4, c = code % 4;
        // A fixed scramble of the codes: one clear best sequence ([2 1 0] = code 36), the rest apart.
        const double accuracy = code == 36 ? 0.80 : 0.50 + 0.004 * ((code * 37) % 64);
        t.add({{a, b, c}, {330.0 - a, 318.0 - b, 306.0 - c}, 400.0, accuracy});
    }
    t.save(path);
    return path;
}

} // namespace rlda::test
