// Building a simulation table: train once up to the first allocation event, then train every action
// sequence from that warm-start checkpoint to the end of the budget (the original's SimulationAgent).
#pragma once

#include "core/config/experiment.h"
#include "core/sim/table.h"
#include "core/util/output_folder.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>
#include <vector>

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
// `out` ends up holding config.toml, table.json (what the table was built from: table_meta.h),
// warm_start.pt and table.csv. Rows are appended to table.csv
// as they finish (flushed), so a killed build leaves a table that loads; calling again on the same
// folder with the same job, dataset, scheduler and trainer settings keeps those rows (and the
// checkpoint) and trains only the missing ones. A folder built with other settings, or one that is
// not a table folder, is an Error unless `force` and rlda made it (core/util/output_folder.h), which
// empties it first. At the end table.csv is rewritten sorted.
//
// `stop` is checked between batches and rows; a stopped build returns the rows done so far
// (complete() is false). `observer` sees the warm-start run (which ends cancelled, at the first
// allocation event) and every branch run. Throws Error for a config without an "up" event
// (scheduler.events), k < 1, or any training or file error.
//
// Rows that a sweep left in out/parts/ (see build_part) count as kept. Training runs with
// sweep.threads_per_task LibTorch threads, as every sweep task does, so that the rows agree bit for
// bit however the table was built.
SimulationTable build_table(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                            const BuildProgressFn& progress = {}, std::stop_token stop = {},
                            train::TrainObserver* observer = nullptr);

// --- Sweeps: the rows split into parts that separate processes (or cluster jobs) train ----------
//
// A sweep folder holds config.toml, table.json, warm_start.pt, table.csv (the rows collected so far, sorted) and
// parts/part-<i>-of-<N>.csv: the rows part i of N trained, appended one whole line per row. Part i
// of N is every sequence whose code (its lexicographic index) is i modulo N: sequence_code and
// in_part in core/sim/sequences.h.

// k decisions over n+1 actions: (n+1)^k sequences.
struct TableShape {
    int decisions = 0;
    int num_actions = 0;
    std::int64_t sequences = 0;
};

// The shape of the table these settings build (the model at the dataset kind's sample shape; nothing
// is loaded).
// Throws Error as build_table does for settings that cannot build a table.
TableShape table_shape(const config::ExperimentConfig& c);

// The number of sequences in part `part` of `parts`.
std::int64_t part_size(std::int64_t sequences, int part, int parts);

// out/parts/part-<part>-of-<parts>.csv.
std::filesystem::path part_file(const std::filesystem::path& out, int part, int parts);

// Throws Error "--part I/N: reason" unless 0 <= part < parts.
void check_part(int part, int parts);

struct PreparedSweep {
    TableShape shape;
    std::int64_t done = 0; // rows already in table.csv once earlier parts were collected
    bool warm_start_reused = false;
    // The folder's lock (core/util/output_folder.h): keep it while the parts run and are collected,
    // so that no second sweep or build writes the folder meanwhile. The parts do not take it.
    FolderLock lock;
};

// Makes `out` ready for build_part: the folder checks and lock of build_table (same settings, or `force`),
// config.toml written, rows of an earlier sweep collected into table.csv, and warm_start.pt
// trained unless it exists or the table is complete. A stopped warm start leaves no checkpoint.
PreparedSweep prepare_sweep(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                            std::stop_token stop = {}, train::TrainObserver* observer = nullptr);

// Trains the rows of part `part` of `parts` that neither its part file nor table.csv holds, from
// out/warm_start.pt, appending each to the part file as one write. Takes the part's own lock
// (parts/part-I-of-N.lock), not the folder's, which the process that prepared the sweep holds: a
// second process training the same part is an Error naming the first. Never trains the warm start:
// a folder without config.toml or warm_start.pt, or one prepared with settings that change the
// numbers, is an Error. Progress counts this part's rows only (`total` = part_size). Returns the
// part's rows, kept ones included; fewer than part_size when stopped.
SimulationTable build_part(const config::ExperimentConfig& c, const std::filesystem::path& out, int part,
                           int parts, const BuildProgressFn& progress = {}, std::stop_token stop = {},
                           train::TrainObserver* observer = nullptr);

// Merges the whole rows of table.csv and every parts/part-*-of-*.csv (torn last lines ignored) and
// rewrites table.csv atomically, sorted. A sequence found twice must agree bit for bit, else Error
// naming both files. Part files are kept (a part still running may go on appending).
SimulationTable collect_table(const std::filesystem::path& out, const config::ExperimentConfig& c);

// The whole rows of a table or part file, read only (a writer may be appending): a torn last line
// is ignored; a missing file or one without a whole header has none. Error "file:line: reason"
// for a header of another k or a malformed whole line.
std::vector<TableRow> read_whole_rows(const std::filesystem::path& file, int decisions);

} // namespace rlda::core::sim
