// Output folders: whose a folder is, how --force replaces one without ever losing a user's file, and
// the one-writer lock. The rules are in the header.
#include "core/util/output_folder.h"

#include "core/util/error.h"
#include "core/util/system_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <regex>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rlda::core {
namespace fs = std::filesystem;

namespace {

// Every file name rlda writes at the top of an output folder (a `.tmp` of one is a write a kill
// interrupted). Kept to the names: anything else in a folder without the marker makes it a user's.
constexpr std::array kRldaFiles = {
    ".rlda",      ".rlda.lock",  "config.toml", "events.jsonl", "warm_start.pt", "model.pt",
    "architecture.json", "policy.pt", "table.csv",  "table.json",  "features.csv", "ranks.csv",   "folds.csv",
    "sweep.json", "sweep.sbatch", "sweep.lock", "notes.json",
};
// The files that only rlda's folders had before the marker: one of them must be there.
constexpr std::array kSignatures = {"events.jsonl", "ranks.csv", "table.json"};

bool one_of(std::string_view name, const auto& names)
{
    return std::ranges::any_of(names, [&](std::string_view n) { return n == name; });
}

bool rlda_file_name(std::string name)
{
    if (name.ends_with(".tmp"))
        name.resize(name.size() - 4);
    return one_of(name, kRldaFiles);
}

// The folders rlda writes inside an output folder, and the names of what they hold.
bool rlda_subfolder_entry(std::string_view folder, const std::string& name)
{
    static const std::regex metrics(R"([A-Za-z0-9_]+\.csv(\.tmp)?)");
    static const std::regex parts(R"(part-\d+-of-\d+\.(csv|features\.csv|log|lock)(\.tmp)?)");
    static const std::regex figures(R"([A-Za-z0-9_.-]+\.(png|pdf|svg))");
    static const std::regex logs(R"([0-9_]+\.out)");
    if (folder == "metrics")
        return std::regex_match(name, metrics);
    if (folder == "parts")
        return std::regex_match(name, parts);
    if (folder == "figures")
        return std::regex_match(name, figures);
    if (folder == "logs")
        return std::regex_match(name, logs);
    return false;
}

bool only_rlda_entries(const fs::path& dir, int depth);

// One entry of an output folder: a file rlda writes, one of its subfolders holding only what rlda
// writes there, or (reproductions, transfer runs) a run folder of its own. Never a symbolic link.
bool rlda_entry(const fs::directory_entry& e, int depth)
{
    std::error_code ec;
    const std::string name = e.path().filename().string();
    if (e.is_symlink(ec))
        return false;
    if (e.is_regular_file(ec))
        return rlda_file_name(name);
    if (!e.is_directory(ec))
        return false;
    if (name == "metrics" || name == "parts" || name == "figures" || name == "logs") {
        for (const auto& inner : fs::directory_iterator(e.path(), ec)) {
            if (inner.is_symlink(ec) || !inner.is_regular_file(ec) ||
                !rlda_subfolder_entry(name, inner.path().filename().string()))
                return false;
        }
        return !ec;
    }
    // A run inside a reproduction or a transfer run (<model>-seed<N>/ holds policy.pt alone).
    return depth < 2 && (fs::is_regular_file(e.path() / kOutputMarker, ec) || only_rlda_entries(e.path(), depth + 1));
}

bool only_rlda_entries(const fs::path& dir, int depth)
{
    std::error_code ec;
    bool any = false;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (!rlda_entry(e, depth))
            return false;
        any = true;
    }
    return any && !ec;
}

// The folder itself, symbolic links resolved; a path that does not exist stays as it is (made
// absolute through its existing parents).
fs::path resolved(const fs::path& p)
{
    std::error_code ec;
    fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? fs::absolute(p).lexically_normal() : r;
}

// Empty apart from the lock file a failed earlier attempt may have left.
bool holds_nothing(const fs::path& dir)
{
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().filename() != kOutputLock)
            return false;
    return !ec;
}

