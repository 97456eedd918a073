// The sweeps' process runner: posix_spawn with one signal set-up, waitpid, process-group signals.
#include "core/sweep/process.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string_view>
#include <thread>
#include <utility>

extern char** environ;

namespace rlda::core::sweep {
namespace {

constexpr auto kDestroyGrace = std::chrono::seconds(5);

ExitStatus from_wait_status(int st)
{
    ExitStatus s;
    if (WIFEXITED(st))
        s.code = WEXITSTATUS(st);
    else if (WIFSIGNALED(st))
        s.signal = WTERMSIG(st);
    return s;
}

ExitStatus lost(int error)
{
    ExitStatus s;
    s.lost = std::strerror(error);
    return s;
}

// posix_spawn's two structures, destroyed on every path.
class SpawnSetup {
public:
    SpawnSetup()
    {
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attr);
        posix_spawnattr_setpgroup(&attr, 0);
        sigset_t none;
        sigemptyset(&none);
        posix_spawnattr_setsigmask(&attr, &none);
        sigset_t defaults;
        sigemptyset(&defaults);
        for (int sig : {SIGINT, SIGTERM, SIGPIPE})
            sigaddset(&defaults, sig);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    }
    ~SpawnSetup()
    {
        posix_spawnattr_destroy(&attr);
        posix_spawn_file_actions_destroy(&actions);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;

    // `extra_env`: NAME=value entries that replace those of the same name in our environment.
    pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env = {})
    {
        if (argv.empty())
            throw SpawnError("cannot start a process without a program", EINVAL);
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        std::vector<char*> env;
        for (char** e = environ; *e != nullptr; ++e) {
            const std::string_view entry(*e);
            const bool replaced = std::ranges::any_of(extra_env, [&](const std::string& x) {
                const auto name = std::string_view(x).substr(0, x.find('=') + 1);
                return entry.starts_with(name);
            });
            if (!replaced)
                env.push_back(*e);
        }
        for (const auto& x : extra_env)
            env.push_back(const_cast<char*>(x.c_str()));
        env.push_back(nullptr);
        pid_t pid = -1;
        const int rc = posix_spawnp(&pid, argv[0].c_str(), &actions, &attr, args.data(), env.data());
        if (rc == ENOENT)
            throw SpawnError(fmt::format("{}: command not found", argv[0]), rc);
        if (rc != 0)
            throw SpawnError(fmt::format("{}: cannot start: {}", argv[0], std::strerror(rc)), rc);
        return pid;
    }

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
};

} // namespace

std::string ExitStatus::describe() const
{
    if (!lost.empty())
        return "lost: " + lost;
    if (signal != 0)
        return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
    return fmt::format("exit code {}", code);
}

Process Process::start(const std::vector<std::string>& argv, const std::filesystem::path& log,
                       ParentDeath on_parent_death)
{
    SpawnSetup setup;
    if (!log.empty()) {
        posix_spawn_file_actions_addopen(&setup.actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                         0644);
        posix_spawn_file_actions_adddup2(&setup.actions, STDOUT_FILENO, STDERR_FILENO);
    }
    std::vector<std::string> env;
    if (on_parent_death == ParentDeath::Kill)
        env.push_back(fmt::format("{}={}", kParentPidVariable, ::getpid()));
    return Process(setup.spawn(argv, env));
}

void die_with_parent()
{
    const char* value = std::getenv(kParentPidVariable);
    if (value == nullptr)
        return;
    char* end = nullptr;
    const long parent = std::strtol(value, &end, 10);
    const bool valid = end != value && *end == '\0' && parent > 1;
    ::unsetenv(kParentPidVariable);
    if (!valid)
        return;
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    // The parent may have died between our start and the prctl: we were re-parented then.
    if (::getppid() != static_cast<pid_t>(parent))
        ::_exit(128 + SIGKILL);
}

Process::Process(Process&& other) noexcept : pid_(std::exchange(other.pid_, -1)) {}

