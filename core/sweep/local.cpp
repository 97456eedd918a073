// Worker processes for a sweep's parts (core/sweep/process.h): one each, polled, retried, stopped.
#include "core/sweep/local.h"

#include "core/config/experiment_io.h"
#include "core/sweep/process.h"
#include "core/table/sequences.h"
#include "core/table/table_folder.h"
#include "core/util/error.h"
#include "core/util/output_folder.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <thread>

namespace rlda::core::sweep {
namespace {

namespace fs = std::filesystem;

bool same(const SweepStatus& a, const SweepStatus& b)
{
    if (a.rows_done != b.rows_done || a.tasks.size() != b.tasks.size())
        return false;
    for (std::size_t i = 0; i < a.tasks.size(); ++i) {
        const auto& x = a.tasks[i];
        const auto& y = b.tasks[i];
        if (x.state != y.state || x.rows_done != y.rows_done || x.attempts != y.attempts)
            return false;
    }
    return true;
}

fs::path log_file(const fs::path& out, int part, int parts)
{
    return out / "parts" / fmt::format("part-{}-of-{}.log", part, parts);
}

// The last non-empty line of a child's log: usually its error message.
std::string last_line(const fs::path& file)
{
    // A log may be long: its last 64 KiB hold the last line.
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    std::ifstream in(file, std::ios::binary);
    if (!ec && size > (1u << 16))
        in.seekg(static_cast<std::streamoff>(size - (1u << 16)));
    std::string line;
    std::string last;
    while (std::getline(in, line))
        if (!line.empty())
            last = line;
    return last;
}

Process spawn_part(const fs::path& program, const fs::path& out, int part, int parts)
{
    // Absolute: a folder named "-x" is never read as an option (--out=-x works; --out -x would not).
    const fs::path folder = fs::absolute(out);
    return Process::start({program.string(), "simulate", (folder / "config.toml").string(), "--out",
                           folder.string(), "--part", fmt::format("{}/{}", part, parts)},
                          log_file(out, part, parts), Process::ParentDeath::Kill);
}

} // namespace

SweepStatus status(const fs::path& out, const sim::TableShape& shape, int parts)
{
    if (parts < 1)
        throw Error(fmt::format("{}: a sweep needs at least one part, not {}", out.string(), parts));
    if (!shape.seeds.empty()) {
        // A replicated table: part i is part i of every seed's table, each in its own folder.
        sim::TableShape one = shape;
        one.seeds.clear();
        SweepStatus all;
        all.seeds = static_cast<int>(shape.seeds.size());
        for (const auto seed : shape.seeds) {
            const SweepStatus s = status(sim::seed_folder(out, seed), one, parts);
            if (all.tasks.empty())
                all.tasks = s.tasks;
            else
                for (std::size_t i = 0; i < s.tasks.size(); ++i) {
                    all.tasks[i].rows_done += s.tasks[i].rows_done;
                    all.tasks[i].rows_total += s.tasks[i].rows_total;
                }
            all.rows_done += s.rows_done;
            all.rows_total += s.rows_total;
        }
        for (auto& t : all.tasks)
            t.state = t.rows_done == t.rows_total ? TaskState::Done : TaskState::Pending;
        return all;
    }
    SweepStatus s;
    s.rows_total = static_cast<int>(shape.sequences);
    std::set<std::int64_t> codes;
    for (const auto& r : sim::read_table_file(out / "table.csv", shape.decisions, /*growing=*/true).rows)
        codes.insert(sim::sequence_code(r.actions, shape.num_actions));
    for (int i = 0; i < parts; ++i)
        for (const auto& r : sim::read_table_file(sim::part_file(out, i, parts), shape.decisions, /*growing=*/true).rows)
            codes.insert(sim::sequence_code(r.actions, shape.num_actions));
    for (int i = 0; i < parts; ++i) {
        TaskStatus t;
        t.part = i;
        t.rows_total = static_cast<int>(sim::part_size(shape, i, parts));
        s.tasks.push_back(t);
    }
    for (const auto code : codes) {
        if (code < 0 || code >= shape.sequences)
            continue;
        ++s.rows_done;
        ++s.tasks[static_cast<std::size_t>(sim::part_of(code, parts, shape.decisions, shape.num_actions))].rows_done;
    }
    for (auto& t : s.tasks)
        t.state = t.rows_done == t.rows_total ? TaskState::Done : TaskState::Pending;
    return s;
}

SweepStatus status(const fs::path& out, int parts)
{
    return status(out, sim::table_shape(config::load_experiment((out / "config.toml").string())), parts);
}

SweepStatus run_parts(const fs::path& out, const sim::TableShape& shape, const LocalOptions& o,
                      const StatusFn& progress, const std::stop_token& stop)
{
    const int parts = o.workers;
    if (parts < 1)
        throw Error(fmt::format("--workers {}: a local sweep needs at least one worker", parts));
    const fs::path program = o.program.empty() ? fs::read_symlink("/proc/self/exe") : o.program;
    make_subfolder(out, "parts"); // a resumed folder's parts/ may be a file, or a link
    sim::clear_build_failure(out); // an earlier build's; this one says again if it fails
    const auto poll = std::chrono::duration<double>(std::max(0.01, o.poll_seconds));

    SweepStatus s = status(out, shape, parts);
    std::vector<Process> children(static_cast<std::size_t>(parts));
    std::vector<TaskStatus> runner = s.tasks; // states and attempts as this runner knows them
    SweepStatus reported;
    const auto refresh = [&] {
        SweepStatus disk = status(out, shape, parts);
        for (std::size_t i = 0; i < disk.tasks.size(); ++i) {
            auto& t = disk.tasks[i];
            t.attempts = runner[i].attempts;
            t.detail = runner[i].detail;
            t.id = runner[i].id;
            if (runner[i].state == TaskState::Running || runner[i].state == TaskState::Failed)
                t.state = runner[i].state;
        }
        s = std::move(disk);
        if (progress && !same(s, reported))
            progress(s);
        reported = s;
    };
    const auto start = [&](std::size_t i) {
        children[i] = spawn_part(program, out, static_cast<int>(i), parts);
        ++runner[i].attempts;
        runner[i].id = std::to_string(children[i].pid());
        runner[i].state = TaskState::Running;
    };

    for (std::size_t i = 0; i < runner.size(); ++i)
        if (runner[i].state != TaskState::Done)
            start(i);
    refresh();
    while (std::ranges::any_of(children, &Process::running)) {
        if (stop.stop_requested()) {
            Process::terminate_all(children, std::chrono::seconds(5));
            for (auto& t : runner)
                if (t.state == TaskState::Running)
                    t.state = TaskState::Pending;
            refresh();
            s.cancelled = true;
            return s;
        }
        bool ended = false;
        for (std::size_t i = 0; i < children.size(); ++i) {
            const auto exit = children[i].poll();
            if (!exit)
                continue;
            ended = true;
            const auto on_disk = status(out, shape, parts).tasks[i];
            if (exit->success() && on_disk.rows_done == on_disk.rows_total) {
                runner[i].state = TaskState::Done;
                runner[i].detail.clear();
                continue;
            }
            const std::string why = exit->describe();
            const std::string said = last_line(log_file(out, static_cast<int>(i), parts));
            runner[i].detail = said.empty() ? why : fmt::format("{}: {}", why, said);
            if (runner[i].attempts <= o.max_retries)
                start(i);
            else
                runner[i].state = TaskState::Failed;
        }
        if (!ended)
            std::this_thread::sleep_for(poll);
        refresh();
    }
    if (s.count(TaskState::Failed) > 0)
        sim::record_build_failure(out, failure_message(out, s));
    return s;
}

std::string failure_message(const fs::path& out, const SweepStatus& s)
{
    const int parts = static_cast<int>(s.tasks.size());
    for (const auto& t : s.tasks)
        if (t.state == TaskState::Failed)
            return fmt::format("part {}/{} failed {} time{} ({}); the rows of the other parts were collected; "
                               "see {}",
                               t.part, parts, t.attempts, t.attempts == 1 ? "" : "s", t.detail,
                               log_file(out, t.part, parts).string());
    return {};
}

} // namespace rlda::core::sweep
