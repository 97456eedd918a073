#include "core/io/comparison.h"

#include <fmt/format.h>

namespace rlda::core::run {

std::string comparison_line(const Comparison& c)
{
    return fmt::format("adaptation: {:.4f} final test accuracy; no adaptation: {:.4f}; difference: {:+.4f}",
                       c.adapted.final_test_acc, c.baseline.final_test_acc, c.difference());
}

std::filesystem::path baseline_folder(const std::filesystem::path& out)
{
    // "runs/x/" names the folder x too: the sibling is runs/x-none, not runs/x/-none.
    std::filesystem::path dir = out;
    while (dir.has_parent_path() && !dir.has_filename())
        dir = dir.parent_path();
    dir += "-none";
    return dir;
}

} // namespace rlda::core::run
