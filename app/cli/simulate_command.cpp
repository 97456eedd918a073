// `rlda simulate CONFIG.toml [--out DIR] [--force] [--set section.key=value]… [--backend local|slurm]
// [--workers N] [--part I/N] [--prepare] [--race]`: builds the simulation table of every action
// sequence, spread over worker processes (or cluster jobs), or races it; running it again resumes.
#include "app/cli/commands.h"
#include "app/cli/interrupts.h"
#include "app/cli/numbers.h"

#include "core/config/experiment_io.h"
#include "core/config/value_limits.h"
#include "core/sim/build.h"
#include "core/sim/race.h"
#include "core/sweep/local.h"
#include "core/sweep/process.h"
#include "core/sweep/slurm.h"
#include "core/table/reliability.h"
#include "core/table/sequences.h"
#include "core/table/table_status.h"
#include "core/util/error.h"
#include "core/util/output_folder.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <regex>
#include <stop_token>
#include <thread>

namespace rlda::app {
namespace {

namespace sim = core::sim;
namespace sweep = core::sweep;

struct SimulateOptions {
    std::string config;
    std::string out;
    bool force = false;
    std::vector<std::string> overrides;
    std::string dataset;
    std::string backend; // "" = sweep.backend
    int workers = -1;    // -1 = sweep.workers
    std::string part;    // "I/N"
    bool prepare = false;
    std::vector<std::int64_t> seeds; // replicates at these seeds (sweep.seeds)
    int replicates = 0;              // or at job.seed, job.seed + 1, ...
    bool race = false;               // sweep.race
};

// The first round's seeds of `rlda simulate --race` without --seeds or --replicates.
constexpr int kRaceFirstSeeds = 3;

// Where the table is, its rows, and (complete) how far its ranking can be trusted.
void print_table(const std::string& out, const sim::SimulationTable& table)
{
    fmt::print("table: {}/table.csv\nrows: {}{}\n", out, table.rows().size(),
               table.replicated() ? fmt::format(" (each the mean of {} seeds)", table.seeds().size()) : "");
    if (table.complete())
        fmt::print("{}\n", sim::reliability_text(sim::rank_reliability(sim::accuracies_by_seed(table))));
}

// The end of a local build: a complete table's summary and exit 0; a stopped one says what it has
// and what table.csv holds (the complete table a build with more seeds extends stays whole), with
// no word of success, and exit 130.
int report_table(const std::string& out, const sim::SimulationTable& table)
{
    if (table.complete()) {
        print_table(out, table);
        return 0;
    }
    fmt::print(
        "stopped: {} of {} rows{}; the rows trained are kept{}, and the same command goes on from them\n",
        table.rows().size(), table.sequences(),
        table.replicated() ? fmt::format(" hold all {} seeds", table.seeds().size()) : "",
        table.replicated() ? " in each seed's folder (seeds/)" : "");
    if (const auto held = sim::table_status(out);
        held.complete() && held.meta && held.meta->seeds != table.seeds())
        fmt::print("table: {}/table.csv still holds the complete table{}\n", out,
                   held.meta->seeds.empty()
                       ? std::string()
                       : fmt::format(" of the seeds {}", fmt::join(held.meta->seeds, ", ")));
    return 130;
}

// "45s", "1m20s", "2h03m".
std::string duration(double seconds)
{
    const auto s = static_cast<long long>(std::lround(std::max(0.0, seconds)));
    if (s < 60)
        return fmt::format("{}s", s);
    if (s < 3600)
        return fmt::format("{}m{:02}s", s / 60, s % 60);
    return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
}

void print_row(const sim::BuildProgress& p)
{
    fmt::print("row {}/{} [{}] accuracy {:.4f} (ETA {})\n", p.done, p.total, fmt::join(p.row->actions, " "),
               p.row->accuracy, duration(p.eta));
    std::fflush(stdout);
}

// "I/N" with 0 <= I < N; Error naming the value otherwise.
std::pair<int, int> parse_part(const std::string& text)
{
    static const std::regex form(R"(\s*(\d{1,9})\s*/\s*(\d{1,9})\s*)");
    std::smatch m;
    if (!std::regex_match(text, m, form))
        throw ArgumentError(
            fmt::format("--part {}: expected I/N, part I (from 0) of N parts, e.g. 0/4", text));
    const int part = std::stoi(m[1]);
    const int parts = std::stoi(m[2]);
    try {
        sim::check_part(part, parts);
    } catch (const core::Error& e) {
        throw ArgumentError(e.what());
    }
    return {part, parts};
}

int run_part(const core::config::ExperimentConfig& config, const std::string& out, int part, int parts,
             const std::stop_token& stop)
{
    fmt::print("table folder: {}\npart {}/{}\n", out, part, parts);
    std::fflush(stdout);
    if (const auto seeds = sim::table_seeds(config); !seeds.empty()) {
        // Part i of every seed's table, seed by seed.
        const auto done = sim::build_replicated_part(
            config, out, part, parts,
            [](const sim::BuildProgress& p) {
                if (p.row)
                    print_row(p);
            },
            stop);
        const auto total = sim::part_size(sim::table_shape(config), part, parts) *
                           static_cast<std::int64_t>(seeds.size());
        fmt::print("rows: {}/{} over {} seeds\n", done, total, seeds.size());
        return done == total ? 0 : 130;
    }
    const auto rows = sim::build_part(
        config, out, part, parts,
        [&](const sim::BuildProgress& p) {
            if (!p.row && p.to_compute == 0)
                fmt::print("nothing to train: all {} rows of part {}/{} are on disk\n", p.total, part, parts);
            else if (!p.row)
                fmt::print("{} of {} rows of part {}/{} to train\n", p.to_compute, p.total, part, parts);
            else
                print_row(p);
            std::fflush(stdout);
        },
        stop);
    const auto total = sim::part_size(rows.decisions(), rows.num_actions(), part, parts);
    fmt::print("part: {}\nrows: {}/{}\n", sim::part_file(out, part, parts).string(), rows.rows().size(), total);
    return static_cast<std::int64_t>(rows.rows().size()) == total ? 0 : 130;
}

std::string part_counts(const sweep::SweepStatus& s)
{
    std::vector<std::string> counts;
    for (const auto& t : s.tasks)
        counts.push_back(fmt::format("part {}: {}/{}{}", t.part, t.rows_done, t.rows_total,
                                     t.attempts > 1 ? fmt::format(" (try {})", t.attempts) : ""));
    return fmt::format("{}", fmt::join(counts, ", "));
}

int run_local(const core::config::ExperimentConfig& config, const std::string& out, int workers, bool force,
              const std::stop_token& stop)
{
    const auto prepared = sim::prepare_sweep(config, out, force, stop);
    const auto total = prepared.shape.rows();
    if (stop.stop_requested()) {
        fmt::print("stopped during the warm start\n");
        return 130;
    }
    if (prepared.done == total) {
        fmt::print("nothing to train: all {} rows are in the table\n", total);
    } else {
        workers = static_cast<int>(std::min<std::int64_t>(workers, prepared.shape.sequences));
        fmt::print("warm start: {}; {} of {} rows to train in {} worker process{}\n",
                   prepared.warm_start_reused ? "reused" : "trained", total - prepared.done, total, workers,
                   workers == 1 ? "" : "es");
        std::fflush(stdout);
        sweep::LocalOptions o;
        o.workers = workers;
        o.max_retries = config.sweep.max_retries;
        const auto started = std::chrono::steady_clock::now();
        int first = -1;
        const auto s = sweep::run_parts(
            out, prepared.shape, o,
            [&](const sweep::SweepStatus& st) {
                if (first < 0)
                    first = st.rows_done;
                const double elapsed =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
                const int trained = st.rows_done - first;
                const std::string eta =
                    trained > 0 ? duration(elapsed / trained * (st.rows_total - st.rows_done)) : "?";
                fmt::print("rows {}/{} ({}) ETA {}\n", st.rows_done, st.rows_total, part_counts(st), eta);
                std::fflush(stdout);
            },
            stop);
        const auto table = sim::collect_table(out, config);
        if (s.count(sweep::TaskState::Failed) > 0)
            throw core::Error(sweep::failure_message(out, s));
        return report_table(out, table);
    }
    return report_table(out, sim::collect_table(out, config));
}

// ---- A race (core/sim/race.h): its first round on the local workers, the rounds after it here.
int run_race(const core::config::ExperimentConfig& config, const std::string& out, int workers, bool force,
             const std::stop_token& stop)
{
    const auto rounds = sim::read_race_log(std::filesystem::path(out) / "race.csv");
    if (rounds.empty() && workers > 1) { // the first round is the whole table: spread it
        if (const int rc = run_local(config, out, workers, force, stop); rc != 0)
            return rc;
        force = false;
    }
    int reported_round = 0;
    const auto result = sim::race_table(
        config, out, force,
        [&](const sim::RaceProgress& p) {
            if (p.round > 1 && p.round != reported_round) {
                reported_round = p.round;
                fmt::print("race round {}: seed {} for the {} sequences in the confidence set for the best\n",
                           p.round, p.seed, p.contenders);
            }
            if (p.build.row)
                print_row(p.build);
            std::fflush(stdout);
        },
        stop);
    if (result.end == sim::RaceEnd::Stopped) {
        fmt::print("race: {}\n", sim::race_end_text(result.end));
        return 130;
    }
    const auto& last = result.rounds.back();
    fmt::print("race: {} rounds, {:.1f} epochs; ended: {}\n", result.rounds.size(), last.total_epochs,
               sim::race_end_text(result.end));
    std::vector<std::string> named;
    for (const auto code : result.contenders)
        named.push_back(fmt::format(
            "[{}]",
            fmt::join(sim::sequence_of(code, result.table.decisions(), result.table.num_actions()), " ")));
    fmt::print("confidence set for the best (95 %): {}\n", fmt::join(named, " "));
    fmt::print("table: {}/table.csv\nrace: {}/race.csv\n", out, out);
    return 0;
}

// ---- The slurm backend (core/sweep/slurm.h): prepared here, then one job array followed to its end
// by follow_slurm_sweep (app/cli/sweep_command.cpp), which also handles Ctrl-C.
int run_slurm(const core::config::ExperimentConfig& config, const std::string& out, int parts, bool force)
{
    const auto prepared = sim::prepare_sweep(config, out, force);
    if (prepared.done == prepared.shape.sequences) {
        fmt::print("nothing to train: all {} rows are in the table\n", prepared.shape.sequences);
        const auto table = sim::collect_table(out, config);
        print_table(out, table);
        return 0;
    }
    fmt::print("warm start: {}; {} of {} rows to train on Slurm\n", prepared.warm_start_reused ? "reused" : "trained",
               prepared.shape.sequences - prepared.done, prepared.shape.sequences);
    auto job = sweep::SlurmSweep::submit(config, out, std::filesystem::read_symlink("/proc/self/exe").string(),
                                         std::max(parts, 0));
    fmt::print("submitted: job {} ({} parts)\n", fmt::join(job.job_ids(), ", "), job.parts());
    std::fflush(stdout);
    return follow_slurm_sweep(job, config.sweep.poll_seconds);
}

int run_simulate(const SimulateOptions& o)
{
    auto config = core::config::load_experiment(experiment_file(o.config));
    auto overrides = o.overrides;
    if (!o.seeds.empty() && o.replicates > 0)
        throw ArgumentError("--seeds and --replicates: give one of them");
    if (o.seeds.size() == 1) // one seed: the table is built at it, as job.seed
        overrides.push_back(fmt::format("job.seed={}", o.seeds.front()));
    if (!o.seeds.empty())
        overrides.push_back(fmt::format("sweep.seeds=[{}]", fmt::join(o.seeds, ", ")));
    apply_command_line(config, o.dataset, overrides);
    if (o.replicates > 0) { // from the seed the config (and its --set) ends up with
        const auto seeds = core::config::consecutive_seeds(static_cast<std::int64_t>(config.job.seed), o.replicates);
        core::config::apply_override(config, fmt::format("sweep.seeds=[{}]", fmt::join(seeds, ", ")));
    }
    if (!o.backend.empty()) {
        const auto backend = core::config::from_string<core::config::SweepBackend>(o.backend);
        if (!backend)
            throw ArgumentError(
                fmt::format("--backend {}: unknown backend (allowed: {})", o.backend,
                            fmt::join(core::config::names<core::config::SweepBackend>(), ", ")));
        config.sweep.backend = *backend;
    }
    if (o.workers != -1) // its validator refuses negative values
        config.sweep.workers = o.workers;
    if (o.race) {
        config.sweep.race = true;
        if (sim::table_seeds(config).empty())
            config.sweep.seeds =
                core::config::consecutive_seeds(static_cast<std::int64_t>(config.job.seed), kRaceFirstSeeds);
    }
    // A race's first round is a replicated table of sweep.seeds: its parts (--part, --prepare) are
    // those of that table; the rounds after it run in the command that races.
    if (config.sweep.race && o.part.empty() && !o.prepare) {
        if (config.sweep.backend == core::config::SweepBackend::Slurm)
            throw core::Error("sweep.race: a race runs its rounds on this machine; use --backend local");
        sim::check_race_settings(config);
    }
    // Not dated, unlike `rlda train`: the same command run again finds its folder and resumes.
    // Links resolved once: every step, worker and part writes the folder the link led to now.
    const std::string out =
        core::output_path(o.out.empty() ? fmt::format("runs/{}-table", config.name) : o.out).string();
    std::optional<std::pair<int, int>> part;
    if (!o.part.empty()) {
        part = parse_part(o.part);
        if (o.force)
            throw ArgumentError(fmt::format("--part {} --force: a part never empties the folder; prepare it "
                                            "with --force first",
                                            o.part));
    }

    if (!part && !o.prepare && config.sweep.backend == core::config::SweepBackend::Slurm) {
        fmt::print("table folder: {}\n", out);
        std::fflush(stdout);
        return run_slurm(config, out, config.sweep.workers, o.force);
    }
    const Interrupts signals;
    if (part)
        return run_part(config, out, part->first, part->second, signals.token());
    fmt::print("table folder: {}\n", out);
    std::fflush(stdout);
    if (o.prepare) {
        const auto p = sim::prepare_sweep(config, out, o.force, signals.token());
        if (signals.token().stop_requested())
            return 130;
        fmt::print("warm start: {}; {} of {} rows in the table\n", p.warm_start_reused ? "reused" : "trained",
                   p.done, p.shape.sequences);
        return 0;
    }
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int workers = config.sweep.workers > 0 ? config.sweep.workers : cores;
    if (config.sweep.race)
        return run_race(config, out, workers, o.force, signals.token());
    return run_local(config, out, workers, o.force, signals.token());
}

} // namespace

std::function<int()> add_simulate_command(CLI::App& app)
{
    auto* sim = app.add_subcommand("simulate", "Build a simulation table: train every action sequence from a "
                                               "warm start (resumes an unfinished table in the same folder)");
    auto o = std::make_shared<SimulateOptions>();
    sim->add_option("CONFIG", o->config, "Experiment config (TOML; the original tool's schema works too), or the name of a shipped example "
                    "(rlda config examples)")
        ->required();
    sim->add_option("--out", o->out,
                    "Table folder (default runs/<name>-table; an unfinished one is resumed)");
    sim->add_flag("--force", o->force, "Empty the folder first instead of resuming");
    sim->add_option("--seeds", o->seeds,
                    "Build the table at each of these seeds, one replicate each (sweep.seeds): its mean, its spread "
                    "and how far its ranking can be trusted")
        ->check(whole_number(0, kMaxSeed));
    sim->add_option("--replicates", o->replicates, "Build R replicates, at job.seed, job.seed + 1, ... (sweep.seeds)")
        ->check(whole_number(1, core::config::kMaxReplicates));
    sim->add_flag(
        "--race", o->race,
        "Race (sweep.race): every sequence at the seeds (default job.seed and the next 2), then new seeds "
        "only for those still in the confidence set for the best (sweep.race_max_seeds, "
        "sweep.race_budget_epochs)");
    sim->add_option("--set", o->overrides, "Override a setting: section.key=value (TOML value), repeatable");
    sim->add_option("--dataset", o->dataset, "Shorthand for --set dataset.kind=\"KIND\"");
    sim->add_option("--backend", o->backend,
                    "Where the rows are trained: local (worker processes) or slurm (a job array); "
                    "default sweep.backend");
    sim->add_option("--workers", o->workers,
                    "local: worker processes (0 = one per core); slurm: parts; default sweep.workers")
        ->check(whole_number(0, kMaxWorkers));
    sim->add_option("--part", o->part,
                    "Train only part I of N (I from 0) into DIR/parts/part-I-of-N.csv; DIR must be prepared");
    sim->add_flag("--prepare", o->prepare, "Only make the folder ready for --part: config.toml and the warm start");
    return [sim, o]() -> int {
        if (!sim->parsed())
            return -1;
        sweep::die_with_parent(); // a local sweep's worker ends with the sweep (core/sweep/process.h)
        return run_simulate(*o);
    };
}

} // namespace rlda::app