// A pid as the lock file holds it; 0 when it holds none (the holder had not written it yet).
long read_pid(int fd)
{
    char buffer[32] = {};
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    long pid = 0;
    if (n > 0)
        std::from_chars(buffer, buffer + n, pid);
    return pid;
}

// The first folder (the folder itself included) under `dir` that this process cannot empty:
// removing an entry needs write and search permission on the folder that holds it. Empty when all can.
std::optional<fs::path> first_unremovable(const fs::path& dir)
{
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return dir;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
    if (ec)
        return dir;
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec)
            return dir;
        if (it->is_directory(ec) && !it->is_symlink(ec) && ::access(it->path().c_str(), W_OK | X_OK | R_OK) != 0)
            return it->path();
    }
    return std::nullopt;
}

// Error naming the pid when another process holds `dir`'s lock; takes nothing, creates nothing.
void refuse_if_locked(const fs::path& shown, const fs::path& dir)
{
    const fs::path file = dir / kOutputLock;
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return;
    const bool busy = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    const long pid = busy ? read_pid(fd) : 0;
    ::close(fd);
    if (busy)
        throw Error(fmt::format("{}: in use by another rlda process{}; wait for it to end or choose another --out",
                                shown.string(), pid > 0 ? fmt::format(" (pid {})", pid) : std::string()));
}

void check_inputs(const fs::path& shown, const fs::path& dir, const InputPaths& inputs)
{
    for (const auto& input : inputs) {
        std::error_code ec;
        if (input.empty() || !fs::exists(input, ec))
            continue;
        if (lies_inside(input, dir))
            throw Error(fmt::format("{}: --force would delete {}, an input of this command; choose another --out",
                                    shown.string(), input.string()));
    }
}

void write_marker(const fs::path& dir)
{
    const fs::path file = dir / kOutputMarker;
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        throw system_error_for(file, "cannot write", errno);
    static constexpr std::string_view text = "made by rlda; --force may replace this folder\n";
    const ssize_t n = ::write(fd, text.data(), text.size());
    const int err = errno;
    ::close(fd);
    if (n != static_cast<ssize_t>(text.size()))
        throw system_error_for(file, "cannot write", n < 0 ? err : ENOSPC);
}

void create_folder(const fs::path& shown, const fs::path& dir)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw system_error_for(shown, "cannot create the folder", ec.value());
    if (!fs::is_directory(dir, ec))
        throw Error(fmt::format("{}: cannot create the folder: a file has its name", shown.string()));
}

} // namespace

bool lies_inside(const fs::path& path, const fs::path& dir)
{
    const fs::path p = resolved(path);
    const fs::path d = resolved(dir);
    auto pi = p.begin();
    for (auto di = d.begin(); di != d.end(); ++di, ++pi) {
        if (di->empty() && std::next(di) == d.end()) // a trailing separator
            return true;
        if (pi == p.end() || *pi != *di)
            return false;
    }
    return true;
}

bool made_by_rlda(const fs::path& dir)
{
    const fs::path d = resolved(dir);
    std::error_code ec;
    if (fs::is_regular_file(d / kOutputMarker, ec))
        return true;
    const bool signed_ = std::ranges::any_of(kSignatures, [&](const char* n) { return fs::is_regular_file(d / n, ec); });
    return signed_ && only_rlda_entries(d, 0);
}

