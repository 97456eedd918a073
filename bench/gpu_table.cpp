// bench_gpu_table: rows per minute of one 64-row ConvNet2 table (CIFAR-shaped synthetic data, 3
// decisions over 4 actions) built by `rlda simulate` on this machine's CPU cores and on its GPU, each
// figure printed as a ratio against the CPU measured in the same run (docs/gpu.md). In this order,
// the most valuable first, so that a run cut short keeps what matters most:
//   replicated R seeds (sweep.seeds), R processes on the GPU against one fused process (sweep.fused)
//   gpu x1     one process on the GPU
//   gpu xN     N processes sharing the GPU (the local backend's --workers N)
//   cpu        --workers <cores>, one LibTorch thread each: the reference, last
// The warm start is trained first (`rlda simulate --prepare`) and not timed: the figure is what the
// rows cost. --device cpu runs every configuration on the CPU (the dry run on a machine without a GPU).
#include "core/sweep/process.h"
#include "core/table/table_status.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using rlda::core::sweep::Process;

// ConvNet2's 3 blocks + Do Nothing over 3 decisions: 64 rows; the dry run's 2 decisions: 16.
constexpr int kDecisions = 3;
constexpr int kQuickDecisions = 2;

struct Options {
    std::string rlda = RLDA_BIN_DIR "/rlda";
    std::string device = "cuda";
    int cpu_workers = 0; // 0 = one per core
    std::vector<int> shared{4, 8, 16};
    int replicates = 8;
    bool quick = false; // a table a 2-core machine builds in seconds: the dry run
    int decisions() const { return quick ? kQuickDecisions : kDecisions; }
    std::string work;   // where the tables are built; default a temporary folder, removed after
};

// The experiment: ConvNet2 on 3x32x32 synthetic images in 10 classes, "up" early, 3 decisions (quick:
// 2, so that every configuration of the dry run still builds a whole table, a quarter the size).
std::string experiment(const Options& o)
{
    // 64 steps of 64 an epoch at 0.01 virtual s a step, 5 epochs (quick: 16x16 images, 4 steps of
    // 32 at 0.05 s, 5 epochs): the "up" after the first epoch, then every sequence.
    const int side = o.quick ? 16 : 32;
    const int batch = o.quick ? 32 : 64;
    const int train = o.quick ? 128 : 4096;
    const int test = o.quick ? 64 : 1024;
    const double step = o.quick ? 0.05 : 0.01;
    const double budget = o.quick ? 1.0 : 3.2;
    return fmt::format(R"(name = "gpu-table"
[job]
model = "ConvNet2"
batch_size = {}
optimizer = "sgd"
lr = 0.05
momentum = 0.9
seed = 1
[dataset]
kind = "synthetic"
shape = [3, {}, {}]
classes = 10
train_size = {}
test_size = {}
[scheduler]
budget = {}
events = [{{ time = {}, change = "up" }}]
clock = "virtual"
step_cost = {}
[trainer]
max_decisions = {}
[sweep]
threads_per_task = 1
)",
                       batch, side, side, train, test, budget, budget / 5.0, step, o.decisions());
}

struct Measured {
    std::string name;
    double rows = 0.0; // trained: the built table's rows times its seeds, as counted in its folder
    double seconds = 0.0;
    double wall_start = 0.0,
           wall_end = 0.0; // Unix seconds of the timed build: gpu-check joins its GPU samples to them
    bool ok = false;
    double per_minute() const { return seconds > 0.0 ? rows * 60.0 / seconds : 0.0; }
};

// rlda with these arguments, its output appended to `log`; true when it succeeded.
bool rlda(const Options& o, std::vector<std::string> args, const fs::path& log)
{
    args.insert(args.begin(), o.rlda);
    const auto status = Process::start(args, log).wait();
    if (!status.success())
        std::fprintf(stderr, "bench_gpu_table: %s failed (%s); see %s\n", args[1].c_str(), status.describe().c_str(),
                     log.string().c_str());
    return status.success();
}

// The rows a table folder holds, each seed's counted (a replicated table's row is one per seed).
double rows_trained(const fs::path& table)
{
    const auto status = rlda::core::sim::table_status(table);
    const std::size_t seeds = status.meta ? status.meta->seeds.size() : 0;
    return static_cast<double>(status.rows) * static_cast<double>(std::max<std::size_t>(1, seeds));
}

