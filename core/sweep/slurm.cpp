// The `slurm` sweep backend: job array submission, following, resubmission, cancelling, collection.
#include "core/sweep/slurm.h"

#include "core/config/experiment_io.h"
#include "core/sweep/local.h"
#include "core/sweep/process.h"
#include "core/table/merge.h"
#include "core/table/table_folder.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/output_folder.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <thread>

namespace rlda::core::sweep {
namespace fs = std::filesystem;
namespace {

// ---- external commands --------------------------------------------------------------------------

std::string command_line(const std::vector<std::string>& argv)
{
    return fmt::format("{}", fmt::join(argv, " "));
}

// Runs a Slurm command (looked up on PATH) without a shell, in its own process group
// (core/sweep/process.h). Error when it cannot be started; missing says so, since that is the
// usual reason on a machine without Slurm.
CommandResult run(const std::vector<std::string>& argv)
{
    try {
        return run_command(argv);
    } catch (const SpawnError& e) {
        if (e.error() == ENOENT)
            throw Error(fmt::format("{}: command not found (is Slurm installed here and on PATH?)", argv[0]));
        throw;
    }
}

std::string one_line(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}

// Error "CMD failed (exit N): STDERR".
[[noreturn]] void command_failed(const std::vector<std::string>& argv, const CommandResult& r)
{
    const std::string err = one_line(r.err.empty() ? r.out : r.err);
    throw Error(fmt::format("{} failed (exit {}){}{}", command_line(argv), r.status.shell_code(), err.empty() ? "" : ": ",
                            err));
}

// ---- the sbatch script ----------------------------------------------------------------------------

// Single quotes for bash: the paths end up in a script, never spliced unquoted into a command.
std::string shell_quote(const std::string& s)
{
    std::string q = "'";
    for (char ch : s) {
        if (ch == '\'')
            q += "'\\''";
        else
            q += ch;
    }
    return q + "'";
}

void check_one_line(const std::string& value, const std::string& key)
{
    if (value.find_first_of("\n\r") != std::string::npos)
        throw ConfigError(fmt::format("{}: a newline cannot go into an #SBATCH line", key));
}

// "--array=1,3,4".
std::string array_option(const std::vector<int>& parts)
{
    return fmt::format("--array={}", fmt::join(parts, ","));
}

// ---- sweep.json -------------------------------------------------------------------------------

constexpr const char* state_file = "sweep.json";

// Slurm's job states that mean the task has not ended yet.
bool is_active(const std::string& state)
{
    static const std::set<std::string> active{"PENDING",    "RUNNING",   "CONFIGURING", "COMPLETING",
                                              "SUSPENDED",  "REQUEUED",  "REQUEUE_HOLD", "REQUEUE_FED",
                                              "RESIZING",   "SIGNALING", "STAGE_OUT",   "STOPPED",
                                              "RESV_DEL_HOLD"};
    return active.contains(state);
}

} // namespace

// Held while a process reads sweep.json, decides and writes it back: two followers of one sweep (or
// a follower and `rlda sweep cancel`) never resubmit a task twice or undo a cancel.
class SlurmSweep::Lock {
public:
    explicit Lock(const fs::path& dir)
    {
        const auto file = dir / "sweep.lock";
        fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0)
            throw Error(fmt::format("{}: cannot open: {}", file.string(), std::strerror(errno)));
        while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
        }
    }
    ~Lock() { ::close(fd_); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

private:
    int fd_ = -1;
};

