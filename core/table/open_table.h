// Opening a simulation table as its consumers need it: the CSV, its metadata (core/table/table_meta.h)
// or what to assume without, its starting model and actions, its decision features, and the
// overrides a command line may still give, checked against the metadata.
#pragma once

#include "core/model/actions.h"
#include "core/model/spec.h"
#include "core/table/table.h"
#include "core/table/table_features.h"
#include "core/table/table_meta.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::sim {

// What a user may still say on a command line; each must agree with the table's metadata.
struct TableOverrides {
    std::string model;                 // a zoo name or TOML file; "" = the table's
    std::optional<model::Shape> input; // nullopt = the table's
    std::optional<std::int64_t> classes;
    std::string what = "--model"; // how messages name the model override
    // true: the model, input and classes are what to assume for a table without metadata, and are
    // ignored for one that has it (the workbench's experiment defaults), instead of overrides.
    bool only_without_metadata = false;
};

struct OpenedTable {
    std::filesystem::path file; // the CSV
    TableMeta meta;             // read, or assumed from the overrides (described == false)
    bool described = false;     // false: no metadata found; model and input were assumed
    SimulationTable table{1, 2};
    model::ModelSpec model;        // the table's starting model
    model::ActionSpace actions{1}; // what its action numbers mean (table_actions)
    TableFeatures features;        // its decision features (features.csv); empty when it has none
    // The rows a complete table has, against those it holds.
    bool complete() const { return table.complete(); }
    // "T: no metadata (T.json): assuming model M, input CxHxW, N classes" when `described` is
    // false, "" otherwise: the one warning every consumer shows.
    std::string assumption() const;
};

// A folder means its table.csv; a file is itself.
std::filesystem::path table_file(const std::filesystem::path& folder_or_csv);

// Opens a table with its metadata and its model. Without metadata the overrides (or ConvNet2,
// model::kCifar10Input and kCifar10Classes) are assumed and `described` is false. Errors, each one line:
// - an override that does not match the metadata, naming both ("--model ConvNet3 does not match
//   table T, which was built from ConvNet2");
// - unless `allow_incomplete`, a table with fewer rows than it should have: "table T is
//   incomplete: N of M rows; run rlda simulate … again to finish it".
OpenedTable open_table(const std::filesystem::path& folder_or_csv, const TableOverrides& overrides = {},
                       bool allow_incomplete = false);

// The table files a user names: a table file or table folder is itself; an index (index.csv, or a
// folder holding one) is every table it lists, in its order. Duplicates are dropped (the first
// place wins). Error naming the argument for something that is none of these.
std::vector<std::filesystem::path> expand_tables(const std::vector<std::string>& args);

} // namespace rlda::core::sim
