// The shipped files' folders: the environment, the installed package, then the source tree.
#include "core/util/data_dir.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <system_error>

#ifndef RLDA_SOURCE_DATA_DIR
#error "RLDA_SOURCE_DATA_DIR (the source tree's data/ folder) is set by core/CMakeLists.txt"
#endif

namespace fs = std::filesystem;

namespace rlda::core {
namespace {

// One kind's three places (data_dir.h's table): the part under $RLDA_DATA_DIR, under the installed
// prefix, and the folder in the source tree.
std::vector<fs::path> places(const fs::path& under_env, const fs::path& under_prefix, const fs::path& source)
{
    std::vector<fs::path> dirs;
    if (const char* env = std::getenv("RLDA_DATA_DIR"); env && *env)
        dirs.push_back(under_env.empty() ? fs::path(env) : fs::path(env) / under_env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && exe.has_parent_path())
        dirs.push_back(exe.parent_path().parent_path() / under_prefix);
    dirs.push_back(source.lexically_normal());
    return dirs;
}

fs::path source_root()
{
    return fs::path(RLDA_SOURCE_DATA_DIR).parent_path();
}

// `relative` under the first of `dirs` holding it; the error says what $RLDA_DATA_DIR must hold
// (`under_env` / `relative`).
fs::path find_file(const fs::path& relative, const std::vector<fs::path>& dirs, const fs::path& under_env)
{
    std::string looked;
    for (const fs::path& dir : dirs) {
        fs::path candidate = dir / relative;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec))
            return candidate;
        looked += fmt::format("{}{}", looked.empty() ? "" : ", ", candidate.string());
    }
    throw Error(fmt::format("{} not found (looked at: {}); set RLDA_DATA_DIR to a folder holding {}",
                            relative.string(), looked.empty() ? "nothing" : looked,
                            (under_env / relative).string()));
}

} // namespace

std::vector<fs::path> data_dirs()
{
    return places({}, fs::path("share") / "rlda-workbench", RLDA_SOURCE_DATA_DIR);
}

std::vector<fs::path> example_dirs()
{
    return places("examples", fs::path("share") / "rlda-workbench" / "examples", source_root() / "config");
}

std::vector<fs::path> documentation_dirs()
{
    return places("doc", fs::path("share") / "doc" / "rlda-workbench", source_root());
}

fs::path find_data_file(const fs::path& relative, const std::vector<fs::path>& dirs)
{
    return find_file(relative, dirs, {});
}

fs::path paper_tables_dir()
{
    return find_data_file(fs::path("paper") / "tables" / "index.csv", data_dirs()).parent_path();
}

fs::path fashion_mnist_tables_dir()
{
    return find_data_file(fs::path("fashion-mnist") / "tables" / "index.csv", data_dirs()).parent_path();
}

std::vector<fs::path> transfer_study_runs()
{
    std::vector<fs::path> out;
    for (const char* run : {"state", "structural"})
        out.push_back(find_data_file(fs::path("fashion-mnist") / "study" / run / "folds.csv", data_dirs()).parent_path());
    return out;
}

fs::path paper_ranks_file()
{
    return find_data_file(fs::path("paper") / "ranks.csv", data_dirs());
}

fs::path examples_dir()
{
    return find_file("default.toml", example_dirs(), "examples").parent_path();
}

std::vector<fs::path> example_files()
{
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(examples_dir()))
        if (entry.is_regular_file() && entry.path().extension() == ".toml")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

fs::path documentation_dir()
{
    return find_file("README.md", documentation_dirs(), "doc").parent_path();
}

} // namespace rlda::core
