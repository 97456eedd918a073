// Reading a run folder back, read-only and forgiving: a run killed mid-write (a partial last CSV
// line or JSON line) opens with everything up to its last whole record. No LibTorch.
#pragma once

#include "core/job/events.h"
#include "core/model/spec.h"
#include "core/table/results.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::io {

struct SeriesPoint {
    double step = 0.0; // the epoch (or episode) of the row
    double time = 0.0; // scheduler time (training) or wall seconds (learning)
    double value = 0.0;
};

enum class RunKind { Training, Learning, Simulation, Unknown };
std::string to_string(RunKind kind); // "training", "learning", "simulation", "unknown"

struct RunData {
    std::filesystem::path path;
    RunKind kind = RunKind::Unknown;
    std::string name;        // the folder's name
    std::string config_text; // config.toml as written, empty when absent
    // metrics/<name>.csv files with the columns epoch,time,value, by series name
    // (train_loss, train_acc, test_acc, lr, params, ...).
    std::map<std::string, std::vector<SeriesPoint>> series;
    std::vector<sim::EpisodeRecord> episodes;        // metrics/episodes.csv (learning runs)
    std::vector<double> episode_times;               // its time column (wall seconds), one per episode
    std::vector<train::AdaptationEvent> adaptations; // events.jsonl, in order
    std::vector<train::AllocationRecord> allocations;
    std::vector<std::string> messages;
    // The "final" event: the evaluation when the budget ran out (train_loss/train_acc/lr unset).
    std::optional<train::EpochMetrics> final_metrics;
    std::optional<train::RunResult> finished; // absent: killed, cancelled hard, or still running
    // events.jsonl lines of a learning run's own types (io::learning_event: its settings, stages,
    // greedy checkpoints, evaluation), verbatim, in order. A line of a type no rlda run writes is
    // a `problems` entry instead.
    std::vector<std::string> other_events;
    std::optional<model::ModelSummary> final_model; // architecture.json when present
    // "file:line: reason" for the records that were skipped (a truncated last line, a corrupt row):
    // the first kMaxListedProblems, then one line counting the rest, problems_not_listed.
    std::vector<std::string> problems;
    std::int64_t problems_not_listed = 0;
    bool truncated = false; // some file ended in a partial line: the run was killed mid-write
};

// The run's final test accuracy: the "finished" event, else the "final" one, else the last
// metrics/test_acc.csv row (a cancelled run whose final test was stopped: its last test's);
// nullopt when there is none.
std::optional<double> final_accuracy(const RunData& run);

// The most read of one file of a run folder (metrics/*.csv, events.jsonl): beyond it, whole lines of
// the first kMaxRunFileBytes are read and a `problems` entry says so.
inline constexpr std::uint64_t kMaxRunFileBytes = std::uint64_t{128} << 20;
// The problems read_run lists one by one; the rest are counted.
inline constexpr std::size_t kMaxListedProblems = 100;
// More fields than a line of a run's CSV files ever has (metrics/episodes.csv has 9): such a line
// is reported, not split.
inline constexpr std::size_t kMaxRunColumns = 256;

// Throws Error "DIR: not a run folder (...)" when `dir` has none of config.toml, metrics/,
// events.jsonl and table.csv with table.json (or is no folder at all); never writes into `dir`. Anything else that is
// unreadable becomes a `problems` entry, never an exception.
RunData read_run(const std::filesystem::path& dir);

// A learning run's "settings" event (core/run/learn_run.cpp writes it), decoded here once for every
// reader (run_fields' model column, the Runs page's "continued a policy", rlda figures' tables).
struct LearnSettings {
    std::string model; // the starting model's name; "" when not recorded
    std::string from;  // the policy file it continued; "" for a new policy
    // The tables it learned from, in stage order, each once: the paths `rlda learn` was given (a
    // file or a table folder; a relative one is relative to where it ran).
    std::vector<std::string> tables;
};
// The last such event of `run` (a resumed run writes another); nullopt for another run, or a
// learning run without one. Fields of the wrong type are left empty.
std::optional<LearnSettings> learn_settings(const RunData& run);

// Whether the learning run whose folder holds `policy` learned from `table` (a table file or folder):
// its settings name that table, compared as files. False for a policy outside a learning run's
// folder. What makes a rank on `table` in-sample, said wherever one is shown.
bool learned_on(const std::filesystem::path& policy, const std::filesystem::path& table);

// Run folders under `root` (root itself included), up to `depth` levels down, sorted by path.
std::vector<std::filesystem::path> find_runs(const std::filesystem::path& root, int depth = 2);

} // namespace rlda::core::io
