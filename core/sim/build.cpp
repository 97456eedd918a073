// The table builder: one warm-start trunk, then one branch run per action sequence, resumable.
#include "core/sim/build.h"

#include "core/config/experiment_io.h"
#include "core/config/operations.h"
#include "core/data/dataset.h"
#include "core/model/spec.h"
#include "core/sim/table_training.h"
#include "core/table/merge.h"
#include "core/table/open_table.h"
#include "core/table/sequences.h"
#include "core/table/table_folder.h"
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
#include <ranges>

namespace rlda::core::sim {
namespace {

namespace fs = std::filesystem;
using Seconds = std::chrono::duration<double>;
using detail::Job;

Job make_job(const config::ExperimentConfig& c)
{
    check_table_settings(c);
    train::check_device(c.job.device); // here, where the rows are trained: before the data loads
    Job j{c, train::load_dataset(c.dataset, c.job.seed), {}, c.trainer.max_decisions, 0};
    j.spec = train::job_model(c, j.data);
    j.num_actions = config::trainer_actions(c.trainer, j.spec).size();
    return j;
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

PreparedSweep prepare_sweep(const config::ExperimentConfig& c, const fs::path& out, bool force,
                            const std::stop_token& stop, train::TrainObserver* observer)
{
    if (const auto seeds = table_seeds(c); !seeds.empty()) {
        const Job j = make_job(config_for_seed(c, seeds.front()));
        PreparedSweep p;
        p.lock = prepare_table_folder(c, out, force);
        start_table_meta(out, table_meta(c, j.spec, j.decisions));
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
    p.lock = prepare_table_folder(c, out, force);
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
    make_subfolder(out, file.parent_path().filename().string());
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

// build_table of a replicated table whose seeds train fused: each seed's folder prepared (its warm
// start trained) as a sweep prepares it, then every missing row of every seed at once.
SimulationTable build_fused(const config::ExperimentConfig& c, const fs::path& out, bool force,
                            const BuildProgressFn& progress, const std::stop_token& stop, train::TrainObserver* observer)
{
    const auto started = std::chrono::steady_clock::now();
    const SeedJobs s(c); // bad settings fail before the folder is touched
    const FolderLock lock = prepare_table_folder(c, out, force);
    start_table_meta(out, table_meta(c, s.jobs.front().spec, s.jobs.front().decisions));
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
// The progress of seeds built one after another, reported as the whole build's: a seed's rows
// counted after the seeds before it, and the ETA that of every row still to train at the time a
// row took so far (a seed's own ETA says 0 s at its last row while the next seeds are to come).
class AcrossSeeds {
public:
    AcrossSeeds(int total, BuildProgressFn progress) : total_(total), progress_(std::move(progress)) {}

    void operator()(const BuildProgress& p)
    {
        computed_ = computed_before_ + p.computed;
        if (!progress_)
            return;
        BuildProgress all = p;
        all.done = before_ + p.done;
        all.total = total_;
        all.computed = computed_;
        const double elapsed = Seconds(std::chrono::steady_clock::now() - started_).count();
        all.eta = computed_ > 0 ? elapsed / computed_ * (total_ - all.done) : -1.0;
        progress_(all);
    }
    // The seed being built ended with `rows` rows.
    void next_seed(int rows)
    {
        before_ += rows;
        computed_before_ = computed_;
    }
    int done() const { return before_; }

private:
    int total_;
    BuildProgressFn progress_;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    int before_ = 0;          // rows of the seeds already built
    int computed_ = 0;        // rows trained by this build so far
    int computed_before_ = 0; // of them, by the seeds already built
};

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

namespace {
// One seed's table (or a single-seed one): build_table's, of the sequences `only` marks when given.
SimulationTable build_one(const config::ExperimentConfig& c, const fs::path& out, bool force,
                          const BuildProgressFn& progress, const std::stop_token& stop,
                          train::TrainObserver* observer, BuildOrder order, const std::vector<char>* only);
} // namespace

SimulationTable build_table(const config::ExperimentConfig& c, const fs::path& out, bool force,
                            const BuildProgressFn& progress, const std::stop_token& stop,
                            train::TrainObserver* observer, BuildOrder order)
{
    check_table_settings(c); // the replicated settings too, before any seed's folder
    if (fuses_replicates(c))
        return build_fused(c, out, force, progress, stop, observer);
    if (const auto seeds = table_seeds(c); !seeds.empty()) {
        const Job j = make_job(config_for_seed(c, seeds.front())); // bad settings fail before the folder
        const FolderLock lock = prepare_table_folder(c, out, force);
        start_table_meta(out, table_meta(c, j.spec, j.decisions));
        AcrossSeeds whole(static_cast<int>(shape_of(j).sequences * static_cast<std::int64_t>(seeds.size())),
                          progress);
        for (const auto seed : seeds) {
            if (stop.stop_requested())
                break;
            // Each seed's table exactly as a build of that seed alone, in its own folder.
            const auto one = build_table(config_for_seed(c, seed), seed_folder(out, seed), false,
                                         std::ref(whole), stop, observer, order);
            whole.next_seed(static_cast<int>(one.rows().size()));
        }
        return collect_seeds(out, c);
    }
    return build_one(c, out, force, progress, stop, observer, order, nullptr);
}

SimulationTable build_sequences(const config::ExperimentConfig& c, const fs::path& out,
                                const std::vector<std::int64_t>& codes, const BuildProgressFn& progress,
                                const std::stop_token& stop, train::TrainObserver* observer)
{
    check_table_settings(c);
    if (!table_seeds(c).empty())
        throw Error("build_sequences: a single-seed table's settings are needed (config_for_seed)");
    const TableShape shape = table_shape(c);
    std::vector<char> only(static_cast<std::size_t>(shape.sequences), 0);
    for (const std::int64_t code : codes) {
        if (code < 0 || code >= shape.sequences)
            throw Error(fmt::format("build_sequences: no sequence has the code {}", code));
        only[static_cast<std::size_t>(code)] = 1;
    }
    return build_one(c, out, false, progress, stop, observer, BuildOrder::Tree, &only);
}

namespace {

SimulationTable build_one(const config::ExperimentConfig& c, const fs::path& out, bool force,
                          const BuildProgressFn& progress, const std::stop_token& stop,
                          train::TrainObserver* observer, BuildOrder order, const std::vector<char>* only)
{
    const auto started = std::chrono::steady_clock::now();
    const Job j = make_job(c); // bad settings fail before the folder is touched
    const FolderLock lock = prepare_table_folder(c, out, force);
    save_table_meta(out / "table.json", table_meta(c, j.spec, j.decisions));
    const fs::path file = out / "table.csv";
    const fs::path checkpoint = out / "warm_start.pt";
    const IntraOpThreads threads(c.sweep.threads_per_task);
    SimulationTable table = merge_rows(shape_of(j), out);
    detail::FeatureSink features(out / "features.csv", merge_features(shape_of(j), out), c.job.seed);

    BuildProgress p;
    p.total = static_cast<int>(only ? std::ranges::count(*only, 1) : table.sequences());
    p.done = static_cast<int>(
        only ? std::ranges::count_if(
                   table.rows(),
                   [&](const TableRow& r) {
                       return (*only)[static_cast<std::size_t>(sequence_code(r.actions, j.num_actions))] != 0;
                   })
             : static_cast<std::ptrdiff_t>(table.rows().size()));
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

    train_missing(j, checkpoint, table, 0, 1, file, p, report, stop, observer, order, &features,
                  only); // part 0 of 1
    table.save(file.string());
    return table;
}

} // namespace

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
    AcrossSeeds whole(
        static_cast<int>(part_size(shape, part, parts) * static_cast<std::int64_t>(seeds.size())), progress);
    for (const auto seed : seeds) {
        if (stop.stop_requested())
            break;
        const auto rows = build_part(config_for_seed(c, seed), seed_folder(out, seed), part, parts,
                                     std::ref(whole), stop, observer);
        whole.next_seed(static_cast<int>(rows.rows().size()));
    }
    return whole.done();
}

} // namespace rlda::core::sim
