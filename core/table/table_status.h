// What a folder holds, for listings and for whoever must tell a table folder from a training run: the
// one rule of what a table folder is, and the rows it holds against those it should, read without
// loading the table (a build may still be appending).
#pragma once

#include "core/table/table.h"
#include "core/table/table_meta.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace rlda::core::sim {

// A folder a table opens from (open_table, expand_tables): it holds table.csv, however it got there.
bool holds_table(const std::filesystem::path& folder);
// A table folder rlda built or is building: its metadata (table.json, written before the first row:
// a build, or a sweep whose rows are still in parts/, has it before table.csv), or table.csv beside
// the settings it was built with (config.toml: a folder from before tables described themselves).
// The one rule of the run reader and the workbench's Runs page.
bool is_table_folder(const std::filesystem::path& folder);

// Rows held and expected, and the best row so far, without loading the table into a
// SimulationTable (a build may still be appending): for listings of run folders.
struct TableStatus {
    std::int64_t rows = 0;
    std::int64_t expected = 0; // 0 when unknown (no metadata)
    std::optional<TableRow> best;
    std::optional<TableMeta> meta;
    // A replicated table's build: the rows its seeds' folders hold (their table.csv and parts), of
    // `expected` at each of meta->seeds; both 0 for a table of one seed.
    std::int64_t seed_rows = 0;
    std::int64_t seed_rows_expected = 0;
    // The process building the folder now (it holds the folder's lock), or 0.
    long builder = 0;
    // Why the folder's last build failed for good (build_failure), "" when it did not.
    std::string failure;
    bool complete() const { return expected > 0 && rows == expected; }
    bool building() const { return builder > 0; }
    bool failed() const { return !building() && !complete() && !failure.empty(); }
};
TableStatus table_status(const std::filesystem::path& folder_or_csv);

} // namespace rlda::core::sim
