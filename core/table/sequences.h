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

// Sweeps split a table into `parts` parts of whole subtrees, so that each part is built as a tree
// (core/sim/build.h): the sequences are grouped by their first d decisions, d the fewest with at
// least 4 groups a part (every decision when there are not so many), and group g belongs to part g
// modulo `parts`. Groups are of one size, so parts differ by one group at most. One part (parts =
// 1) is the whole tree. Preconditions: parts >= 1, decisions >= 1, num_actions >= 1.
inline int split_depth(int parts, int decisions, int num_actions)
{
    int depth = 0;
    std::int64_t groups = 1;
    while (depth < decisions && groups < 4 * static_cast<std::int64_t>(parts) && parts > 1) {
        groups *= num_actions;
        ++depth;
    }
    return depth;
}

// The group (subtree) of `code` at `depth`: its first `depth` decisions as a code.
inline std::int64_t group_of(std::int64_t code, int depth, int decisions, int num_actions)
{
    for (int i = depth; i < decisions; ++i)
        code /= num_actions;
    return code;
}

inline int part_of(std::int64_t code, int parts, int decisions, int num_actions)
{
    return static_cast<int>(group_of(code, split_depth(parts, decisions, num_actions), decisions, num_actions) % parts);
}

inline bool in_part(std::int64_t code, int part, int parts, int decisions, int num_actions)
{
    return code >= 0 && part_of(code, parts, decisions, num_actions) == part;
}

} // namespace rlda::core::sim
