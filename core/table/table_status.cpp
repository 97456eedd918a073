// What a folder holds: a table folder or not, and a table's rows against those it should have.
#include "core/table/table_status.h"

#include "core/table/open_table.h"
#include "core/table/table_folder.h"
#include "core/util/output_folder.h"

#include <map>
#include <vector>

namespace rlda::core::sim {

namespace fs = std::filesystem;

bool holds_table(const fs::path& folder)
{
    std::error_code ec;
    return fs::is_regular_file(folder / "table.csv", ec);
}

bool is_table_folder(const fs::path& folder)
{
    std::error_code ec;
    return fs::is_regular_file(folder / "table.json", ec) ||
           (holds_table(folder) && fs::is_regular_file(folder / "config.toml", ec));
}

namespace {

// The whole rows of `csv` and, for a sweep still running, of its folder's part files, by sequence;
// none when neither exists.
std::map<std::vector<int>, TableRow> held_rows(const fs::path& csv, int decisions)
{
    std::map<std::vector<int>, TableRow> rows;
    std::vector<fs::path> files{csv};
    std::error_code ec;
    if (fs::is_directory(csv.parent_path() / "parts", ec))
        for (const auto& entry : fs::directory_iterator(csv.parent_path() / "parts", ec))
            if (entry.path().extension() == ".csv" &&
                !entry.path().filename().string().ends_with(".features.csv"))
                files.push_back(entry.path()); // a part's rows, not its decision features
    for (const auto& f : files)
        for (auto& row : read_table_file(f, decisions, /*growing=*/true).rows)
            rows.try_emplace(row.actions, row);
    return rows;
}

} // namespace

TableStatus table_status(const fs::path& folder_or_csv)
{
    TableStatus s;
    const fs::path csv = table_file(folder_or_csv);
    s.meta = find_table_meta(csv);
    int decisions = s.meta ? s.meta->decisions : 0;
    if (!s.meta) {
        const auto header = read_table_header(csv);
        decisions = header_decisions(header);
        if (decisions < 1)
            return s;
    } else {
        s.expected = s.meta->rows;
    }
    const std::map<std::vector<int>, TableRow> rows = held_rows(csv, decisions);
    s.rows = static_cast<std::int64_t>(rows.size());
    for (const auto& [actions, row] : rows)
        if (!s.best || row.accuracy > s.best->accuracy)
            s.best = row;
    const fs::path folder = csv.parent_path();
    if (s.meta && s.meta->seeds.size() > 1 && s.expected > 0) {
        s.seed_rows_expected = s.expected * static_cast<std::int64_t>(s.meta->seeds.size());
        for (const auto seed : s.meta->seeds)
            s.seed_rows += static_cast<std::int64_t>(
                held_rows(seed_folder(folder, seed) / "table.csv", decisions).size());
    }
    s.builder = folder_writer(folder);
    s.failure = build_failure(folder);
    return s;
}

} // namespace rlda::core::sim