std::string sbatch_script(const config::ExperimentConfig& c, const fs::path& dir, const std::string& rlda_binary,
                          int parts)
{
    const auto& s = c.sweep;
    const fs::path abs_dir = fs::absolute(dir).lexically_normal();
    const fs::path abs_rlda = fs::absolute(rlda_binary).lexically_normal();
    for (const auto& [value, key] :
         std::vector<std::pair<std::string, std::string>>{{c.name, "name"},
                                                          {s.partition, "sweep.partition"},
                                                          {s.time_limit, "sweep.time_limit"},
                                                          {s.gres, "sweep.gres"},
                                                          {abs_dir.string(), "the sweep folder"}})
        check_one_line(value, key);
    for (std::size_t i = 0; i < s.sbatch_args.size(); ++i)
        check_one_line(s.sbatch_args[i], fmt::format("sweep.sbatch_args[{}]", i));

    std::string job_name = "rlda-" + c.name;
    std::replace_if(job_name.begin(), job_name.end(), [](char ch) { return ch == ' ' || ch == '\t'; }, '_');
    std::ostringstream o;
    o << "#!/bin/bash\n";
    o << "# A table sweep written by rlda: task i trains part i of " << parts << " into parts/.\n";
    o << "#SBATCH --job-name=" << job_name << "\n";
    o << "#SBATCH --array=0-" << parts - 1 << "\n";
    o << "#SBATCH --output=" << (abs_dir / "logs" / "%A_%a.out").string() << "\n";
    if (!s.partition.empty())
        o << "#SBATCH --partition=" << s.partition << "\n";
    if (!s.time_limit.empty())
        o << "#SBATCH --time=" << s.time_limit << "\n";
    o << "#SBATCH --cpus-per-task=" << s.cpus_per_task << "\n";
    if (!s.gres.empty())
        o << "#SBATCH --gres=" << s.gres << "\n";
    for (const auto& a : s.sbatch_args)
        o << "#SBATCH " << a << "\n";
    o << "set -e\n";
    // A place for `module load …` and the like, read at every (re)submitted task.
    o << "if [ -f " << shell_quote((abs_dir / "prologue.sh").string()) << " ]; then source "
      << shell_quote((abs_dir / "prologue.sh").string()) << "; fi\n";
    o << "exec " << shell_quote(abs_rlda.string()) << " simulate " << shell_quote((abs_dir / "config.toml").string())
      << " --out " << shell_quote(abs_dir.string()) << " --part \"$SLURM_ARRAY_TASK_ID/" << parts << "\"\n";
    return o.str();
}

SlurmSweep SlurmSweep::submit(const config::ExperimentConfig& c, const fs::path& dir, const std::string& rlda_binary,
                              int parts)
{
    const fs::path abs_dir = fs::absolute(dir).lexically_normal();
    if (!fs::exists(abs_dir / "config.toml") || !fs::exists(abs_dir / "warm_start.pt"))
        throw Error(fmt::format("{}: not a prepared sweep folder (config.toml and warm_start.pt are needed)",
                                abs_dir.string()));
    if (fs::exists(abs_dir / state_file)) {
        auto earlier = attach(abs_dir);
        earlier.poll();
        if (!earlier.finished())
            throw Error(fmt::format("{}: a Slurm sweep of this folder is still running (jobs {}); follow it with "
                                    "`rlda sweep wait {}` or cancel it with `rlda sweep cancel {}`",
                                    (abs_dir / state_file).string(), fmt::join(earlier.job_ids(), ","),
                                    abs_dir.string(), abs_dir.string()));
    }
    const auto shape = sim::table_shape(c);
    if (parts <= 0)
        parts = static_cast<int>(std::min<std::int64_t>(shape.sequences, 32));
    sim::check_part(0, parts);
    if (parts > shape.sequences)
        throw Error(fmt::format("--parts {}: more parts than the table's {} rows", parts, shape.sequences));
    std::string binary = rlda_binary;
    // /proc/self/exe of a process whose binary was rebuilt in place since it started: the tasks
    // run the file now at that path.
    constexpr std::string_view deleted = " (deleted)";
    if (!fs::exists(binary) && binary.ends_with(deleted))
        binary.resize(binary.size() - deleted.size());
    if (!fs::exists(binary))
        throw Error(fmt::format("{}: the rlda binary for the tasks does not exist", rlda_binary));

    SlurmSweep s;
    s.dir_ = abs_dir;
    s.rlda_ = fs::absolute(binary).lexically_normal().string();
    s.parts_ = parts;
    s.max_retries_ = std::max(0, c.sweep.max_retries);
    s.decisions_ = shape.decisions;
    s.num_actions_ = shape.num_actions;
    s.sequences_ = shape.sequences;
    s.seeds_ = shape.seeds;
    const Lock lock(abs_dir);
    for (const char* sub : {"logs", "parts"}) // a resumed folder's may be files, or links
        make_subfolder(abs_dir, sub);
    sim::clear_build_failure(abs_dir); // an earlier build's; this one says again if it fails
    write_text_atomically(abs_dir / "sweep.sbatch", sbatch_script(c, abs_dir, s.rlda_, parts));
    const std::vector<std::string> argv{"sbatch", "--parsable", (abs_dir / "sweep.sbatch").string()};
    const auto job = s.sbatch(argv);
    s.jobs_.push_back(job);
    s.tasks_.assign(static_cast<std::size_t>(parts), Task{job, 1, 0, {}});
    s.save();
    return s;
}

