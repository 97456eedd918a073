// A table folder's rows gathered: table.csv, the part files a sweep left, and a replicated table's
// seeds' folders, merged into one table (and their decision features into features.csv). No
// LibTorch: nothing here trains.
#pragma once

#include "core/config/experiment.h"
#include "core/table/table.h"
#include "core/table/table_features.h"
#include "core/table/table_folder.h"
#include "core/table/table_meta.h"

#include <filesystem>

namespace rlda::core::sim {

// Every whole row of out/table.csv and out/parts/part-*-of-*.csv (torn last lines ignored), checked
// to agree (a sequence found twice must agree bit for bit, else Error naming both files), as one
// table; table.csv is rewritten sorted when there was anything to read, so that appending
// continues a clean file.
SimulationTable merge_rows(const TableShape& shape, const std::filesystem::path& out);
// The same for the decision features of out/features.csv and the parts' features files (a node
// two files recorded must agree); features.csv is rewritten sorted when there was anything to read.
TableFeatures merge_features(const TableShape& shape, const std::filesystem::path& out);
// table.json of a replicated build as it starts, unless `out` holds a complete table: that table
// (table.csv, features.csv, table.json) stays readable as it is until collect_seeds replaces it
// with a complete larger one (a build that extends it with more seeds), so a build stopped on the
// way leaves it byte for byte.
void start_table_meta(const std::filesystem::path& out, const TableMeta& meta);
// A replicated folder's table.csv from its seeds' folders (each merged first), of the sequences
// every seed holds, features.csv of every seed's features, and table.json's seeds: all three
// written when the table is complete or the folder holds no complete table (start_table_meta).
SimulationTable collect_seeds(const std::filesystem::path& out, const config::ExperimentConfig& c);
// The same of the folders of `seeds`, the rows that the first `required` of them all hold (0:
// every one; merge_seeds): a race's table (core/sim/race.h).
SimulationTable collect_seeds(const std::filesystem::path& out, const config::ExperimentConfig& c,
                              const std::vector<std::uint64_t>& seeds, std::size_t required);

// Merges the whole rows of table.csv and every parts/part-*-of-*.csv (torn last lines ignored) and
// rewrites table.csv atomically, sorted. A replicated table: each seed's folder so, then the
// replicated table.csv of the sequences every seed holds. A sequence found twice must agree bit for bit, else
// Error naming both files. Part files are kept (a part still running may go on appending).
SimulationTable collect_table(const std::filesystem::path& out, const config::ExperimentConfig& c);

} // namespace rlda::core::sim
