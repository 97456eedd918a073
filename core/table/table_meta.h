// Simulation tables that describe themselves: what a table was built from (its metadata file, X.json
// beside X.csv), read by every consumer (learn, evaluate, figures, the workbench) instead of being
// told again on each command line. Opening a table with it: core/table/open_table.h; what a folder
// holds: core/table/table_status.h.
#pragma once

#include "core/config/experiment.h"
#include "core/model/actions.h"
#include "core/model/spec.h"
#include "core/table/table.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::sim {

// The metadata file `X.json` beside a table `X.csv` (so `table.json` in a table folder). JSON:
//   {"format": "rlda-table", "version": 1, "rows": 64, "decisions": 3, "actions": 4,
//    "model": {"name": "ConvNet2", "head": "relu", "toml": null}, "input": [1, 28, 28], "classes": 10,
//    "dataset": {"kind", "normalization", "train_subset", "test_subset", "random_subset",
//                "test_unused_train" (only where true)},
//    "scenario": {"name", "first_up", "start_time", "events": [{"time", "change"}]},
//    "budget": 60, "clock": {"kind", "step_cost", "eval_cost"}, "seed": 42,
//    "operations": ["deepen", "widen"], "widen_factor": 2.0, "seeds": [42, 43, 44]}
// `operations` and `widen_factor` are written only for tables of more operations than deepening,
// and read as ["deepen"] and 2.0 when absent, so that every table made before widening reads as it
// was; `seeds` only for a replicated table (one accuracy_seed<S> column each, table.h).
// `model.toml` embeds a TOML model's text, so the table stays usable when that file moves.
// Readers refuse a newer version; unknown keys are ignored (additions keep the version).
struct TableMeta {
    static constexpr int kVersion = 1;
    std::string model;         // a zoo name, or a TOML model's name
    std::string model_toml;    // a TOML model's text; empty for a zoo model
    std::string head = "relu"; // the output head the model was built with
    model::Shape input = model::kCifar10Input;
    std::int64_t classes = model::kCifar10Classes;
    // Where the samples came from: kind, normalization and subsets (the path is not kept).
    config::DatasetConfig dataset;
    std::string scenario;              // a name for the allocation scenario: "early", or the experiment's
    config::SchedulerConfig scheduler; // budget, start time, allocation events, clock
    int decisions = 0;
    int actions = 0;        // per decision, Do Nothing included
    std::vector<std::string> operations{"deepen"}; // [trainer] operations the actions number
    double widen_factor = 2.0;
    std::uint64_t seed = 0; // the job's seed
    // A replicated table's seeds, in its columns' order (the first is `seed`); empty for a table of
    // one seed. Written only when not empty, so single-seed tables read and write as before.
    std::vector<std::uint64_t> seeds;
    std::int64_t rows = 0;  // a complete table's: actions^decisions
    std::string source;     // where this was read from, for messages ("" when made here)

    // When the allocation first goes up; -1 without an "up" event.
    double first_up() const;
    // `head` as the model builder takes it (relu for a name this build does not know).
    model::OutputHead output_head() const;
    bool operator==(const TableMeta&) const = default;
};

// The metadata of a table about to be built from `c`, for the model `spec` it starts from.
TableMeta table_meta(const config::ExperimentConfig& c, const model::ModelSpec& spec, int decisions);

std::string table_meta_json(const TableMeta& meta);
// Error "source: key: reason" for anything missing, of the wrong type or out of range.
TableMeta parse_table_meta(const std::string& text, const std::string& source);
// Written atomically: a reader sees the old file or the new one.
void save_table_meta(const std::filesystem::path& file, const TableMeta& meta);
// At most 16 MiB is read; Error naming the file otherwise.
TableMeta load_table_meta(const std::filesystem::path& file);

// X.csv -> X.json.
std::filesystem::path meta_file_for(const std::filesystem::path& table_csv);

// A paper table's metadata from its line in an index (index.csv: file, model, scenario,
// adaptation_start_s, budget_s, sequences): CIFAR-10 (model::kCifar10Input), the wall clock.
TableMeta meta_from_index(const TableIndexEntry& entry, const std::string& source);

// The starting model the metadata names, for its input shape and classes.
model::ModelSpec table_model(const TableMeta& meta);
// The actions a table's rows number: its operations on the model's original blocks.
model::ActionSpace table_actions(const TableMeta& meta, const model::ModelSpec& model);

// The table's metadata: X.json beside it, else its line in an index.csv of its folder, else (a
// table folder written before tables described themselves) its folder's config.toml. nullopt when
// none of those says anything about it; Error when one of them is there but broken.
std::optional<TableMeta> find_table_meta(const std::filesystem::path& table_csv);

} // namespace rlda::core::sim