std::string SlurmSweep::sbatch(const std::vector<std::string>& argv) const
{
    // The tasks' working folder: relative paths in the config resolve from the sweep folder.
    std::vector<std::string> args{argv[0], "--chdir=" + dir_.string()};
    args.insert(args.end(), argv.begin() + 1, argv.end());
    const auto r = run(args);
    if (!r.status.success())
        command_failed(args, r);
    // --parsable: "JOBID" or "JOBID;CLUSTER".
    std::string id = one_line(r.out);
    if (const auto semi = id.find(';'); semi != std::string::npos)
        id.resize(semi);
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        throw Error(fmt::format("{}: unexpected answer '{}'", command_line(args), one_line(r.out)));
    return id;
}

SlurmSweep SlurmSweep::attach(const fs::path& dir)
{
    SlurmSweep s;
    s.dir_ = fs::absolute(dir).lexically_normal();
    s.load();
    return s;
}

void SlurmSweep::load()
{
    const fs::path file = dir_ / state_file;
    std::error_code ec;
    if (!fs::exists(file, ec))
        throw Error(fmt::format("{}: no Slurm sweep recorded here (submit one with `rlda simulate CONFIG --out {} "
                                "--backend slurm`)",
                                file.string(), dir_.string()));
    const std::string text = read_text_file(file); // a folder or an unreadable file in one line
    std::vector<Task> tasks;
    try {
        const auto j = nlohmann::json::parse(text);
        rlda_ = j.at("rlda").get<std::string>();
        parts_ = j.at("parts").get<int>();
        max_retries_ = j.at("max_retries").get<int>();
        decisions_ = j.at("decisions").get<int>();
        num_actions_ = j.at("num_actions").get<int>();
        sequences_ = j.at("sequences").get<std::int64_t>();
        seeds_ = j.value("seeds", std::vector<std::uint64_t>{}); // absent before replicated tables
        jobs_ = j.at("jobs").get<std::vector<std::string>>();
        collected_ = j.at("collected").get<bool>();
        cancelled_ = j.at("cancelled").get<bool>();
        for (const auto& t : j.at("tasks"))
            tasks.push_back(Task{t.at("job").get<std::string>(), t.at("attempts").get<int>(), 0,
                                 t.value("detail", std::string{})});
    } catch (const nlohmann::json::exception& e) {
        throw Error(fmt::format("{}: not a Slurm sweep record: {}", file.string(), message_excerpt(e.what())));
    }
    if (parts_ < 1 || static_cast<int>(tasks.size()) != parts_ || num_actions_ < 1 || decisions_ < 1)
        throw Error(fmt::format("{}: not a Slurm sweep record: inconsistent parts", file.string()));
    // What this process saw of a task survives a reload as long as the task was not resubmitted.
    for (std::size_t i = 0; i < tasks.size() && i < tasks_.size(); ++i)
        if (tasks[i].job == tasks_[i].job)
            tasks[i].ended_polls = tasks_[i].ended_polls;
    tasks_ = std::move(tasks);
}

void SlurmSweep::save() const
{
    nlohmann::json tasks = nlohmann::json::array();
    for (const auto& t : tasks_)
        tasks.push_back({{"job", t.job}, {"attempts", t.attempts}, {"detail", t.detail}});
    nlohmann::json j{{"backend", config::to_string(config::SweepBackend::Slurm)}, {"rlda", rlda_},
                           {"parts", parts_},        {"max_retries", max_retries_},
                           {"decisions", decisions_}, {"num_actions", num_actions_},
                           {"sequences", sequences_}, {"jobs", jobs_},
                           {"tasks", tasks},          {"collected", collected_},
                           {"cancelled", cancelled_}};
    if (!seeds_.empty())
        j["seeds"] = seeds_;
    write_text_atomically(dir_ / state_file, j.dump(2) + "\n");
}

