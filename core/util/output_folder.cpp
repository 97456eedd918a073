// Output folders: the marker, and --force's rule that only a folder rlda made is emptied.
#include "core/util/output_folder.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <fstream>

namespace rlda::core {
namespace fs = std::filesystem;

bool made_by_rlda(const fs::path& dir)
{
    std::error_code ec;
    for (const char* name : {kOutputMarker, "events.jsonl", "ranks.csv", "table.json"})
        if (fs::is_regular_file(dir / name, ec))
            return true;
    return false;
}

void check_output_folder(const fs::path& dir, bool force)
{
    std::error_code ec;
    if (!fs::exists(dir, ec))
        return;
    if (!fs::is_directory(dir, ec))
        throw Error(fmt::format("{}: exists and is not a folder; choose another --out", dir.string()));
    if (fs::is_empty(dir, ec))
        return;
    const bool ours = made_by_rlda(dir);
    if (!force)
        throw Error(fmt::format("{}: the folder exists and is not empty; choose another --out{}", dir.string(),
                                ours ? " or pass --force to replace it" : ""));
    if (!ours)
        throw Error(fmt::format("{}: not a folder rlda made (no {}); --force only replaces run folders; "
                                "choose an empty or new --out",
                                dir.string(), kOutputMarker));
}

static void mark_output_folder(const fs::path& dir)
{
    std::ofstream out(dir / kOutputMarker, std::ios::binary | std::ios::trunc);
    out << "made by rlda; --force may replace this folder\n";
    if (!out)
        throw Error(fmt::format("{}: cannot write", (dir / kOutputMarker).string()));
}

void prepare_output_folder(const fs::path& dir, bool force)
{
    check_output_folder(dir, force);
    std::error_code ec;
    if (fs::exists(dir, ec))
        for (const auto& entry : fs::directory_iterator(dir))
            fs::remove_all(entry.path());
    fs::create_directories(dir, ec);
    if (ec)
        throw Error(fmt::format("{}: cannot create the folder: {}", dir.string(), ec.message()));
    mark_output_folder(dir);
}

} // namespace rlda::core
