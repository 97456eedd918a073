// The shipped data's folder: the environment, the installed package, then the source tree.
#include "core/util/data_dir.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <system_error>

#ifndef RLDA_SOURCE_DATA_DIR
#error "RLDA_SOURCE_DATA_DIR (the source tree's data/ folder) is set by core/CMakeLists.txt"
#endif

namespace fs = std::filesystem;

namespace rlda::core {

std::vector<fs::path> data_dirs()
{
    std::vector<fs::path> dirs;
    if (const char* env = std::getenv("RLDA_DATA_DIR"); env && *env)
        dirs.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && exe.has_parent_path())
        dirs.push_back(exe.parent_path().parent_path() / "share" / "rlda-workbench");
    dirs.push_back(fs::path(RLDA_SOURCE_DATA_DIR).lexically_normal());
    return dirs;
}

fs::path find_data_file(const fs::path& relative, const std::vector<fs::path>& dirs)
{
    std::string looked;
    for (const fs::path& dir : dirs) {
        const fs::path candidate = dir / relative;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec))
            return candidate;
        looked += fmt::format("{}{}", looked.empty() ? "" : ", ", candidate.string());
    }
    throw Error(fmt::format("{} not found (looked at: {}); set RLDA_DATA_DIR to a folder holding {}",
                            relative.string(), looked.empty() ? "nothing" : looked, relative.string()));
}

fs::path paper_tables_dir()
{
    return find_data_file(fs::path("paper") / "tables" / "index.csv", data_dirs()).parent_path();
}

fs::path paper_ranks_file()
{
    return find_data_file(fs::path("paper") / "ranks.csv", data_dirs());
}

} // namespace rlda::core