std::vector<std::string> SlurmSweep::job_ids() const
{
    return jobs_;
}

// Every task of the sweep's jobs that squeue still knows, "JOB_TASK" → state. A job squeue has
// forgotten (MinJobAge) is simply absent.
std::map<std::string, std::string> SlurmSweep::queue(bool active_only) const
{
    std::map<std::string, std::string> states;
    if (jobs_.empty())
        return states;
    std::vector<std::string> argv{"squeue", "-h", "-r", "-j", fmt::format("{}", fmt::join(jobs_, ",")), "-o", "%i %T"};
    if (!active_only)
        argv.insert(argv.begin() + 3, {"-t", "all"});
    const auto r = run(argv);
    if (!r.status.success()) {
        // One job id that squeue no longer knows makes it fail instead of printing nothing.
        if (r.err.find("Invalid job id") != std::string::npos)
            return states;
        command_failed(argv, r);
    }
    std::istringstream lines(r.out);
    std::string id;
    std::string state;
    while (lines >> id >> state)
        states[id] = state;
    return states;
}

// What accounting says about tasks squeue has forgotten; empty when accounting is off (sacct then
// fails: the backend works without it).
std::map<std::string, std::string> SlurmSweep::accounting() const
{
    std::map<std::string, std::string> states;
    const std::vector<std::string> argv{"sacct", "-n", "-P", "-X", "-j", fmt::format("{}", fmt::join(jobs_, ",")),
                                        "-o", "JobID,State"};
    CommandResult r;
    try {
        r = run(argv);
    } catch (const Error&) {
        return states;
    }
    if (!r.status.success())
        return states;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
        const auto bar = line.find('|');
        if (bar == std::string::npos)
            continue;
        std::string state = line.substr(bar + 1);
        // "CANCELLED by 0" → "CANCELLED".
        state = state.substr(0, state.find(' '));
        states[line.substr(0, bar)] = state;
    }
    return states;
}

// Rows of each part held by its part file or by table.csv (rows collected from an earlier sweep):
// what the local backend's status() reads from the same files.
std::vector<int> SlurmSweep::rows_done() const
{
    std::vector<int> done;
    for (const auto& t : status(dir_, shape(), parts_).tasks)
        done.push_back(t.rows_done);
    return done;
}

