// Building a simulation table: train once up to the first allocation event, then train every action
// sequence from that warm-start checkpoint to the end of the budget (the original's SimulationAgent).
#pragma once

#include "core/config/experiment.h"
#include "core/sim/table.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>

namespace rlda::core::train {
class TrainObserver;
}

namespace rlda::core::sim {

// Reported once when the warm start is ready (`row` empty) and after every row trained.
struct BuildProgress {
    int done = 0;       // rows in the table, those kept from an earlier build included
    int total = 0;      // (n+1)^k
    int computed = 0;   // rows trained by this call
    int to_compute = 0; // rows this call set out to train
    bool warm_start_reused = false;
    std::optional<TableRow> row; // the row just trained
    double elapsed = 0.0;        // wall seconds since build_table was called
    double eta = -1.0;           // wall seconds still needed (mean time per row so far); -1 = unknown
};

using BuildProgressFn = std::function<void(const BuildProgress&)>;

// Builds the table of every sequence of k = trainer.max_decisions decisions over the job model's
// n original blocks + Do Nothing, in lexicographic order. The config's [agent] is not used.
//
// `out` ends up holding config.toml, warm_start.pt and table.csv. Rows are appended to table.csv
// as they finish (flushed), so a killed build leaves a table that loads; calling again on the same
// folder with the same job, dataset, scheduler and trainer settings keeps those rows (and the
// checkpoint) and trains only the missing ones. A folder built with other settings, or one that is
// not a table folder, is an Error unless `force`, which empties it first. At the end table.csv is
// rewritten sorted.
//
// `stop` is checked between batches and rows; a stopped build returns the rows done so far
// (complete() is false). `observer` sees the warm-start run (which ends cancelled, at the first
// allocation event) and every branch run. Throws Error for a config without an "up" event
// (scheduler.events), k < 1, or any training or file error.
SimulationTable build_table(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                            const BuildProgressFn& progress = {}, std::stop_token stop = {},
                            train::TrainObserver* observer = nullptr);

} // namespace rlda::core::sim
