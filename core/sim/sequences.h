// The index of action sequences: a sequence of k decisions over n+1 actions <-> its lexicographic
// code, and which part of a sweep owns a code. The one place these rules are written.
#pragma once

#include <cstdint>
#include <vector>

namespace rlda::core::sim {

// The lexicographic index of `seq`: its value as a base-`num_actions` number, the first decision
// the most significant digit, so codes 0..num_actions^k - 1 run in the table's row order. -1 when
// an action is outside 0..num_actions-1. Inline: the table's O(1) lookups during learning use it.
inline std::int64_t sequence_code(const std::vector<int>& seq, int num_actions)
{
    std::int64_t code = 0;
    for (int a : seq) {
        if (a < 0 || a >= num_actions)
            return -1;
        code = code * num_actions + a;
    }
    return code;
}

// The sequence of `decisions` actions whose code is `code` (0 <= code < num_actions^decisions).
inline std::vector<int> sequence_of(std::int64_t code, int decisions, int num_actions)
{
    std::vector<int> seq(static_cast<std::size_t>(decisions > 0 ? decisions : 0));
    for (auto i = seq.size(); i-- > 0;) {
        seq[i] = static_cast<int>(code % num_actions);
        code /= num_actions;
    }
    return seq;
}

// Sweeps split a table into `parts` parts: part i is every code equal to i modulo `parts`, so the
// parts are equally long (part_size in build.h) and each mixes cheap and costly sequences.
// Part i's codes are i, i + parts, i + 2 parts, ... Precondition: code >= 0, parts >= 1.
inline int part_of(std::int64_t code, int parts)
{
    return static_cast<int>(code % parts);
}

inline bool in_part(std::int64_t code, int part, int parts)
{
    return code >= 0 && part_of(code, parts) == part;
}

} // namespace rlda::core::sim