SweepStatus SlurmSweep::poll()
{
    const Lock lock(dir_);
    load();
    SweepStatus st;
    st.seeds = static_cast<int>(std::max<std::size_t>(1, seeds_.size()));
    st.rows_total = static_cast<int>(shape().rows());
    st.collected = collected_;
    st.cancelled = cancelled_;
    const auto done = rows_done();
    const bool stopped = collected_ || cancelled_;
    const auto queued = stopped ? std::map<std::string, std::string>{} : queue(false);
    std::map<std::string, std::string> accounted;
    bool accounting_asked = false;
    std::vector<int> to_resubmit;
    for (int i = 0; i < parts_; ++i) {
        auto& t = tasks_[static_cast<std::size_t>(i)];
        TaskStatus ts;
        ts.part = i;
        ts.id = fmt::format("{}_{}", t.job, i);
        ts.attempts = t.attempts;
        ts.rows_total = static_cast<int>(sim::part_size(shape(), i, parts_) *
                                         static_cast<std::int64_t>(std::max<std::size_t>(1, seeds_.size())));
        ts.rows_done = std::min(done[static_cast<std::size_t>(i)], ts.rows_total);
        ts.detail = t.detail;
        const auto q = queued.find(ts.id);
        const bool active = q != queued.end() && is_active(q->second);
        if (ts.rows_done >= ts.rows_total) {
            ts.state = TaskState::Done;
            t.ended_polls = 0;
        } else if (active) {
            ts.state = q->second == "PENDING" ? TaskState::Pending : TaskState::Running;
            t.ended_polls = 0;
        } else if (stopped) {
            ts.state = TaskState::Failed;
            if (cancelled_)
                ts.detail = "cancelled";
        } else {
            // Ended with its part incomplete. Seen twice before acting: on a shared filesystem the
            // last rows may reach this machine a moment after the task ends.
            std::string state = q != queued.end() ? q->second : "";
            if (state.empty()) {
                if (!accounting_asked) {
                    accounted = accounting();
                    accounting_asked = true;
                }
                const auto a = accounted.find(ts.id);
                state = a != accounted.end() ? a->second : "gone from squeue";
            }
            const std::string log = (dir_ / "logs" / fmt::format("{}_{}.out", t.job, i)).string();
            ts.detail = fmt::format("{} {} with {}/{} rows (log {})", ts.id, state, ts.rows_done, ts.rows_total, log);
            if (++t.ended_polls < 2) {
                ts.state = TaskState::Running;
            } else if (t.attempts <= max_retries_) {
                ts.state = TaskState::Pending;
                t.detail = ts.detail;
                to_resubmit.push_back(i);
            } else {
                ts.state = TaskState::Failed;
                t.detail = ts.detail;
            }
        }
        st.rows_done += ts.rows_done;
        st.tasks.push_back(ts);
    }
    if (!to_resubmit.empty()) {
        resubmit(to_resubmit);
        for (int i : to_resubmit) {
            auto& ts = st.tasks[static_cast<std::size_t>(i)];
            const auto& t = tasks_[static_cast<std::size_t>(i)];
            ts.id = fmt::format("{}_{}", t.job, i);
            ts.attempts = t.attempts;
        }
    }
    if (!stopped && st.count(TaskState::Failed) > 0 && st.count(TaskState::Pending) == 0 &&
        st.count(TaskState::Running) == 0) {
        // Failed for good: the other parts' rows still go into table.csv (incomplete).
        sim::collect_table(dir_, config::load_experiment((dir_ / "config.toml").string()));
        sim::record_build_failure(dir_, failure_message(dir_, st));
    }
    if (!stopped && st.count(TaskState::Done) == parts_) {
        const fs::path config_file = dir_ / "config.toml";
        const auto c = config::load_experiment(config_file.string());
        const auto table = sim::collect_table(dir_, c);
        if (!table.complete())
            throw Error(fmt::format("{}: every part is complete but the collected table has {} of {} rows",
                                    (dir_ / "table.csv").string(), table.rows().size(), sequences_));
        collected_ = true;
        st.collected = true;
        save();
    }
    status_ = st;
    return st;
}

void SlurmSweep::resubmit(const std::vector<int>& parts)
{
    const std::vector<std::string> argv{"sbatch", "--parsable", array_option(parts), (dir_ / "sweep.sbatch").string()};
    const auto job = sbatch(argv);
    jobs_.push_back(job);
    for (int i : parts) {
        auto& t = tasks_[static_cast<std::size_t>(i)];
        t.job = job;
        ++t.attempts;
        t.ended_polls = 0;
    }
    save();
}

bool SlurmSweep::finished() const
{
    if (collected_ || cancelled_)
        return true;
    if (status_.tasks.empty())
        return false;
    // A part that failed for good leaves the table incomplete; wait only for the others.
    return status_.count(TaskState::Failed) > 0 && status_.count(TaskState::Pending) == 0 &&
           status_.count(TaskState::Running) == 0;
}

void SlurmSweep::cancel(double timeout_seconds)
{
    {
        // Recorded first: a poll from another process must not resubmit the tasks being cancelled.
        const Lock lock(dir_);
        load();
        if (collected_)
            return; // complete: nothing left to cancel
        cancelled_ = true;
        save();
    }
    if (!jobs_.empty()) {
        std::vector<std::string> argv{"scancel"};
        argv.insert(argv.end(), jobs_.begin(), jobs_.end());
        const auto r = run(argv);
        if (!r.status.success() && r.err.find("Invalid job id") == std::string::npos)
            command_failed(argv, r);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    while (!queue(true).empty()) {
        if (std::chrono::steady_clock::now() > deadline)
            throw Error(fmt::format("scancel {}: the jobs are still in squeue after {} s", fmt::join(jobs_, " "),
                                    timeout_seconds));
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    // The rows finished so far into table.csv: the collector takes whole lines only, so a row a
    // task was writing when killed never reaches it.
    const auto c = config::load_experiment((dir_ / "config.toml").string());
    sim::collect_table(dir_, c);
    status_.cancelled = true;
}

} // namespace rlda::core::sweep
