// A table folder's layout and settings: its parts, its seeds' folders, the settings that change its
// numbers, and the folder made ready for a build.
#include "core/table/table_folder.h"

#include "core/config/dataset_shape.h"
#include "core/config/experiment_io.h"
#include "core/config/operations.h"
#include "core/model/zoo.h"
#include "core/table/sequences.h"
#include "core/table/table.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/output_folder.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace rlda::core::sim {

namespace fs = std::filesystem;

void check_table_settings(const config::ExperimentConfig& c)
{
    if (c.trainer.max_decisions < 1)
        throw Error(
            fmt::format("trainer.max_decisions: a simulation table needs at least one decision, not {}",
                        c.trainer.max_decisions));
    const bool has_up =
        std::ranges::any_of(c.scheduler.events, [](const auto& e) { return e.change == config::Change::Up; });
    if (!has_up)
        throw Error("scheduler.events: a simulation table starts where the allocation goes up, but no \"up\" "
                    "event is configured (add e.g. { time = 70.0, change = \"up\" })");
    if (c.sweep.fused == config::FusedReplicates::On && c.sweep.seeds.size() > 1 && !tree_buildable(c))
        throw Error(
            "sweep.fused: fused replicates train a table as a tree, which needs the virtual clock and "
            "one \"up\" event (scheduler.clock, scheduler.events); set sweep.fused = \"off\"");
}

bool tree_buildable(const config::ExperimentConfig& c)
{
    return c.scheduler.clock == config::ClockKind::Virtual && c.scheduler.events.size() == 1 &&
           c.scheduler.events.front().change == config::Change::Up;
}

bool fuses_replicates(const config::ExperimentConfig& c)
{
    if (table_seeds(c).empty() || !tree_buildable(c))
        return false;
    switch (c.sweep.fused) {
    case config::FusedReplicates::On:
        return true;
    case config::FusedReplicates::Off:
        return false;
    case config::FusedReplicates::Auto:
        break;
    }
    return c.job.device.starts_with("cuda"); // on the CPU a fused grouped convolution is slower
}

std::vector<std::string> differing_sections(const config::ExperimentConfig& first,
                                            const config::ExperimentConfig& second)
{
    // The same model file named from two folders is the same setting.
    const auto a = config::with_absolute_paths(first);
    const auto b = config::with_absolute_paths(second);
    std::vector<std::string> out;
    if (a.job != b.job)
        out.emplace_back("job");
    if (a.dataset != b.dataset)
        out.emplace_back("dataset");
    if (a.scheduler != b.scheduler)
        out.emplace_back("scheduler");
    if (a.trainer != b.trainer)
        out.emplace_back("trainer");
    // Float reductions split over threads may round differently.
    if (a.sweep.threads_per_task != b.sweep.threads_per_task)
        out.emplace_back("sweep.threads_per_task");
    if (fuses_replicates(a) != fuses_replicates(b))
        out.emplace_back("sweep.fused");
    return out;
}

FolderLock prepare_table_folder(const config::ExperimentConfig& c, const fs::path& out, bool force)
{
    std::error_code ec;
    const fs::path saved = out / "config.toml";
    FolderLock lock;
    if (!force && fs::is_directory(out, ec) && made_by_rlda(out) && fs::exists(saved, ec)) {
        // A build of rlda's own to go on with, once no other process builds it.
        lock = lock_output_folder(out);
        const auto before = config::load_experiment(saved.string());
        const auto differ = differing_sections(before, c);
        if (!differ.empty())
            throw Error(fmt::format("{}: the table there was built with other [{}] settings; pass --force "
                                    "to start over or choose another --out",
                                    saved.string(), fmt::join(differ, "], [")));
        // Its seeds may grow (more seeds after those it has), never change: refused before a byte
        // of the folder is written.
        const auto& had = before.sweep.seeds;
        const auto& now = c.sweep.seeds;
        const bool grows = had.empty()
                               ? now.empty()
                               : now.size() >= had.size() && std::equal(had.begin(), had.end(), now.begin());
        if (!grows)
            throw Error(fmt::format(
                "{}: the table there was built {}; {} to go on, or pass --force to start over",
                saved.string(),
                had.empty() ? fmt::format("unreplicated, at job.seed {}", before.job.seed)
                            : fmt::format("at seeds {}", fmt::join(had, ", ")),
                had.empty()
                    ? std::string("give no --seeds or --replicates")
                    : fmt::format("give --seeds {} (more seeds may follow them)", fmt::join(had, " "))));
    } else {
        // A new folder, or one replaced: --force replaces only a folder rlda made.
        const auto inputs = config::input_paths(c);
        lock = prepare_output_folder(out, force, InputPaths(inputs.begin(), inputs.end()));
    }
    // Written when new, and again when the seeds grew (a resumed replicated build with more seeds):
    // the parts read the seeds from it.
    if (!fs::exists(saved) || config::load_experiment(saved.string()).sweep.seeds != c.sweep.seeds)
        write_text_atomically(out / "config.toml", config::to_toml_at(c, out / "config.toml"));
    return lock;
}

