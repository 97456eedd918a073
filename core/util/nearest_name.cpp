// The nearest name (nearest_name.h).
#include "core/util/nearest_name.h"

#include <algorithm>

namespace rlda::core {

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    // d[i][j]: the distance of a's first i letters and b's first j, in three rows.
    std::vector<std::size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        last[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                row[j] = std::min(row[j], before[j - 2] + 1);
        }
        std::swap(before, last);
        std::swap(last, row);
    }
    return last[b.size()];
}

std::string nearest_name(std::string_view word, const std::vector<std::string>& names)
{
    std::vector<std::string> begun;
    for (const auto& n : names)
        if (!word.empty() && n.starts_with(word))
            begun.push_back(n);
    if (begun.size() == 1)
        return begun.front();
    std::string best;
    std::size_t best_distance = 0;
    for (const auto& n : names) {
        const std::size_t d = edit_distance(word, n);
        const std::size_t limit = (std::max(word.size(), n.size()) + 2) / 3;
        if (d <= limit && (best.empty() || d < best_distance)) {
            best = n;
            best_distance = d;
        }
    }
    return best;
}

} // namespace rlda::core
