// Building a simulation table: train once up to the first allocation event, then train every action
// sequence from that warm-start checkpoint to the end of the budget (the original's SimulationAgent).
#pragma once

#include "core/config/experiment.h"
#include "core/table/merge.h"
#include "core/table/table.h"
#include "core/table/table_folder.h"
#include "core/util/output_folder.h"

#include <algorithm>
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
    // What this call trained after the warm start (what the build cost): epochs completed, training
    // steps, and test evaluations computed.
    std::int64_t epochs = 0, steps = 0, evaluations = 0;
    int total = 0;      // (n+1)^k
    int computed = 0;   // rows trained by this call
    int to_compute = 0; // rows this call set out to train
    bool warm_start_reused = false;
    std::optional<TableRow> row; // the row just trained
    double elapsed = 0.0;        // wall seconds since build_table was called
    double eta = -1.0;           // wall seconds still needed (mean time per row so far); -1 = unknown
};

using BuildProgressFn = std::function<void(const BuildProgress&)>;

// How a table's rows are trained from the warm start.
// - Tree: depth first over the decisions, each prefix trained once: the state at each decision is
//   held in memory (train::TrainerState) and every action tried from it, so sequences that share
//   their first j actions share the training up to decision j + 1. Rows are the same bytes as
//   PerSequence's. Used for settings with the virtual clock and one allocation event (the "up" of
//   the decisions); other settings are built per sequence.
// - PerSequence: every sequence from the warm start to the end of the budget, as the original did.
enum class BuildOrder { Tree, PerSequence };
// Builds the table of every sequence of k = trainer.max_decisions decisions over the job model's
// n original blocks + Do Nothing, in lexicographic order. The config's [agent] is not used.
//
// Decision features: every decision node the build trains through gets its features
// (core/train/probe.h) recorded once, appended to out/features.csv (core/table/table_features.h) as
// the rows are to table.csv, under the job's seed; a resumed build keeps those written and adds
// only nodes not yet there; a sweep's part appends to its own part_features_file and collecting
// merges them (a node two parts recorded must agree); a replicated table keeps each seed's in its
// seed folder and out/features.csv holds every seed's. Fused replicated builds record none.
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
//
// Replicated tables: with two or more sweep.seeds the table is built at each seed (job.seed
// replaced) in a folder of its own, out/seeds/seed-<S>/, exactly as the single-seed table of that
// seed would be (its rows bit for bit the same), and out/table.csv collects them: one row per
// sequence that every seed holds, with an accuracy_seed<S> column per seed and their mean as the
// accuracy (table.h); table.json lists the seeds. Resuming, --force and adding seeds work as for
// one table; progress counts the rows of every seed. With fuses_replicates(c) the seeds' warm starts
// are trained one by one, then their rows all at once, fused.
SimulationTable build_table(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                            const BuildProgressFn& progress = {}, const std::stop_token& stop = {},
                            train::TrainObserver* observer = nullptr, BuildOrder order = BuildOrder::Tree);

// A single-seed table's folder (settings with no sweep.seeds: config_for_seed) of the sequences
// `codes` alone, as build_table builds them (a tree, resumable, the same bytes for each row): a
// race's round (core/sim/race.h). Rows already there, of other sequences too, are kept. Error for
// a code outside the table or replicated settings.
SimulationTable build_sequences(const config::ExperimentConfig& c, const std::filesystem::path& out,
                                const std::vector<std::int64_t>& codes, const BuildProgressFn& progress = {},
                                const std::stop_token& stop = {}, train::TrainObserver* observer = nullptr);

// --- Sweeps: a table's parts trained by separate processes (folder layout: core/table/table_folder.h)

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
                            const std::stop_token& stop = {}, train::TrainObserver* observer = nullptr);

// Trains the rows of part `part` of `parts` that neither its part file nor table.csv holds, from
// out/warm_start.pt, appending each to the part file as one write. Takes the part's own lock
// (parts/part-I-of-N.lock), not the folder's, which the process that prepared the sweep holds: a
// second process training the same part is an Error naming the first. Never trains the warm start:
// a folder without config.toml or warm_start.pt, or one prepared with settings that change the
// numbers, is an Error. Progress counts this part's rows only (`total` = part_size). Returns the
// part's rows, kept ones included; fewer than part_size when stopped.
SimulationTable build_part(const config::ExperimentConfig& c, const std::filesystem::path& out, int part,
                           int parts, const BuildProgressFn& progress = {}, const std::stop_token& stop = {},
                           train::TrainObserver* observer = nullptr);

// A replicated table's part: part `part` of `parts` of every seed's table (build_part in each seed's
// folder, in the order of the seeds). Progress counts the rows of the part at every seed. Returns
// the rows of the part now on disk, over all seeds.
std::int64_t build_replicated_part(const config::ExperimentConfig& c, const std::filesystem::path& out, int part,
                                   int parts, const BuildProgressFn& progress = {}, const std::stop_token& stop = {},
                                   train::TrainObserver* observer = nullptr);

} // namespace rlda::core::sim
