// A table folder's layout and the settings that make its numbers, shared by the builders
// (core/sim/build.h), the sweeps that run parts of them (core/sweep/) and every reader of a folder.
// No LibTorch: nothing here trains.
//
// A table folder holds config.toml (the settings, after defaults), table.json (core/table/table_meta.h),
// warm_start.pt, table.csv (the rows collected so far, sorted) and, where a build recorded them,
// features.csv; a replicated table, each seed's own folder in seeds/seed-<S>/. A sweep splits the
// rows into parts that separate processes (or cluster jobs) train: parts/part-<i>-of-<N>.csv, the
// rows part i of N trained, appended one whole line per row. Part i of N is whole subtrees, groups
// of sequences that share their first decisions, dealt round the parts (in_part in
// core/table/sequences.h), so that each part is built as a tree too.

#pragma once

#include "core/config/experiment.h"
#include "core/util/output_folder.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace rlda::core::sim {

// Error for settings that cannot build a table (no decision, no "up" event, fused replicates of
// settings not built as a tree), before anything is loaded.
void check_table_settings(const config::ExperimentConfig& c);

// Whether settings can be built as a tree (sim::BuildOrder::Tree, core/sim/build.h): the virtual
// clock and one allocation event, an "up".
bool tree_buildable(const config::ExperimentConfig& c);

// Whether a replicated table of these settings trains its seeds fused (sweep.fused): two or more
// seeds, settings built as a tree, and sweep.fused "on", or "auto" with job.device naming a GPU.
// Then the R seeds of each sequence are one model (core/net/fused.h) and one optimizer step trains
// all R; each seed's rows equal its separate build's to float rounding, not bit for bit, so the
// choice is part of the settings a table folder keeps. sweep.fused "on" for settings that are not
// built as a tree is an Error when the build starts.
bool fuses_replicates(const config::ExperimentConfig& c);

// The sections whose settings change a table's numbers and differ between the two ("job",
// "dataset", "scheduler", "trainer", "sweep.threads_per_task", "sweep.fused"); [agent], [policy],
// [runner] and the name do not count. Model files are compared by their absolute paths.
std::vector<std::string> differing_sections(const config::ExperimentConfig& first,
                                            const config::ExperimentConfig& second);

// Creates `out`, or checks that it holds a build of the same settings (an Error naming the
// sections that differ, unless `force`, which replaces a folder rlda made: core/util/output_folder.h),
// and writes config.toml (again when the seeds grew). Returns the folder's lock, which a build holds
// to its end.
FolderLock prepare_table_folder(const config::ExperimentConfig& c, const std::filesystem::path& out,
                                bool force);

// k decisions over n+1 actions: (n+1)^k sequences.
struct TableShape {
    int decisions = 0;
    int num_actions = 0;
    std::int64_t sequences = 0;         // of one seed's table
    std::vector<std::uint64_t> seeds{}; // a replicated table's seeds; empty for one seed
    int blocks = 0;                     // the model's original blocks (the features' block columns)
    // Rows a sweep trains: the sequences at every seed.
    std::int64_t rows() const
    {
        return sequences * static_cast<std::int64_t>(std::max<std::size_t>(1, seeds.size()));
    }
};

// The shape of the table these settings build (the model at the dataset kind's sample shape; nothing
// is loaded).
// Throws Error as build_table does for settings that cannot build a table.
TableShape table_shape(const config::ExperimentConfig& c);

// The number of sequences in part `part` of `parts` of a table of `decisions` over `num_actions`.
std::int64_t part_size(int decisions, int num_actions, int part, int parts);
std::int64_t part_size(const TableShape& shape, int part, int parts); // of one seed

// out/parts/part-<part>-of-<parts>.csv.
std::filesystem::path part_file(const std::filesystem::path& out, int part, int parts);
// out/parts/part-<part>-of-<parts>.features.csv: the decision features that part recorded.
std::filesystem::path part_features_file(const std::filesystem::path& out, int part, int parts);

// A build that failed for good (a part failed after its retries, the other parts' rows collected)
// says so in out/build-failed.txt, one line: which part, how often, why, and its log. A build of the
// folder removes it when it starts; the Runs page shows the folder as failed while it is there.
std::filesystem::path build_failure_file(const std::filesystem::path& out);
void record_build_failure(const std::filesystem::path& out, const std::string& message);
void clear_build_failure(const std::filesystem::path& out);
// The recorded line, "" when there is none (or it cannot be read: a status never throws for it).
std::string build_failure(const std::filesystem::path& out);

// Throws Error "--part I/N: reason" unless 0 <= part < parts.
void check_part(int part, int parts);

// The folder of one seed of a replicated table: out/seeds/seed-<S>.
std::filesystem::path seed_folder(const std::filesystem::path& out, std::uint64_t seed);
// `c` for one seed of its replicated table: job.seed = `seed`, no sweep.seeds.
config::ExperimentConfig config_for_seed(const config::ExperimentConfig& c, std::uint64_t seed);
// The seeds of a replicated table these settings build; empty for a single-seed table (sweep.seeds
// empty, or one seed, which is then the job's).
std::vector<std::uint64_t> table_seeds(const config::ExperimentConfig& c);

} // namespace rlda::core::sim
