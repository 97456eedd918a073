// A table folder's rows and features gathered from table.csv, its parts and its seeds' folders.
#include "core/table/merge.h"

#include "core/table/sequences.h"
#include "core/table/table_folder.h"
#include "core/table/table_status.h"
#include "core/util/error.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <regex>

namespace rlda::core::sim {

namespace fs = std::filesystem;

namespace {

// The part files of `out` matching `pattern`, sorted.
std::vector<fs::path> part_files(const fs::path& out, const std::regex& pattern)
{
    std::vector<fs::path> parts;
    std::error_code ec;
    if (fs::is_directory(out / "parts", ec))
        for (const auto& e : fs::directory_iterator(out / "parts"))
            if (std::regex_match(e.path().filename().string(), pattern))
                parts.push_back(e.path());
    std::ranges::sort(parts);
    return parts;
}

} // namespace

TableFeatures merge_features(const TableShape& j, const fs::path& out)
{
    static const std::regex name(R"(part-\d+-of-\d+\.features\.csv)");
    std::vector<fs::path> files;
    if (fs::exists(out / "features.csv"))
        files.push_back(out / "features.csv");
    const auto parts = part_files(out, name);
    files.insert(files.end(), parts.begin(), parts.end());
    TableFeatures merged;
    for (const auto& file : files) {
        const TableFeatures found = load_table_features(file, j.decisions, j.blocks);
        for (const auto& [key, f] : found.nodes()) {
            try {
                merged.add(key.first, key.second, f);
            } catch (const Error& e) {
                throw Error(
                    fmt::format("{}: {} (another part recorded it otherwise)", file.string(), e.what()));
            }
        }
    }
    if (!files.empty())
        save_table_features(out / "features.csv", merged);
    return merged;
}

SimulationTable merge_rows(const TableShape& j, const fs::path& out)
{
    SimulationTable merged(j.decisions, j.num_actions);
    std::vector<fs::path> files;
    if (fs::exists(out / "table.csv"))
        files.push_back(out / "table.csv");
    static const std::regex name(R"(part-\d+-of-\d+\.csv)");
    const auto parts = part_files(out, name);
    files.insert(files.end(), parts.begin(), parts.end());
    std::map<std::int64_t, std::pair<TableRow, fs::path>> rows;
    for (const auto& file : files) {
        for (auto& row : read_table_file(file, j.decisions, /*growing=*/true).rows) {
            const auto code = sequence_code(row.actions, j.num_actions);
            if (code < 0)
                throw Error(fmt::format("{}: row [{}]: an action outside 0..{}", file.string(),
                                        fmt::join(row.actions, " "), j.num_actions - 1));
            const auto [it, fresh] = rows.try_emplace(code, row, file);
            if (!fresh && !(it->second.first == row))
                throw Error(
                    fmt::format("{}: row [{}] differs from the same sequence in {} (accuracy {} vs {}); "
                                "they were trained with other settings",
                                file.string(), fmt::join(row.actions, " "), it->second.second.string(),
                                row.accuracy, it->second.first.accuracy));
        }
    }
    for (auto& [code, entry] : rows)
        merged.add(std::move(entry.first));
    if (!files.empty())
        merged.save((out / "table.csv").string());
    return merged;
}

namespace {

// Whether out/table.csv is a complete table, as its table.json counts rows; unreadable is not.
bool holds_complete_table(const fs::path& out)
{
    std::error_code ec;
    if (!fs::is_regular_file(out / "table.csv", ec) || !fs::is_regular_file(out / "table.json", ec))
        return false;
    try {
        return table_status(out).complete();
    } catch (const Error&) {
        return false;
    }
}

} // namespace

void start_table_meta(const fs::path& out, const TableMeta& meta)
{
    if (!holds_complete_table(out))
        save_table_meta(out / "table.json", meta);
}

SimulationTable collect_seeds(const fs::path& out, const config::ExperimentConfig& c)
{
    return collect_seeds(out, c, table_seeds(c), 0);
}

SimulationTable collect_seeds(const fs::path& out, const config::ExperimentConfig& c,
                              const std::vector<std::uint64_t>& seeds, std::size_t required)
{
    const TableShape shape = table_shape(c);
    std::vector<SimulationTable> tables;
    TableFeatures features; // every seed's
    for (const auto seed : seeds) {
        const fs::path folder = seed_folder(out, seed);
        tables.push_back(fs::exists(folder / "config.toml")
                             ? merge_rows(shape, folder)
                             : SimulationTable(shape.decisions, shape.num_actions));
        if (fs::exists(folder / "config.toml")) {
            const TableFeatures seed_features = merge_features(shape, folder);
            for (const auto& [key, f] : seed_features.nodes())
                features.add(key.first, key.second, f);
        }
    }
    std::vector<const SimulationTable*> views;
    views.reserve(tables.size());
    for (const auto& t : tables)
        views.push_back(&t);
    SimulationTable merged = merge_seeds(seeds, views, required);
    if (!merged.complete() && holds_complete_table(out))
        return merged; // the complete table stays, whole, until this one is
    if (!features.empty())
        save_table_features(out / "features.csv", features);
    merged.save((out / "table.csv").string());
    if (fs::exists(out / "table.json")) {
        TableMeta meta = load_table_meta(out / "table.json");
        if (meta.seeds != seeds) {
            meta.seeds = seeds;
            save_table_meta(out / "table.json", meta);
        }
    }
    return merged;
}

SimulationTable collect_table(const fs::path& out, const config::ExperimentConfig& c)
{
    if (!table_seeds(c).empty())
        return collect_seeds(out, c);
    const TableShape shape = table_shape(c); // the shape without loading the data
    merge_features(shape, out);
    return merge_rows(shape, out);
}

} // namespace rlda::core::sim
