// The table builder: one warm-start trunk, then one branch run per action sequence, resumable.
#include "core/sim/build.h"
#include "core/sim/sequences.h"
#include "core/sim/table_meta.h"
#include "core/sim/table_training.h"

#include "core/config/experiment_io.h"
#include "core/config/operations.h"
#include "core/config/schema.h"
#include "core/config/dataset_shape.h"
#include "core/data/dataset.h"
#include "core/model/zoo.h"
#include "core/model/spec.h"
#include "core/train/device.h"
#include "core/train/setup.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/output_folder.h"
#include "core/util/read_file.h"

#include <ATen/Parallel.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <ranges>
#include <regex>

namespace rlda::core::sim {
namespace {

namespace fs = std::filesystem;
using Seconds = std::chrono::duration<double>;
using detail::Job;

// Settings that cannot build a table fail before anything is loaded.
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
        throw Error("sweep.fused: fused replicates train a table as a tree, which needs the virtual clock and "
                    "one \"up\" event (scheduler.clock, scheduler.events); set sweep.fused = \"off\"");
}

Job make_job(const config::ExperimentConfig& c)
{
    check_table_settings(c);
    train::resolve_device(c.job.device); // here, where the rows are trained: before the data loads
    Job j{c, train::load_dataset(c.dataset, c.job.seed), {}, c.trainer.max_decisions, 0};
    j.spec = train::job_model(c, j.data);
    j.num_actions = config::trainer_actions(c.trainer, j.spec).size();
    return j;
}

// The sections whose settings change a table's numbers; [agent], [policy], [runner] and the name do not.
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

// Creates `out`, or checks that it holds a build of the same settings; replaces it when `force`
// (only a folder rlda made that holds none of the build's inputs: core/util/output_folder.h).
// Returns the folder's lock, which the build holds to its end.
FolderLock prepare_folder(const config::ExperimentConfig& c, const fs::path& out, bool force)
{
    std::error_code ec;
    const fs::path saved = out / "config.toml";
    FolderLock lock;
    if (!force && fs::is_directory(out, ec) && made_by_rlda(out) && fs::exists(saved, ec)) {
        // A build of rlda's own to go on with, once no other process builds it.
        lock = lock_output_folder(out);
        const auto differ = differing_sections(config::load_experiment(saved.string()), c);
        if (!differ.empty())
            throw Error(fmt::format("{}: the table there was built with other [{}] settings; pass --force "
                                    "to start over or choose another --out",
                                    saved.string(), fmt::join(differ, "], [")));
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

// A kill may cut the last appended line short; only whole lines count. False when not even the
// header is whole.
bool drop_torn_line(const fs::path& file)
{
    const std::string text = read_text_file(file);
    const auto end = text.rfind('\n');
    if (end == std::string::npos)
        return false;
    if (end + 1 != text.size())
        write_text_atomically(file, text.substr(0, end + 1));
    return true;
}

// Sets LibTorch's intra-op threads for one build and restores them after: every backend trains
// with sweep.threads_per_task so that a row is the same bits wherever it was trained.
class IntraOpThreads {
public:
    explicit IntraOpThreads(int n) : before_(at::get_num_threads())
    {
        if (n >= 1 && n != before_)
            at::set_num_threads(n);
    }
    ~IntraOpThreads()
    {
        if (at::get_num_threads() != before_)
            at::set_num_threads(before_);
    }
    IntraOpThreads(const IntraOpThreads&) = delete;
    IntraOpThreads& operator=(const IntraOpThreads&) = delete;

private:
    int before_;
};

TableShape shape_of(const Job& j)
{
    return {j.decisions, j.num_actions, SimulationTable(j.decisions, j.num_actions).sequences(), {},
            model::original_block_count(j.spec)};
}

// The part files of `out` matching `pattern`, sorted.
std::vector<fs::path> part_files(const fs::path& out, const std::regex& pattern)
{
    std::vector<fs::path> parts;
    std::error_code ec;
    if (fs::is_directory(out / "parts", ec))
        for (const auto& e : fs::directory_iterator(out / "parts"))
            if (std::regex_match(e.path().filename().string(), pattern))
                parts.push_back(e.path());
    std::ranges::sort(parts);
    return parts;
}

// Every whole node of features.csv and the parts' features files, checked to agree; features.csv is
// rewritten sorted when there was anything to read.
TableFeatures merge_features(const TableShape& j, const fs::path& out)
{
    static const std::regex name(R"(part-\d+-of-\d+\.features\.csv)");
    std::vector<fs::path> files;
    if (fs::exists(out / "features.csv"))
        files.push_back(out / "features.csv");
    const auto parts = part_files(out, name);
    files.insert(files.end(), parts.begin(), parts.end());
    TableFeatures merged;
    for (const auto& file : files) {
        const TableFeatures found = load_table_features(file, j.decisions, j.blocks);
        for (const auto& [key, f] : found.nodes()) {
            try {
                merged.add(key.first, key.second, f);
            } catch (const Error& e) {
                throw Error(fmt::format("{}: {} (another part recorded it otherwise)", file.string(), e.what()));
            }
        }
    }
    if (!files.empty())
        save_table_features(out / "features.csv", merged);
    return merged;
}

// Every whole row of table.csv and the part files, checked to agree, as one table; table.csv is
// rewritten sorted when there was anything to read (so that appending continues a clean file).
SimulationTable merge_rows(const TableShape& j, const fs::path& out)
{
    SimulationTable merged(j.decisions, j.num_actions);
    std::vector<fs::path> files;
    if (fs::exists(out / "table.csv"))
        files.push_back(out / "table.csv");
    static const std::regex name(R"(part-\d+-of-\d+\.csv)");
    const auto parts = part_files(out, name);
    files.insert(files.end(), parts.begin(), parts.end());
    std::map<std::int64_t, std::pair<TableRow, fs::path>> rows;
    for (const auto& file : files) {
        for (auto& row : read_table_file(file, j.decisions, /*growing=*/true).rows) {
            const auto code = sequence_code(row.actions, j.num_actions);
            if (code < 0)
                throw Error(fmt::format("{}: row [{}]: an action outside 0..{}", file.string(),
                                        fmt::join(row.actions, " "), j.num_actions - 1));
            const auto [it, fresh] = rows.try_emplace(code, row, file);
            if (!fresh && !(it->second.first == row))
                throw Error(fmt::format("{}: row [{}] differs from the same sequence in {} (accuracy {} vs {}); "
                                        "they were trained with other settings",
                                        file.string(), fmt::join(row.actions, " "), it->second.second.string(),
                                        row.accuracy, it->second.first.accuracy));
        }
    }
    for (auto& [code, entry] : rows)
        merged.add(std::move(entry.first));
    if (!files.empty())
        merged.save((out / "table.csv").string());
    return merged;
}

// Throws unless `out` holds a prepared sweep of settings that give the same numbers.
void check_prepared(const config::ExperimentConfig& c, const fs::path& out)
{
    for (const char* f : {"config.toml", "warm_start.pt"})
        if (!fs::exists(out / f))
            throw Error(fmt::format("{}: not a prepared table folder (no {}); run `rlda simulate CONFIG --out {} "
                                    "--prepare` first",
                                    out.string(), f, out.string()));
    const fs::path saved = out / "config.toml";
    const auto differ = differing_sections(config::load_experiment(saved.string()), c);
    if (!differ.empty())
        throw Error(fmt::format("{}: the folder was prepared with other [{}] settings", saved.string(),
                                fmt::join(differ, "], [")));
}

} // namespace

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

PreparedSweep prepare_sweep(const config::ExperimentConfig& c, const fs::path& out, bool force,
                            const std::stop_token& stop, train::TrainObserver* observer)
{
    if (const auto seeds = table_seeds(c); !seeds.empty()) {
        const Job j = make_job(config_for_seed(c, seeds.front()));
        PreparedSweep p;
        p.lock = prepare_folder(c, out, force);
        save_table_meta(out / "table.json", table_meta(c, j.spec, j.decisions));
        p.shape = shape_of(j);
        p.shape.seeds = seeds;
        p.warm_start_reused = true;
        for (const auto seed : seeds) { // a warm start per seed, each in its own folder
            if (stop.stop_requested())
                return p;
            const auto one = prepare_sweep(config_for_seed(c, seed), seed_folder(out, seed), false, stop, observer);
            p.done += one.done;
            p.warm_start_reused = p.warm_start_reused && one.warm_start_reused;
        }
        return p;
    }
    const Job j = make_job(c); // bad settings fail before the folder is touched
    PreparedSweep p;
    p.lock = prepare_folder(c, out, force);
    save_table_meta(out / "table.json", table_meta(c, j.spec, j.decisions));
    const IntraOpThreads threads(c.sweep.threads_per_task);
    const SimulationTable table = merge_rows(shape_of(j), out);
    merge_features(shape_of(j), out);
    p.shape = shape_of(j);
    p.done = static_cast<std::int64_t>(table.rows().size());
    const fs::path checkpoint = out / "warm_start.pt";
    p.warm_start_reused = fs::exists(checkpoint);
    if (!p.warm_start_reused && !table.complete())
        warm_start(j, checkpoint, stop, observer);
    return p;
}

namespace {

// A part of one seed's (or a single) table, opened for training: its lock taken, a torn last line
// dropped, and the rows of the part that table.csv and the part file already hold.
struct OpenPart {
    FolderLock lock;
    fs::path file;
    SimulationTable rows;
};

OpenPart open_part(const Job& j, const fs::path& out, int part, int parts)
{
    check_prepared(j.c, out);
    OpenPart o{{}, part_file(out, part, parts), SimulationTable(j.decisions, j.num_actions)};
    const fs::path& file = o.file;
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (ec || !fs::is_directory(file.parent_path()))
        throw Error(fmt::format("{}: cannot create the folder: {}", file.parent_path().string(),
                                ec ? ec.message() : std::string("a file has its name")));
    if (fs::exists(file) && !fs::is_regular_file(file))
        throw Error(fmt::format("{}: not a file, so this part cannot be written there", file.string()));
    fs::path lock_file = file;
    o.lock = FolderLock::take(lock_file.replace_extension(".lock"), fmt::format("{}: part {}/{}", out.string(), part, parts));
    // Only whole lines count; a torn one from a kill goes, so that appending continues cleanly.
    if (fs::exists(file) && !drop_torn_line(file))
        fs::remove(file);
    const auto keep = [&](std::vector<TableRow> found) {
        for (auto& r : found) {
            const auto code = sequence_code(r.actions, j.num_actions);
            // A row with an action out of range (code -1) is not skipped: add() throws for it.
            if ((code < 0 || in_part(code, part, parts, j.decisions, j.num_actions)) && !o.rows.find(r.actions))
                o.rows.add(std::move(r));
        }
    };
    keep(read_table_file(out / "table.csv", j.decisions, /*growing=*/true).rows);
    keep(read_table_file(file, j.decisions, /*growing=*/true).rows);
    return o;
}

// The jobs of a replicated table's seeds, each with its own config (config_for_seed), which its job
// refers to: made once, and kept in place.
struct SeedJobs {
    explicit SeedJobs(const config::ExperimentConfig& c)
    {
        const auto seeds = table_seeds(c);
        configs.reserve(seeds.size());
        jobs.reserve(seeds.size());
        for (const auto seed : seeds) {
            configs.push_back(config_for_seed(c, seed));
            this->seeds.push_back(seed);
        }
        for (const auto& one : configs)
            jobs.push_back(make_job(one));
    }
    std::vector<std::uint64_t> seeds;
    std::vector<config::ExperimentConfig> configs;
    std::vector<Job> jobs;
};

} // namespace

SimulationTable build_part(const config::ExperimentConfig& c, const fs::path& out, int part, int parts,
                           const BuildProgressFn& progress, const std::stop_token& stop, train::TrainObserver* observer)
{
    const auto started = std::chrono::steady_clock::now();
    check_part(part, parts);
    const Job j = make_job(c);
    OpenPart o = open_part(j, out, part, parts);
    const IntraOpThreads threads(c.sweep.threads_per_task);

    BuildProgress p;
    p.total = static_cast<int>(part_size(j.decisions, j.num_actions, part, parts));
    p.done = static_cast<int>(o.rows.rows().size());
    p.to_compute = p.total - p.done;
    p.warm_start_reused = true;
    const auto report = [&] {
        p.elapsed = Seconds(std::chrono::steady_clock::now() - started).count();
        if (progress)
            progress(p);
    };
    report();

    // The nodes collected before and those this part recorded already are not measured again.
    TableFeatures known = load_table_features(out / "features.csv", j.decisions, shape_of(j).blocks);
    const fs::path features_file = part_features_file(out, part, parts);
    if (fs::exists(features_file)) {
        const TableFeatures recorded = load_table_features(features_file, j.decisions, shape_of(j).blocks);
        for (const auto& [key, f] : recorded.nodes())
            known.add(key.first, key.second, f);
    }
    detail::FeatureSink features(features_file, std::move(known), c.job.seed);
    train_missing(j, out / "warm_start.pt", o.rows, part, parts, o.file, p, report, stop, observer, BuildOrder::Tree,
                  &features);
    return std::move(o.rows);
}

namespace {

// A replicated folder's table.csv from its seeds' folders (each collected first) and its metadata.
SimulationTable collect_seeds(const fs::path& out, const config::ExperimentConfig& c)
{
    const auto seeds = table_seeds(c);
    const TableShape shape = table_shape(c);
    std::vector<SimulationTable> tables;
    TableFeatures features; // every seed's
    for (const auto seed : seeds) {
        const fs::path folder = seed_folder(out, seed);
        tables.push_back(fs::exists(folder / "config.toml") ? merge_rows(shape, folder)
                                                             : SimulationTable(shape.decisions, shape.num_actions));
        if (fs::exists(folder / "config.toml")) {
            const TableFeatures seed_features = merge_features(shape, folder);
            for (const auto& [key, f] : seed_features.nodes())
                features.add(key.first, key.second, f);
        }
    }
    if (!features.empty())
        save_table_features(out / "features.csv", features);
    std::vector<const SimulationTable*> views;
    views.reserve(tables.size());
    for (const auto& t : tables)
        views.push_back(&t);
    SimulationTable merged = merge_seeds(seeds, views);
    merged.save((out / "table.csv").string());
    return merged;
}

// build_table of a replicated table whose seeds train fused: each seed's folder prepared (its warm
// start trained) as a sweep prepares it, then every missing row of every seed at once.
SimulationTable build_fused(const config::ExperimentConfig& c, const fs::path& out, bool force,
                            const BuildProgressFn& progress, const std::stop_token& stop, train::TrainObserver* observer)
{
    const auto started = std::chrono::steady_clock::now();
    const SeedJobs s(c); // bad settings fail before the folder is touched
    const FolderLock lock = prepare_folder(c, out, force);
    save_table_meta(out / "table.json", table_meta(c, s.jobs.front().spec, s.jobs.front().decisions));
    std::vector<PreparedSweep> prepared; // each seed's folder, locked until the rows are in
    for (std::size_t r = 0; r < s.seeds.size() && !stop.stop_requested(); ++r)
        prepared.push_back(prepare_sweep(s.configs[r], seed_folder(out, s.seeds[r]), false, stop, observer));
    if (stop.stop_requested())
        return collect_seeds(out, c);
    const IntraOpThreads threads(c.sweep.threads_per_task);
    std::vector<SimulationTable> tables;
    for (std::size_t r = 0; r < s.seeds.size(); ++r)
        tables.push_back(merge_rows(shape_of(s.jobs[r]), seed_folder(out, s.seeds[r])));
    std::vector<detail::FusedSeed> seeds;
    BuildProgress p;
    for (std::size_t r = 0; r < s.seeds.size(); ++r) {
        const fs::path folder = seed_folder(out, s.seeds[r]);
        seeds.push_back({&s.jobs[r], folder / "warm_start.pt", folder / "table.csv", &tables[r]});
        p.total += static_cast<int>(tables[r].sequences());
        p.done += static_cast<int>(tables[r].rows().size());
    }
    p.to_compute = p.total - p.done;
    p.warm_start_reused = std::ranges::all_of(prepared, [](const PreparedSweep& one) { return one.warm_start_reused; });
    const auto report = [&] {
        p.elapsed = Seconds(std::chrono::steady_clock::now() - started).count();
        if (progress)
            progress(p);
    };
    report();
    if (p.to_compute > 0)
        detail::train_missing_fused(seeds, 0, 1, p, report, stop); // the whole table: part 0 of 1
    for (std::size_t r = 0; r < s.seeds.size(); ++r)
        tables[r].save((seed_folder(out, s.seeds[r]) / "table.csv").string());
    return collect_seeds(out, c);
}

// build_replicated_part with fuses_replicates(c): the part at every seed trained at once.
std::int64_t build_fused_part(const config::ExperimentConfig& c, const fs::path& out, int part, int parts,
                              const BuildProgressFn& progress, const std::stop_token& stop)
{
    const auto started = std::chrono::steady_clock::now();
    const SeedJobs s(c);
    std::vector<OpenPart> opened;
    for (std::size_t r = 0; r < s.seeds.size(); ++r)
        opened.push_back(open_part(s.jobs[r], seed_folder(out, s.seeds[r]), part, parts));
    const IntraOpThreads threads(c.sweep.threads_per_task);
    std::vector<detail::FusedSeed> seeds;
    BuildProgress p;
    p.warm_start_reused = true;
    for (std::size_t r = 0; r < s.seeds.size(); ++r) {
        const Job& j = s.jobs[r];
        seeds.push_back({&j, seed_folder(out, s.seeds[r]) / "warm_start.pt", opened[r].file, &opened[r].rows});
        p.total += static_cast<int>(part_size(j.decisions, j.num_actions, part, parts));
        p.done += static_cast<int>(opened[r].rows.rows().size());
    }
    p.to_compute = p.total - p.done;
    const auto report = [&] {
        p.elapsed = Seconds(std::chrono::steady_clock::now() - started).count();
        if (progress)
            progress(p);
    };
    report();
    if (p.to_compute > 0)
        detail::train_missing_fused(seeds, part, parts, p, report, stop);
    std::int64_t done = 0;
    for (const auto& o : opened)
        done += static_cast<std::int64_t>(o.rows.rows().size());
    return done;
}

} // namespace

SimulationTable collect_table(const fs::path& out, const config::ExperimentConfig& c)
{
    if (!table_seeds(c).empty())
        return collect_seeds(out, c);
    const TableShape shape = table_shape(c); // the shape without loading the data
    merge_features(shape, out);
    return merge_rows(shape, out);
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

SimulationTable build_table(const config::ExperimentConfig& c, const fs::path& out, bool force,
                            const BuildProgressFn& progress, const std::stop_token& stop,
                            train::TrainObserver* observer, BuildOrder order)
{
    check_table_settings(c); // the replicated settings too, before any seed's folder
    if (fuses_replicates(c))
        return build_fused(c, out, force, progress, stop, observer);
    if (const auto seeds = table_seeds(c); !seeds.empty()) {
        const Job j = make_job(config_for_seed(c, seeds.front())); // bad settings fail before the folder
        const FolderLock lock = prepare_folder(c, out, force);
        save_table_meta(out / "table.json", table_meta(c, j.spec, j.decisions));
        int before = 0;
        const int total = static_cast<int>(shape_of(j).sequences * static_cast<std::int64_t>(seeds.size()));
        for (const auto seed : seeds) {
            if (stop.stop_requested())
                break;
            // Each seed's table exactly as a build of that seed alone, in its own folder.
            const auto one = build_table(
                config_for_seed(c, seed), seed_folder(out, seed), false,
                [&](const BuildProgress& p) {
                    if (!progress)
                        return;
                    BuildProgress all = p;
                    all.done = before + p.done;
                    all.total = total;
                    progress(all);
                },
                stop, observer, order);
            before += static_cast<int>(one.rows().size());
        }
        return collect_seeds(out, c);
    }
    const auto started = std::chrono::steady_clock::now();
    const Job j = make_job(c); // bad settings fail before the folder is touched
    const FolderLock lock = prepare_folder(c, out, force);
    save_table_meta(out / "table.json", table_meta(c, j.spec, j.decisions));
    const fs::path file = out / "table.csv";
    const fs::path checkpoint = out / "warm_start.pt";
    const IntraOpThreads threads(c.sweep.threads_per_task);
    SimulationTable table = merge_rows(shape_of(j), out);
    detail::FeatureSink features(out / "features.csv", merge_features(shape_of(j), out), c.job.seed);

    BuildProgress p;
    p.total = static_cast<int>(table.sequences());
    p.done = static_cast<int>(table.rows().size());
    p.to_compute = p.total - p.done;
    p.warm_start_reused = fs::exists(checkpoint);
    if (!p.warm_start_reused && p.to_compute > 0)
        warm_start(j, checkpoint, stop, observer);
    if (stop.stop_requested())
        return table;
    const auto report = [&] {
        p.elapsed = Seconds(std::chrono::steady_clock::now() - started).count();
        if (progress)
            progress(p);
    };
    report();

    train_missing(j, checkpoint, table, 0, 1, file, p, report, stop, observer, order, &features); // part 0 of 1
    table.save(file.string());
    return table;
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

std::int64_t build_replicated_part(const config::ExperimentConfig& c, const fs::path& out, int part, int parts,
                                   const BuildProgressFn& progress, const std::stop_token& stop,
                                   train::TrainObserver* observer)
{
    const auto seeds = table_seeds(c);
    if (seeds.empty())
        throw Error("build_replicated_part: sweep.seeds lists fewer than two seeds");
    check_part(part, parts);
    check_table_settings(c);
    if (fuses_replicates(c))
        return build_fused_part(c, out, part, parts, progress, stop);
    const auto shape = table_shape(c);
    std::int64_t before = 0; // the part's rows of the seeds already done
    std::int64_t done = 0;
    const auto total = static_cast<int>(part_size(shape, part, parts) * static_cast<std::int64_t>(seeds.size()));
    for (const auto seed : seeds) {
        if (stop.stop_requested())
            break;
        const auto rows = build_part(
            config_for_seed(c, seed), seed_folder(out, seed), part, parts,
            [&](const BuildProgress& p) {
                if (!progress)
                    return;
                BuildProgress all = p;
                all.done = static_cast<int>(before) + p.done;
                all.total = total;
                progress(all);
            },
            stop, observer);
        done += static_cast<std::int64_t>(rows.rows().size());
        before = done;
    }
    return done;
}

} // namespace rlda::core::sim
