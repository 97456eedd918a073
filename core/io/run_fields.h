// What a runs list can show of a run as columns, by name: each key of its config.toml (the schema's
// name, "job.model", "scheduler.budget") and its results ("final_accuracy", "rank", ...). W&B and
// the NNI WebUI compare runs this way; the names are the schema's, so no key is spelled twice.
#pragma once

#include "core/config/experiment.h"
#include "core/io/run_reader.h"
#include "core/table/table_status.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::io {

struct ResultField {
    std::string id;    // "final_accuracy"; never a schema key's name (those hold a dot or are "name")
    std::string label; // "final accuracy"
};
// The result fields in the order a menu offers them.
const std::vector<ResultField>& result_fields();

struct RunField {
    std::string text;              // as shown: a string key unquoted, others as TOML writes them
    std::optional<double> number;  // set for numbers, which sort as numbers
};

struct RunFields {
    std::map<std::string, RunField> values; // by id; a field the run has no value for is absent
    std::optional<config::ExperimentConfig> config; // config.toml as read, for diff_configs
    std::string config_error; // config.toml present but refused by the reader: its one line
};

// Reads nothing from disk but what parse_experiment() checks beside the config text (whether a
// relative path names a file next to it), so call it where disk access is allowed. `table` is the
// folder's table status for a simulation-table folder: its best row gives final_accuracy.
RunFields run_fields(const RunData& run, const sim::TableStatus* table = nullptr);

} // namespace rlda::core::io
