// A sweep run by a detached rlda (`rlda simulate`, or `rlda sweep wait` for Slurm) that outlives
// whoever started it: the marker beside its folder by which it is found again, and what its
// follower and its files say now. The workbench's Sweeps page calls these on its job pool.
#pragma once

#include "core/config/experiment.h"
#include "core/sweep/status.h"
#include "core/table/race.h"
#include "core/table/table_folder.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::sweep {

// The program that follows a detached sweep, as its process is named (process_alive).
inline constexpr std::string_view kFollowerProgram = "rlda";

// What the marker FOLDER.sweep.json records of a sweep.
struct SweepMarker {
    std::filesystem::path folder; // the sweep's output folder
    config::SweepBackend backend = config::SweepBackend::Local;
    int parts = 0;        // >= 1
    std::int64_t pid = 0; // the detached rlda that follows it; 0 when none
};

// The files beside FOLDER: its marker (FOLDER.sweep.json), the settings it was submitted with
// (FOLDER.toml) and its follower's output (FOLDER.log).
std::filesystem::path marker_file(const std::filesystem::path& folder);
std::filesystem::path settings_file(const std::filesystem::path& folder);
std::filesystem::path follower_log(const std::filesystem::path& folder);
// Whether FOLDER or any of the three files beside it exists: a new sweep must not write over them.
bool sweep_name_taken(const std::filesystem::path& folder);

// Writes marker_file(m.folder) atomically. Throws Error naming the file and the reason.
void write_marker(const SweepMarker& m);
// Reads a marker. Throws Error "FILE: not a sweep marker: KEY: reason" for a torn, empty or
// garbage file, a missing key or a bad value.
SweepMarker read_marker(const std::filesystem::path& file);

// A sweep to follow again: its marker and the settings beside its folder.
struct FoundSweep {
    SweepMarker marker;
    config::ExperimentConfig config; // from settings_file(folder)
    bool slurm_recorded = false;     // FOLDER/sweep.json exists: its Slurm jobs were submitted
};
// The newest marker (by modification time) directly under `root` whose table is not collected and
// whose marker and settings read; older ones and those that do not read are passed over. nullopt
// when there is none (or no `root`). Reads the disk: call it off the GUI thread.
std::optional<FoundSweep> find_unfinished(const std::filesystem::path& root);

// Whether FOLDER/table.csv is whole: every row its metadata (table.json) counts, else complete by
// the table's own rule, and for a race (FOLDER/race.csv) once its last round ended it. false while
// it is absent, partial, being rewritten or torn; never throws.
bool table_collected(const std::filesystem::path& folder);

// What a followed sweep's follower and files say now.
struct SweepReading {
    bool alive = false;      // its follower runs (process_alive)
    bool warm_start = false; // the warm start is trained (a replicated table: any seed's)
    SweepStatus status;      // its parts; collected also when table.csv is whole
    std::string error;       // one line when reading failed (status then holds what was read); "" when not
    std::optional<sim::TableShape> shape; // the shape used, to pass to the next reading
    std::vector<sim::RaceRound> race; // a race's rounds so far (race.csv); empty for a table of fixed seeds
};
// Reads a sweep: its part files, or for a submitted Slurm sweep SlurmSweep::poll (squeue, sacct,
// under the sweep's lock: it may resubmit and collect). A local sweep's pending parts are running
// while its follower lives (every part has its own process). `shape` is the one an earlier reading
// returned; without it, it comes from the table's metadata or from `config` (the model at the
// dataset's sample shape; no data is loaded).
// Never throws. Reads the disk and runs squeue: call it off the GUI thread.
SweepReading read_sweep(const SweepMarker& sweep, const config::ExperimentConfig& config,
                        std::optional<sim::TableShape> shape);

} // namespace rlda::core::sweep