FolderLock FolderLock::take(const fs::path& lock_file, const std::string& what)
{
    const int fd = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        throw system_error_for(lock_file, "cannot open the lock file", errno);
    FolderLock lock{FileHandle(fd)};
    int rc;
    while ((rc = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        if (errno == EWOULDBLOCK) {
            const long pid = read_pid(fd);
            throw Error(fmt::format("{}: in use by another rlda process{}; wait for it to end or choose another --out",
                                    what, pid > 0 ? fmt::format(" (pid {})", pid) : std::string()));
        }
        // A file system without locks (some network mounts): the folder is written unlocked.
        if (errno != ENOLCK && errno != EOPNOTSUPP)
            throw system_error_for(lock_file, "cannot lock", errno);
    }
    const std::string pid = fmt::format("{}\n", ::getpid());
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
        throw system_error_for(lock_file, "cannot write", errno);
    return lock;
}

namespace {

// check_output_folder; `holding`: this process holds the folder's lock already (a second look,
// after taking it), so the lock is not probed.
void check_folder(const fs::path& dir, bool force, const InputPaths& inputs, bool holding)
{
    if (dir.empty())
        throw Error("--out: an empty path; name the output folder");
    std::error_code ec;
    const auto link = fs::symlink_status(dir, ec);
    if (link.type() == fs::file_type::symlink && !fs::exists(dir, ec))
        throw Error(fmt::format("{}: a symbolic link to {}, which does not exist; choose another --out", dir.string(),
                                fs::read_symlink(dir, ec).string()));
    const fs::path real = resolved(dir);
    const auto status = fs::status(real, ec);
    if (status.type() == fs::file_type::not_found)
        return;
    if (ec)
        throw system_error_for(dir, "cannot read", ec.value());
    if (status.type() != fs::file_type::directory)
        throw Error(fmt::format("{}: exists and is not a folder; choose another --out", dir.string()));
    if (holds_nothing(real))
        return;
    const bool ours = made_by_rlda(real);
    if (ours && !holding)
        refuse_if_locked(dir, real);
    if (!force)
        throw Error(fmt::format("{}: the folder exists and is not empty; choose another --out{}", dir.string(),
                                ours ? " or pass --force to replace it" : ""));
    if (!ours)
        throw Error(fmt::format("{}: not a folder rlda made (no {} marker, and it holds files rlda does not write); "
                                "--force only replaces rlda's output folders; choose an empty or new --out",
                                dir.string(), kOutputMarker));
    check_inputs(dir, real, inputs);
    if (const auto stuck = first_unremovable(real))
        throw Error(fmt::format("{}: cannot replace the folder: {}: permission denied; nothing was deleted",
                                dir.string(), stuck->string()));
}

} // namespace

void check_output_folder(const fs::path& dir, bool force, const InputPaths& inputs)
{
    check_folder(dir, force, inputs, false);
}

FolderLock prepare_output_folder(const fs::path& dir, bool force, const InputPaths& inputs)
{
    check_output_folder(dir, force, inputs);
    const fs::path real = resolved(dir);
    const std::string shown = dir.string();
    std::error_code ec;
    if (!fs::exists(real, ec)) {
        create_folder(dir, real);
        FolderLock lock = FolderLock::take(real / kOutputLock, shown);
        write_marker(real);
        return lock;
    }
    // Locked before it is looked at again: another writer's folder is never touched.
    FolderLock lock = FolderLock::take(real / kOutputLock, shown);
    if (holds_nothing(real)) {
        write_marker(real);
        return lock;
    }
    check_folder(dir, force, inputs, true); // again, now that nobody else writes it
    // Moved aside in one step, so that whatever fails after leaves either the old folder whole
    // (under its new name, which the message gives) or the new one.
    const fs::path aside = real.parent_path() / fmt::format(".{}.rlda-replaced-{}", real.filename().string(), ::getpid());
    if (::rename(real.c_str(), aside.c_str()) != 0)
        throw system_error_for(dir, "cannot replace the folder (nothing was deleted)", errno);
    FolderLock old = std::move(lock);
    try {
        create_folder(dir, real);
        lock = FolderLock::take(real / kOutputLock, shown);
        write_marker(real);
    } catch (...) {
        std::error_code ignored;
        fs::remove_all(real, ignored);
        if (::rename(aside.c_str(), real.c_str()) != 0)
            throw Error(fmt::format("{}: the old folder is kept as {}", shown, aside.string()));
        throw;
    }
    fs::remove_all(aside, ec);
    if (ec)
        throw system_error_for(aside, "cannot remove the replaced folder (remove it by hand)", ec.value());
    return lock;
}

FolderLock lock_output_folder(const fs::path& dir)
{
    return FolderLock::take(resolved(dir) / kOutputLock, dir.string());
}

} // namespace rlda::core
