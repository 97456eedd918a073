// `rlda sweep status|wait|cancel DIR`: a Slurm sweep looked at, followed to its end, or cancelled,
// from any shell that sees the sweep folder (it re-attaches through DIR/sweep.json).
#include "app/cli/commands.h"
#include "app/cli/interrupts.h"

#include "core/config/experiment_io.h"
#include "core/sweep/slurm.h"
#include "core/util/error.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

namespace rlda::app {
namespace {

namespace sweep = core::sweep;

struct SweepOptions {
    std::string dir;
    bool quiet = false; // wait: only the end
};

// "1 done, 1 running (try 2)".
std::string task_counts(const sweep::SweepStatus& s)
{
    std::vector<std::string> counts;
    for (auto state : {sweep::TaskState::Done, sweep::TaskState::Running, sweep::TaskState::Pending,
                       sweep::TaskState::Failed})
        if (const int n = s.count(state); n > 0)
            counts.push_back(fmt::format("{} {}", n, sweep::to_string(state)));
    int retried = 0;
    for (const auto& t : s.tasks)
        retried += t.attempts > 1;
    if (retried > 0)
        counts.push_back(fmt::format("{} resubmitted", retried));
    return fmt::format("{}", fmt::join(counts, ", "));
}

std::string summary(const sweep::SlurmSweep& job, const sweep::SweepStatus& s)
{
    const char* state = s.collected ? "collected" : s.cancelled ? "cancelled" : job.finished() ? "failed" : "running";
    return fmt::format("rows {}/{} ({}) {}", s.rows_done, s.rows_total, task_counts(s), state);
}

// Error naming the failed parts and their logs; "" when none failed.
std::string failures(const sweep::SweepStatus& s)
{
    std::vector<std::string> lines;
    for (const auto& t : s.tasks)
        if (t.state == sweep::TaskState::Failed)
            lines.push_back(fmt::format("part {} failed after {} {}: {}", t.part, t.attempts,
                                            t.attempts == 1 ? "try" : "tries", t.detail));
    return fmt::format("{}", fmt::join(lines, "; "));
}

int run_status(const SweepOptions& o)
{
    auto job = sweep::SlurmSweep::attach(o.dir);
    const auto s = job.poll();
    fmt::print("sweep: {} (jobs {})\n", std::filesystem::absolute(o.dir).lexically_normal().string(),
               fmt::join(job.job_ids(), ", "));
    fmt::print("{}\n", summary(job, s));
    for (const auto& t : s.tasks)
        fmt::print("part {} {} {} rows {}/{}{}{}\n", t.part, t.id, sweep::to_string(t.state), t.rows_done,
                   t.rows_total, t.attempts > 1 ? fmt::format(" try {}", t.attempts) : "",
                   t.detail.empty() ? "" : " (" + t.detail + ")");
    return 0;
}

double poll_seconds(const std::filesystem::path& dir)
{
    try {
        return core::config::load_experiment((dir / "config.toml").string()).sweep.poll_seconds;
    } catch (const core::Error&) {
        return 2.0; // the poll itself names what is wrong with the folder
    }
}

} // namespace

// Follows a Slurm sweep until it ends: one progress line whenever the rows or the task states change.
// 0 when table.csv is complete, an Error naming the failed parts, 130 when it was cancelled or when
// Ctrl-C / SIGTERM detached this process from it (the jobs go on).
int follow_slurm_sweep(sweep::SlurmSweep& job, double poll_every, bool quiet)
{
    const Interrupts signals; // Ctrl-C / SIGTERM: detach (the jobs are the cluster's, and keep running)
    std::string last;
    for (;;) {
        if (signals.requested()) {
            const auto dir = job.dir().string();
            fmt::print("detached: jobs {} keep running; follow them with `rlda sweep wait {}`, stop them with "
                       "`rlda sweep cancel {}`\n",
                       fmt::join(job.job_ids(), ", "), dir, dir);
            return 130;
        }
        const auto s = job.poll();
        const auto line = summary(job, s);
        if (!quiet && line != last) {
            fmt::print("{}\n", line);
            std::fflush(stdout);
        }
        last = line;
        if (job.finished()) {
            if (s.collected) {
                fmt::print("table: {}/table.csv\nrows: {}\n", job.dir().string(), s.rows_done);
                return 0;
            }
            if (s.cancelled)
                return 130;
            throw core::Error(failures(s));
        }
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(poll_every);
        while (!signals.requested() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

std::function<int()> add_sweep_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("sweep", "Look at, follow or cancel a table sweep submitted to Slurm "
                                            "(rlda simulate --backend slurm)");
    cmd->require_subcommand(1);
    auto o = std::make_shared<SweepOptions>();
    auto* status = cmd->add_subcommand("status", "Print the state of every part of the sweep in DIR");
    auto* wait = cmd->add_subcommand("wait", "Follow the sweep in DIR until it ends (resubmitting failed parts) "
                                             "and collect table.csv");
    auto* cancel = cmd->add_subcommand("cancel", "scancel every job of the sweep in DIR; whole rows are kept and "
                                                 "collected into table.csv");
    for (auto* sub : {status, wait, cancel})
        sub->add_option("DIR", o->dir, "The sweep folder (holds sweep.json)")->required();
    wait->add_flag("--quiet", o->quiet, "Print only the end");
    return [cmd, status, wait, cancel, o]() -> int {
        if (!cmd->parsed())
            return -1;
        if (status->parsed())
            return run_status(*o);
        if (wait->parsed()) {
            auto job = sweep::SlurmSweep::attach(o->dir);
            return follow_slurm_sweep(job, poll_seconds(job.dir()), o->quiet);
        }
        if (cancel->parsed()) {
            auto job = sweep::SlurmSweep::attach(o->dir);
            job.cancel();
            const auto s = job.poll();
            if (s.collected) {
                fmt::print("nothing to cancel: the sweep is complete ({}/table.csv)\n", job.dir().string());
                return 0;
            }
            fmt::print("cancelled: jobs {}; {} of {} rows kept in {}/table.csv\n", fmt::join(job.job_ids(), ", "),
                       s.rows_done, s.rows_total, job.dir().string());
            return 0;
        }
        return 2;
    };
}

} // namespace rlda::app
