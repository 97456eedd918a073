// `rlda simulate CONFIG.toml [--out DIR] [--force] [--set section.key=value]…`: builds the simulation
// table of every action sequence, one progress line per row; running it again resumes.
#include "app/cli/commands.h"

#include "core/config/experiment_io.h"
#include "core/sim/build.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdio>
#include <memory>

namespace rlda::app {
namespace {

struct SimulateOptions {
    std::string config;
    std::string out;
    bool force = false;
    std::vector<std::string> overrides;
    std::string dataset;
};

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

void print_progress(const core::sim::BuildProgress& p)
{
    if (!p.row && p.to_compute == 0) {
        fmt::print("nothing to train: all {} rows are in the table\n", p.total);
    } else if (!p.row) {
        fmt::print("warm start: {}; {} of {} rows to train\n", p.warm_start_reused ? "reused" : "trained",
                   p.to_compute, p.total);
    } else {
        fmt::print("row {}/{} [{}] accuracy {:.4f} (ETA {})\n", p.done, p.total,
                   fmt::join(p.row->actions, " "), p.row->accuracy, duration(p.eta));
    }
    std::fflush(stdout);
}

int run_simulate(const SimulateOptions& o)
{
    auto config = core::config::load_experiment(o.config);
    if (!o.dataset.empty())
        core::config::apply_override(config, fmt::format("dataset.kind=\"{}\"", o.dataset));
    for (const auto& assignment : o.overrides)
        core::config::apply_override(config, assignment);
    // Not dated, unlike `rlda train`: the same command run again finds its folder and resumes.
    const std::string out = o.out.empty() ? fmt::format("runs/{}-table", config.name) : o.out;
    fmt::print("table folder: {}\n", out);
    std::fflush(stdout);
    const auto table = core::sim::build_table(config, out, o.force, print_progress);
    fmt::print("table: {}/table.csv\nrows: {}\n", out, table.rows().size());
    return table.complete() ? 0 : 130;
}

} // namespace

std::function<int()> add_simulate_command(CLI::App& app)
{
    auto* sim = app.add_subcommand("simulate", "Build a simulation table: train every action sequence from a "
                                               "warm start (resumes an unfinished table in the same folder)");
    auto o = std::make_shared<SimulateOptions>();
    sim->add_option("CONFIG", o->config, "Experiment config (TOML; the original tool's schema works too)")
        ->required();
    sim->add_option("--out", o->out,
                    "Table folder (default runs/<name>-table; an unfinished one is resumed)");
    sim->add_flag("--force", o->force, "Empty the folder first instead of resuming");
    sim->add_option("--set", o->overrides, "Override a setting: section.key=value (TOML value), repeatable");
    sim->add_option("--dataset", o->dataset, "Shorthand for --set dataset.kind=\"KIND\"");
    return [sim, o]() -> int {
        if (!sim->parsed())
            return -1;
        return run_simulate(*o);
    };
}

} // namespace rlda::app