Process& Process::operator=(Process&& other) noexcept
{
    if (this != &other) {
        if (running())
            terminate(kDestroyGrace);
        pid_ = std::exchange(other.pid_, -1);
    }
    return *this;
}

Process::~Process()
{
    if (running())
        terminate(kDestroyGrace);
}

std::optional<ExitStatus> Process::poll()
{
    if (!running())
        return std::nullopt;
    int st = 0;
    const pid_t r = ::waitpid(pid_, &st, WNOHANG);
    if (r == 0 || (r < 0 && errno == EINTR))
        return std::nullopt;
    pid_ = -1;
    return r > 0 ? from_wait_status(st) : lost(errno);
}

ExitStatus Process::wait()
{
    if (!running())
        return lost(ECHILD);
    int st = 0;
    pid_t r;
    while ((r = ::waitpid(pid_, &st, 0)) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return r > 0 ? from_wait_status(st) : lost(errno);
}

ExitStatus Process::reap_by(std::chrono::steady_clock::time_point deadline)
{
    while (running()) {
        if (auto s = poll())
            return *s;
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(-pid_, SIGKILL);
            return wait();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return lost(ECHILD);
}

ExitStatus Process::terminate(std::chrono::milliseconds grace)
{
    if (!running())
        return lost(ECHILD);
    ::kill(-pid_, SIGTERM);
    return reap_by(std::chrono::steady_clock::now() + grace);
}

void Process::terminate_all(std::span<Process> processes, std::chrono::milliseconds grace)
{
    for (const auto& p : processes)
        if (p.running())
            ::kill(-p.pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    for (auto& p : processes)
        p.reap_by(deadline);
}

CommandResult run_command(const std::vector<std::string>& argv)
{
    const std::string name = argv.empty() ? std::string("(none)") : argv[0];
    int out_pipe[2];
    int err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0)
        throw SpawnError(fmt::format("{}: pipe: {}", name, std::strerror(errno)), errno);
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
        const int e = errno;
        close(out_pipe[0]);
        close(out_pipe[1]);
        throw SpawnError(fmt::format("{}: pipe: {}", name, std::strerror(e)), e);
    }
    Process child;
    {
        SpawnSetup setup;
        posix_spawn_file_actions_adddup2(&setup.actions, out_pipe[1], STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&setup.actions, err_pipe[1], STDERR_FILENO);
        try {
            child = Process(setup.spawn(argv));
        } catch (...) {
            for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]})
                close(fd);
            throw;
        }
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    CommandResult r;
    // Both pipes at once: a child that fills one while we block on the other would never end.
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&r.out, &r.err};
    int open_fds = 2;
    char buf[4096];
    while (open_fds > 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                sinks[i]->append(buf, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            }
        }
    }
    for (auto& f : fds)
        if (f.fd >= 0)
            close(f.fd);
    r.status = child.wait();
    return r;
}

bool process_alive(std::int64_t pid, std::string_view program)
{
    if (pid <= 0 || pid > std::numeric_limits<pid_t>::max())
        return false;
    // "PID (COMM) STATE ...": COMM may hold spaces and parentheses, so it ends at the last ')'.
    std::ifstream in(fmt::format("/proc/{}/stat", pid));
    const std::string stat{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const auto open = stat.find('(');
    const auto close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open || close + 2 >= stat.size())
        return false;
    constexpr std::size_t comm_length = 15; // the kernel's TASK_COMM_LEN - 1
    const std::string name = std::filesystem::path(program).filename().string().substr(0, comm_length);
    return std::string_view(stat).substr(open + 1, close - open - 1) == name && stat[close + 2] != 'Z';
}

bool stop_process(std::int64_t pid, std::string_view program)
{
    return process_alive(pid, program) && ::kill(static_cast<pid_t>(pid), SIGTERM) == 0;
}

} // namespace rlda::core::sweep
