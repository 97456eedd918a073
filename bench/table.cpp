// bench_table: a simulation table built as a tree (each prefix trained once) against the same table
// built one sequence at a time (the original's way), on one core: the 64-row FeedForwardNet3
// Fashion-MNIST table of each scenario of data/fashion-mnist/tables.toml. Prints the epochs each
// trained after the warm start and the wall time each took, their ratios, and whether the two tables
// are the same bytes. The goal: the wall-time ratio within 10 % of the epoch ratio.
#include "core/config/experiment_io.h"
#include "core/sim/build.h"

#include <ATen/Parallel.h>
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <unistd.h>

namespace {

using namespace rlda::core;
namespace fs = std::filesystem;

struct Options {
    std::string tables = RLDA_SOURCE_DIR "/data/fashion-mnist/tables.toml";
    std::string model = "FeedForwardNet3";
    int decisions = 3;
    std::vector<std::string> scenarios{"early", "middle", "late"};
    std::string work; // where the tables are built; default a temporary folder, removed after
};

// The "up" of each scenario of data/fashion-mnist/build-tables (virtual seconds of 12.8).
double up_of(const std::string& scenario)
{
    if (scenario == "early")
        return 1.0;
    if (scenario == "middle")
        return 4.2;
    if (scenario == "late")
        return 7.4;
    throw std::invalid_argument(fmt::format("--scenario {}: early, middle or late", scenario));
}

struct Built {
    std::int64_t epochs = 0; // completed
    std::int64_t steps = 0;
    std::int64_t evaluations = 0;
    double seconds = 0.0; // wall time after the warm start
    std::string bytes;    // table.csv
};

std::string slurp(const fs::path& f)
{
    std::ifstream in(f, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

Built build(const config::ExperimentConfig& c, const fs::path& out, sim::BuildOrder order)
{
    Built b;
    double warm = -1.0, last = 0.0;
    sim::build_table(c, out, false, [&](const sim::BuildProgress& p) {
        if (warm < 0.0)
            warm = p.elapsed; // the first report: the warm start is ready
        last = p.elapsed;
        b.epochs = p.epochs;
        b.steps = p.steps;
        b.evaluations = p.evaluations;
    }, {}, nullptr, order);
    b.seconds = last - warm;
    b.bytes = slurp(out / "table.csv");
    return b;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    CLI::App app{"A simulation table built as a tree against one sequence at a time, on one core"};
    app.add_option("--tables", o.tables, "The tables' settings")->capture_default_str();
    app.add_option("--model", o.model)->capture_default_str();
    app.add_option("--decisions", o.decisions)->capture_default_str();
    app.add_option("--scenario", o.scenarios, "early, middle, late; repeatable")->capture_default_str();
    app.add_option("--work", o.work, "Folder to build in (kept); default a temporary one (removed)");
    CLI11_PARSE(app, argc, argv);
    at::set_num_threads(1);

    const bool temporary = o.work.empty();
    const fs::path work = temporary ? fs::temp_directory_path() / fmt::format("bench-table-{}", ::getpid()) : fs::path(o.work);
    fmt::print("{} on one core, {} decisions; after the warm start; settings {}\n", o.model, o.decisions, o.tables);
    fmt::print("epochs: training steps / steps an epoch (an epoch the budget cuts short counts its part); "
               "evals: test-set evaluations computed\n");
    fmt::print("{:<8} {:>5} {:>10} {:>10} {:>7} {:>9} {:>9} {:>7} {:>8} {:>8} {:>7} {:>8} {:>6}\n", "scenario", "rows",
               "epochs seq", "tree", "ratio", "evals seq", "tree", "ratio", "s seq", "s tree", "ratio", "off by",
               "bytes");
    bool ok = true;
    for (const auto& scenario : o.scenarios) {
        auto c = config::load_experiment(o.tables);
        config::apply_overrides(c, {fmt::format("job.model=\"{}\"", o.model), "job.head=\"logits\"",
                                    fmt::format("trainer.max_decisions={}", o.decisions),
                                    fmt::format("scheduler.events=[{{ time = {}, change = \"up\" }}]", up_of(scenario)),
                                    "sweep.threads_per_task=1"});
        const auto seq = build(c, work / (scenario + "-per-sequence"), sim::BuildOrder::PerSequence);
        const auto tree = build(c, work / (scenario + "-tree"), sim::BuildOrder::Tree);
        const double per_epoch = std::ceil(static_cast<double>(c.dataset.train_subset) / c.job.batch_size);
        const double seq_epochs = static_cast<double>(seq.steps) / per_epoch;
        const double tree_epochs = static_cast<double>(tree.steps) / per_epoch;
        const double epochs = seq_epochs / tree_epochs;
        const double evals = static_cast<double>(seq.evaluations) / static_cast<double>(tree.evaluations);
        const double wall = seq.seconds / tree.seconds;
        const double off = wall / epochs - 1.0;
        const bool same = tree.bytes == seq.bytes;
        ok = ok && same && std::abs(off) <= 0.10;
        const auto rows = std::count(tree.bytes.begin(), tree.bytes.end(), '\n') - 1;
        fmt::print("{:<8} {:>5} {:>10.1f} {:>10.1f} {:>6.2f}x {:>9} {:>9} {:>6.2f}x {:>8.1f} {:>8.1f} {:>6.2f}x {:>+7.1f}% "
                   "{:>6}\n",
                   scenario, rows, seq_epochs, tree_epochs, epochs, seq.evaluations, tree.evaluations, evals, seq.seconds,
                   tree.seconds, wall, 100.0 * off, same ? "same" : "DIFFER");
        std::fflush(stdout);
    }
    fmt::print("goal: the wall-time ratio within 10 % of the epoch ratio, the same bytes: {}\n", ok ? "met" : "NOT met");
    if (temporary) {
        std::error_code ec;
        fs::remove_all(work, ec);
    }
    return ok ? 0 : 1;
}
