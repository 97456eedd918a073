// Child processes for the sweep backends: one way to start a program (its own process group, a
// clean signal set-up), to see it end, and to stop it together with whatever it started.
#pragma once

#include "core/util/error.h"

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::sweep {

// How a child ended.
struct ExitStatus {
    int code = 0;     // its exit code, when it exited
    int signal = 0;   // the signal that killed it; 0 when it exited
    std::string lost; // why waitpid failed (the child was reaped elsewhere); empty when it did not

    bool success() const { return lost.empty() && signal == 0 && code == 0; }
    // The shell's convention: the exit code, or 128 + the signal that killed it.
    int shell_code() const { return signal != 0 ? 128 + signal : code; }
    // "exit code 1", "killed by signal 9 (Killed)", "lost: No child processes".
    std::string describe() const;
};

// A program that could not be started; error() is posix_spawn's errno (ENOENT: no such program).
class SpawnError : public Error {
public:
    SpawnError(const std::string& what, int error) : Error(what), error_(error) {}
    int error() const { return error_; }

private:
    int error_;
};

struct CommandResult;
CommandResult run_command(const std::vector<std::string>& argv);

// A child process, owned by one thread (the one that polls and stops it; nothing here is
// thread-safe). Destroying one that still runs stops it as terminate(5 s) does, so that no path,
// an exception's included, leaves a child behind.
//
// Every child starts
// - in a process group of its own: a terminal's Ctrl-C reaches rlda only, which stops its children
//   in order, and a Ctrl-C that only detaches (rlda sweep wait) cannot kill an sbatch half way;
//   signals to the group reach whatever the child started too;
// - with an empty signal mask, and SIGINT, SIGTERM and SIGPIPE at their default dispositions
//   whatever rlda ignores (handlers rlda installed are reset by exec anyway);
// - with stdin from /dev/null.
//
// A child started with ParentDeath::Kill (the local sweep's workers, which are rlda itself) gets
// kParentPidVariable=<our pid> in its environment; rlda calls die_with_parent() at start, so the
// kernel kills it when we die, SIGKILL of us included, where no handler of ours could run.
class Process {
public:
    enum class ParentDeath {
        Ignore, // it outlives us (sbatch, squeue: short commands; a Slurm job must not inherit the variable)
        Kill,   // it is killed when we die, once it has called die_with_parent()
    };

    // Starts argv[0] (searched on PATH when it holds no '/') with arguments argv. With a `log`,
    // stdout and stderr are both appended to it (created 0644); without, they are rlda's own.
    // Throws SpawnError "PROGRAM: cannot start: reason" ("PROGRAM: command not found" for ENOENT).
    // ParentDeath::Kill ties it to the calling thread (the kernel's parent-death signal follows
    // the thread that started it), so start it from a thread that lives as long as it should.
    static Process start(const std::vector<std::string>& argv, const std::filesystem::path& log = {},
                         ParentDeath on_parent_death = ParentDeath::Ignore);

    Process() = default; // no process
    Process(Process&& other) noexcept;
    Process& operator=(Process&& other) noexcept;
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;
    ~Process();

    // The child's pid, which is also its process group's id; -1 once it was reaped.
    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0; }

    // Its exit status once it ended (it is reaped then), without blocking; nullopt while it runs.
    std::optional<ExitStatus> poll();
    // Blocks until it ends.
    ExitStatus wait();
    // SIGTERM to its process group, SIGKILL to the group if it has not ended after `grace`; reaps.
    ExitStatus terminate(std::chrono::milliseconds grace);
    // The same for several at once: SIGTERM to every group first, so they all share one grace.
    static void terminate_all(std::span<Process> processes, std::chrono::milliseconds grace);

private:
    friend CommandResult run_command(const std::vector<std::string>& argv);
    explicit Process(pid_t pid) : pid_(pid) {}
    // Polls until it ends; SIGKILL to its group at `deadline`.
    ExitStatus reap_by(std::chrono::steady_clock::time_point deadline);

    pid_t pid_ = -1;
};

// The environment variable through which Process::start(..., ParentDeath::Kill) names the parent.
inline constexpr const char* kParentPidVariable = "RLDA_PARENT_PID";

// For the child side, called first thing by a program Process::start may have started with
// ParentDeath::Kill: when kParentPidVariable is set, asks the kernel for SIGKILL when the parent
// dies (prctl PR_SET_PDEATHSIG), then, should the parent have died before that, exits at once
// (code 128 + SIGKILL) since no one would stop it; removes the variable so that what it starts does
// not inherit it. Does nothing when the variable is not set.
void die_with_parent();

// What a command printed, and how it ended.
struct CommandResult {
    ExitStatus status;
    std::string out;
    std::string err;
};

// Runs argv as Process::start does and waits for it, collecting stdout and stderr (both read at
// once, so a child filling one pipe never blocks). Throws SpawnError when it cannot be started.
CommandResult run_command(const std::vector<std::string>& argv);

// Processes this one did not start, known by pid only (the detached rlda that follows a sweep).
// Whether `pid` runs `program` (a name or a path; /proc/PID/comm keeps the first 15 bytes of its
// file name) and is not a zombie: a detached process stays one where nothing reaps it (a
// container's init may not). false for pid <= 0, a pid gone, or one reused by another program.
bool process_alive(std::int64_t pid, std::string_view program);
// SIGTERM to `pid` (the process alone, not its group) when process_alive(pid, program); whether it
// was sent. What the program does then is its own: `rlda simulate` stops its workers, keeping whole
// rows; `rlda sweep wait` detaches.
bool stop_process(std::int64_t pid, std::string_view program);

} // namespace rlda::core::sweep