TableShape table_shape(const config::ExperimentConfig& c)
{
    // The model at the dataset's sample shape, known without loading the data.
    check_table_settings(c);
    const auto sample = config::sample_shape(c.dataset);
    const auto spec = model::load_model(c.job.model, sample.input, sample.classes, c.job.head);
    const int actions = config::trainer_actions(c.trainer, spec).size();
    return {c.trainer.max_decisions, actions, SimulationTable(c.trainer.max_decisions, actions).sequences(),
            table_seeds(c), model::original_block_count(spec)};
}

std::int64_t part_size(int decisions, int num_actions, int part, int parts)
{
    if (parts < 1 || part < 0 || part >= parts || decisions < 1 || num_actions < 1)
        return 0;
    const int depth = split_depth(parts, decisions, num_actions);
    std::int64_t groups = 1, size = 1;
    for (int i = 0; i < decisions; ++i)
        (i < depth ? groups : size) *= num_actions;
    return (groups / parts + (part < groups % parts ? 1 : 0)) * size;
}

std::int64_t part_size(const TableShape& shape, int part, int parts)
{
    return part_size(shape.decisions, shape.num_actions, part, parts);
}

fs::path part_file(const fs::path& out, int part, int parts)
{
    return out / "parts" / fmt::format("part-{}-of-{}.csv", part, parts);
}

fs::path build_failure_file(const fs::path& out)
{
    return out / "build-failed.txt";
}

void record_build_failure(const fs::path& out, const std::string& message)
{
    write_text_atomically(build_failure_file(out), message + "\n");
}

void clear_build_failure(const fs::path& out)
{
    std::error_code ignored;
    fs::remove(build_failure_file(out), ignored);
}

std::string build_failure(const fs::path& out)
{
    // One line of a few hundred bytes; anything past the first line, or past 4 KB, is not ours.
    constexpr std::uint64_t kMaxBytes = 4096;
    try {
        std::string text = read_text_file(build_failure_file(out), kMaxBytes);
        text = text.substr(0, text.find('\n'));
        return printable(text);
    } catch (const std::exception&) {
        return {};
    }
}

fs::path part_features_file(const fs::path& out, int part, int parts)
{
    return out / "parts" / fmt::format("part-{}-of-{}.features.csv", part, parts);
}

void check_part(int part, int parts)
{
    if (parts < 1)
        throw Error(fmt::format("--part {}/{}: the number of parts must be at least 1", part, parts));
    if (part < 0 || part >= parts)
        throw Error(fmt::format("--part {}/{}: the part must be in 0..{} (parts count from 0)", part, parts,
                                parts - 1));
}

fs::path seed_folder(const fs::path& out, std::uint64_t seed)
{
    return out / "seeds" / fmt::format("seed-{}", seed);
}

config::ExperimentConfig config_for_seed(const config::ExperimentConfig& c, std::uint64_t seed)
{
    config::ExperimentConfig one = c;
    one.job.seed = seed;
    one.sweep.seeds.clear();
    return one;
}

std::vector<std::uint64_t> table_seeds(const config::ExperimentConfig& c)
{
    if (c.sweep.seeds.size() < 2)
        return {};
    return {c.sweep.seeds.begin(), c.sweep.seeds.end()};
}

} // namespace rlda::core::sim