// One table built from scratch in `dir`: the warm start untimed, then the rows timed.
Measured build(const Options& o, const fs::path& dir, const std::string& name, const std::string& device,
               int workers, const std::vector<std::string>& more_sets)
{
    Measured m{name};
    fs::create_directories(dir);
    const fs::path config = dir / "experiment.toml";
    std::ofstream(config) << experiment(o);
    std::vector<std::string> common{"--set", fmt::format("job.device=\"{}\"", device)};
    for (const auto& s : more_sets) {
        common.push_back("--set");
        common.push_back(s);
    }
    const fs::path out = dir / "table";
    const fs::path log = dir / "rlda.log";
    std::vector<std::string> prepare{"simulate", config.string(), "--out", out.string(), "--prepare"};
    prepare.insert(prepare.end(), common.begin(), common.end());
    if (!rlda(o, prepare, log))
        return m;
    std::vector<std::string> rows_run{"simulate", config.string(), "--out", out.string(), "--workers",
                                      std::to_string(workers)};
    rows_run.insert(rows_run.end(), common.begin(), common.end());
    const auto unix_now = [] {
        return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    };
    const auto started = std::chrono::steady_clock::now();
    m.wall_start = unix_now();
    m.ok = rlda(o, rows_run, log);
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    m.wall_end = unix_now();
    if (m.ok)
        m.rows = rows_trained(out);
    return m;
}

std::string seeds_list(int r)
{
    std::string s = "sweep.seeds=[";
    for (int i = 0; i < r; ++i)
        s += fmt::format("{}{}", i ? ", " : "", 1 + i);
    return s + "]";
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    CLI::App app{"Rows per minute of a 64-row ConvNet2 table on the CPU cores and on the GPU (docs/gpu.md)"};
    app.add_option("--rlda", o.rlda, "The rlda program");
    app.add_option("--device", o.device, "The GPU (cpu: every configuration on the CPU, the dry run)");
    app.add_option("--cpu-workers", o.cpu_workers, "CPU worker processes of the reference; 0 = one per core");
    app.add_option("--shared", o.shared, "Process counts sharing the GPU")->delimiter(',');
    app.add_option("--replicates", o.replicates, "Seeds of the replicated table, fused and separate");
    app.add_flag("--quick", o.quick, "A small table for a 2-core machine (the dry run)");
    app.add_option("--work", o.work, "Build the tables here (kept); default a temporary folder");
    CLI11_PARSE(app, argc, argv);
    if (o.cpu_workers <= 0)
        o.cpu_workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

    const bool temporary = o.work.empty();
    const fs::path work = temporary ? fs::temp_directory_path() / fmt::format("bench_gpu_table-{}", ::getpid())
                                    : fs::path(o.work);
    std::vector<Measured> all;
    const auto run = [&](const std::string& name, const std::string& device, int workers,
                         const std::vector<std::string>& sets = {}) {
        const Measured m = build(o, work / fmt::format("{:02}", all.size()), name, device, workers, sets);
        // Each figure as it comes: a run cut short still says what it measured.
        std::printf("%-40s %8.1f rows/min  (%.0f rows in %.1f s; wall %.1f-%.1f)%s\n", name.c_str(),
                    m.per_minute(), m.rows, m.seconds, m.wall_start, m.wall_end, m.ok ? "" : "  FAILED");
        std::fflush(stdout);
        all.push_back(m);
        return m;
    };

    std::printf("bench_gpu_table: device %s, %d CPU cores%s\n", o.device.c_str(), o.cpu_workers,
                o.quick ? ", quick" : "");
    // In the order of what matters most, so that a run the budget cuts short keeps the best figures
    // (issue 44): the replicated pair (a ratio of two GPU builds, no CPU needed), one process, the
    // shared runs, and the CPU reference last, against which the ratios are printed at the end.
    const std::string seeds = seeds_list(o.replicates);
    const Measured separate =
        run(fmt::format("{}: {} seeds, {} separate processes", o.device, o.replicates, o.replicates),
            o.device, o.replicates, {seeds, "sweep.fused=\"off\""});
    const Measured fused = run(fmt::format("{}: {} seeds fused in 1 process", o.device, o.replicates),
                               o.device, 1, {seeds, "sweep.fused=\"on\""});
    if (separate.ok && fused.ok && separate.per_minute() > 0)
        std::printf("fused against separate processes (%d seeds): %.2fx\n", o.replicates,
                    fused.per_minute() / separate.per_minute());
    run(fmt::format("{}: 1 process", o.device), o.device, 1);
    for (const int n : o.shared)
        run(fmt::format("{}: {} processes sharing it", o.device, n), o.device, n);
    const Measured cpu = run(fmt::format("cpu: {} worker processes", o.cpu_workers), "cpu", o.cpu_workers);

    std::printf("\nratios against the CPU's %.1f rows/min:\n", cpu.per_minute());
    bool ok = cpu.ok;
    for (const auto& m : all) {
        ok = ok && m.ok;
        if (&m == &all.back())
            continue; // the CPU itself
        std::printf("  %-40s %6.2fx\n", m.name.c_str(), cpu.per_minute() > 0 ? m.per_minute() / cpu.per_minute() : 0.0);
    }
    if (separate.ok && fused.ok && separate.per_minute() > 0)
        std::printf("fused against separate processes (%d seeds): %.2fx\n", o.replicates,
                    fused.per_minute() / separate.per_minute());
    if (temporary) {
        std::error_code ec;
        fs::remove_all(work, ec);
    }
    return ok ? 0 : 1;
}
