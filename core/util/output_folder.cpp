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
#include <cstdio>
#include <cstring>
#include <optional>
#include <regex>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace rlda::core {
namespace fs = std::filesystem;

namespace {

// What rlda writes into the marker, and what the marker of a folder of rlda's holds.
constexpr std::string_view kMarkerText = "made by rlda; --force may replace this folder\n";

// Every file name rlda writes at the top of an output folder (a `.tmp` of one is a write a kill
// interrupted). Kept to the names: anything else in a folder without the marker makes it a user's.
constexpr std::array kRldaFiles = {
    ".rlda",      ".rlda.lock",  "config.toml", "events.jsonl", "warm_start.pt", "model.pt",
    "architecture.json", "policy.pt", "table.csv",  "table.json",  "features.csv", "ranks.csv",   "folds.csv",
    "sweep.json", "sweep.sbatch", "sweep.lock", "notes.json",
};

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
bool holds_marker(int dir);

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
    const FileHandle sub(::open(e.path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    return depth < 2 && sub.fd() >= 0 && (holds_marker(sub.fd()) || only_rlda_entries(e.path(), depth + 1));
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

// An open folder: what was checked through it is what is locked, replaced and written.
struct OpenFolder {
    FileHandle fd;
    // The folder as a path that stays on it whatever is renamed (Linux's /proc/self/fd/N).
    fs::path path() const { return fs::path("/proc/self/fd") / std::to_string(fd.fd()); }
};

// `name` under the open folder `parent`, not following a symbolic link; no descriptor when it does
// not exist. Error when it is a link or not a folder: it changed after it was checked.
FileHandle open_folder_at(int parent, const std::string& name, const fs::path& shown)
{
    const int fd = ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0 || errno == ENOENT)
        return FileHandle(fd);
    if (errno == ELOOP || errno == ENOTDIR)
        throw Error(
            fmt::format("{}: changed while rlda prepared it (it is no longer a folder); nothing was deleted",
                        shown.string()));
    throw system_error_for(shown, "cannot open the folder", errno);
}

// `name` under `parent` as a folder, not through a link; no descriptor when it is anything else.
FileHandle open_dir_at(int parent, const std::string& name)
{
    return FileHandle(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

// A small regular file under an open folder, not through a link: its first `limit` bytes, or
// nothing when it is missing, a link or not a regular file.
std::optional<std::string> read_small_at(int dir, const char* name, std::size_t limit)
{
    const FileHandle f(::openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
    struct stat st {};
    if (f.fd() < 0 || ::fstat(f.fd(), &st) != 0 || !S_ISREG(st.st_mode))
        return std::nullopt;
    std::string text(limit, '\0');
    const ssize_t n = ::pread(f.fd(), text.data(), limit, 0);
    if (n < 0)
        return std::nullopt;
    text.resize(static_cast<std::size_t>(n));
    return text;
}

// The marker rlda writes, as rlda writes it: a regular file, not a link, holding kMarkerText.
bool holds_marker(int dir)
{
    return read_small_at(dir, kOutputMarker, kMarkerText.size() + 1) == std::string(kMarkerText);
}

// A folder made before the marker: every entry one rlda writes, and a table.json in rlda's format,
// which only rlda writes (names alone, config.toml or events.jsonl, are anybody's).
bool rlda_before_the_marker(const OpenFolder& dir)
{
    const auto meta = read_small_at(dir.fd.fd(), "table.json", 1 << 16);
    return meta && meta->find(R"("format": "rlda-table")") != std::string::npos &&
           only_rlda_entries(dir.path(), 0);
}

bool made_by_rlda_at(const OpenFolder& dir)
{
    return holds_marker(dir.fd.fd()) || rlda_before_the_marker(dir);
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

// The process holding a flock(2) on the file `st` describes, from /proc/locks; 0 when none is found
// (what the file says is not trusted: a lock taken by another program never wrote it).
long lock_holder(const struct stat& st)
{
    bool truncated = false;
    std::string locks;
    try {
        locks = read_file_prefix("/proc/locks", 1 << 20, truncated);
    } catch (const Error&) {
        return 0;
    }
    // "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF", the device in hex; "1: -> FLOCK ..." waits.
    const std::string inode = fmt::format("{:02x}:{:02x}:{}", major(st.st_dev), minor(st.st_dev), st.st_ino);
    std::size_t at = 0;
    while (at < locks.size()) {
        const std::size_t end = std::min(locks.find('\n', at), locks.size());
        const std::string_view line(locks.data() + at, end - at);
        at = end + 1;
        if (line.find(" FLOCK ") == std::string_view::npos || line.find("->") != std::string_view::npos)
            continue;
        long pid = 0;
        char device[64] = {};
        if (std::sscanf(std::string(line.substr(line.find(" FLOCK "))).c_str(), " FLOCK %*s %*s %ld %63s",
                        &pid, device) == 2 &&
            inode == device)
            return pid;
    }
    return 0;
}

[[noreturn]] void refuse_busy(const std::string& what, int fd)
{
    struct stat st {};
    const long pid = ::fstat(fd, &st) == 0 ? lock_holder(st) : 0;
    throw Error(fmt::format("{}: in use by another process{}; wait for it to end or choose another --out",
                            what, pid > 0 ? fmt::format(" (pid {})", pid) : std::string()));
}

// The first folder (the folder itself included) under `dir` that this process cannot empty:
// removing an entry needs write and search permission on the folder that holds it. Empty when all can.
std::optional<fs::path> first_unremovable(const fs::path& dir, const fs::path& shown)
{
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return shown;
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
    if (ec)
        return shown;
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec)
            return shown;
        if (it->is_directory(ec) && !it->is_symlink(ec) && ::access(it->path().c_str(), W_OK | X_OK | R_OK) != 0)
            return shown / it->path().lexically_relative(dir);
    }
    return std::nullopt;
}

// Error naming the holder when another process holds the lock of the open folder `dir`; takes
// nothing, creates nothing.
void refuse_if_locked(const std::string& shown, int dir)
{
    const FileHandle f(::openat(dir, kOutputLock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
    if (f.fd() >= 0 && ::flock(f.fd(), LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        refuse_busy(shown, f.fd());
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

void write_marker(int dir, const fs::path& shown)
{
    const FileHandle f(
        ::openat(dir, kOutputMarker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644));
    const fs::path file = shown / kOutputMarker;
    if (f.fd() < 0)
        throw system_error_for(file, "cannot write", errno);
    const ssize_t n = ::write(f.fd(), kMarkerText.data(), kMarkerText.size());
    if (n != static_cast<ssize_t>(kMarkerText.size()))
        throw system_error_for(file, "cannot write", n < 0 ? errno : ENOSPC);
}

// The parent of `real` opened (created when missing), and `real`'s own name in it.
std::pair<OpenFolder, std::string> open_parent(const fs::path& shown, const fs::path& real)
{
    std::error_code ec;
    fs::create_directories(real.parent_path(), ec);
    if (ec)
        throw system_error_for(shown, "cannot create the folder", ec.value());
    const int fd = ::open(real.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        throw system_error_for(shown, "cannot create the folder", errno);
    return {OpenFolder{FileHandle(fd)}, real.filename().string()};
}

bool same_file(int a, int b)
{
    struct stat sa {
    }, sb{};
    return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Everything inside the open folder `dir`, its lock file last; then the folder itself, named
// `name` in `parent`, which rmdir(2) removes only when it is that folder and empty.
void remove_folder(const OpenFolder& dir, int parent, const std::string& name, std::error_code& ec)
{
    for (const auto& e : fs::directory_iterator(dir.path(), ec))
        if (e.path().filename() != kOutputLock)
            fs::remove_all(e.path(), ec);
    if (ec)
        return;
    ::unlinkat(dir.fd.fd(), kOutputLock, 0);
    const FileHandle now = open_dir_at(parent, name);
    if (now.fd() >= 0 && same_file(now.fd(), dir.fd.fd()) &&
        ::unlinkat(parent, name.c_str(), AT_REMOVEDIR) != 0)
        ec.assign(errno, std::generic_category());
}

// What a --force killed while it removed the old folder left: `.NAME.rlda-replaced-PID`, with
// nobody holding its lock. Removed now, as that --force asked.
void remove_leftovers(const OpenFolder& parent, const std::string& name)
{
    const std::regex aside(
        fmt::format(R"(\.{}\.rlda-replaced-\d+)",
                    std::regex_replace(name, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)")));
    std::error_code ec;
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(parent.path(), ec))
        if (std::regex_match(e.path().filename().string(), aside))
            found.push_back(e.path().filename().string());
    for (const auto& old : found) {
        const OpenFolder dir{open_dir_at(parent.fd.fd(), old)};
        const FileHandle lock(
            ::openat(dir.fd.fd(), kOutputLock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
        if (dir.fd.fd() < 0 || (lock.fd() >= 0 && ::flock(lock.fd(), LOCK_EX | LOCK_NB) != 0))
            continue; // its --force is still removing it
        remove_folder(dir, parent.fd.fd(), old, ec);
    }
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

fs::path output_path(const fs::path& dir)
{
    const fs::path real = resolved(dir);
    std::error_code ec;
    return real == fs::absolute(dir, ec).lexically_normal() ? dir : real;
}

bool made_by_rlda(const fs::path& dir)
{
    const int fd = ::open(resolved(dir).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return fd >= 0 && made_by_rlda_at(OpenFolder{FileHandle(fd)});
}

long folder_writer(const fs::path& dir)
{
    struct stat st {};
    if (::lstat((dir / kOutputLock).c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    return lock_holder(st);
}

FolderLock FolderLock::take_in(int dir, const fs::path& folder, const std::string& what)
{
    return take_opened(dir, kOutputLock, folder / kOutputLock, what, folder);
}

fs::path FolderLock::path(const fs::path& as_given) const
{
    std::error_code ec;
    return fs::absolute(as_given, ec).lexically_normal() == folder_ ? as_given : folder_;
}

FolderLock FolderLock::take(const fs::path& lock_file, const std::string& what)
{
    return take_opened(AT_FDCWD, lock_file.c_str(), lock_file, what, lock_file.parent_path());
}

FolderLock FolderLock::take_opened(int dir, const char* name, const fs::path& lock_file,
                                   const std::string& what, const fs::path& folder)
{
    FileHandle file(::openat(dir, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644));
    const int fd = file.fd();
    if (fd < 0) {
        if (errno == ELOOP)
            throw Error(
                fmt::format("{}: a symbolic link; rlda writes its lock into no file but its own; remove it",
                            lock_file.string()));
        throw system_error_for(lock_file, "cannot open the lock file", errno);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw system_error_for(lock_file, "cannot open the lock file", errno);
    // Written with a pid below: never a file of the user's that another name reaches, nor a FIFO.
    if (!S_ISREG(st.st_mode))
        throw Error(fmt::format("{}: {}, not a lock file rlda made; remove it", lock_file.string(),
                                kind_of(st.st_mode)));
    if (st.st_nlink > 1)
        throw Error(fmt::format("{}: a file with {} names (hard links), not a lock file rlda made; remove it",
                                lock_file.string(), st.st_nlink));
    FolderLock lock{std::move(file), folder};
    int rc;
    while ((rc = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        if (errno == EWOULDBLOCK)
            refuse_busy(what, fd);
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

// check_output_folder of the folder `real` (the resolved `dir`), seen through `folder` when it is
// open; `holding`: this process holds its lock already (a second look, after taking it).
void check_existing(const fs::path& dir, const OpenFolder& folder, bool force, const InputPaths& inputs,
                    bool holding)
{
    if (holds_nothing(folder.path()))
        return;
    const bool ours = made_by_rlda_at(folder);
    if (ours && !holding)
        refuse_if_locked(dir.string(), folder.fd.fd());
    if (!force)
        throw Error(fmt::format("{}: the folder exists and is not empty; choose another --out{}", dir.string(),
                                ours ? " or pass --force to replace it" : ""));
    if (!ours)
        throw Error(
            fmt::format("{}: not a folder rlda made (no {} marker); --force only replaces rlda's output "
                        "folders; choose an empty or new --out",
                        dir.string(), kOutputMarker));
    const fs::path real = resolved(folder.path());
    check_inputs(dir, real, inputs);
    std::error_code ec;
    if (lies_inside(fs::current_path(ec), real))
        throw Error(
            fmt::format("{}: --force would replace the folder this command runs in; run it from outside "
                        "the folder",
                        dir.string()));
    if (const auto stuck = first_unremovable(folder.path(), dir))
        throw Error(fmt::format("{}: cannot replace the folder: {}: permission denied; nothing was deleted",
                                dir.string(), stuck->string()));
}

} // namespace

namespace {

// The checks of the path alone: an empty one, a dangling link, something not a folder. The folder
// itself, resolved and open, when it exists.
std::optional<OpenFolder> check_path(const fs::path& dir)
{
    if (dir.empty())
        throw Error("--out: an empty path; name the output folder");
    std::error_code ec;
    const auto link = fs::symlink_status(dir, ec);
    if (link.type() == fs::file_type::symlink && !fs::exists(dir, ec))
        throw Error(fmt::format("{}: a symbolic link to {}, which does not exist; choose another --out",
                                dir.string(), fs::read_symlink(dir, ec).string()));
    const fs::path real = resolved(dir);
    const auto status = fs::status(real, ec);
    if (status.type() == fs::file_type::not_found)
        return std::nullopt;
    if (ec)
        throw system_error_for(dir, "cannot read", ec.value());
    if (status.type() != fs::file_type::directory)
        throw Error(fmt::format("{}: exists and is not a folder; choose another --out", dir.string()));
    const int fd = ::open(real.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        throw system_error_for(dir, "cannot read", errno);
    return OpenFolder{FileHandle(fd)};
}

} // namespace

void check_output_folder(const fs::path& dir, bool force, const InputPaths& inputs)
{
    if (const auto folder = check_path(dir))
        check_existing(dir, *folder, force, inputs, false);
}

FolderLock prepare_output_folder(const fs::path& dir, bool force, const InputPaths& inputs)
{
    // The path's own checks; the folder's are made below, through the folder opened there.
    check_path(dir);
    // From here on the folder is reached through descriptors: the folder that was checked is the
    // one locked, moved aside and removed, whatever the path comes to name meanwhile.
    const fs::path real = resolved(dir);
    const std::string shown = dir.string();
    auto [parent, name] = open_parent(dir, real);
    remove_leftovers(parent, name);
    OpenFolder old{open_folder_at(parent.fd.fd(), name, dir)};
    if (old.fd.fd() < 0) {
        if (::mkdirat(parent.fd.fd(), name.c_str(), 0777) != 0 && errno != EEXIST)
            throw system_error_for(dir, "cannot create the folder", errno);
        OpenFolder made{open_folder_at(parent.fd.fd(), name, dir)};
        if (made.fd.fd() < 0)
            throw system_error_for(dir, "cannot create the folder", ENOENT);
        FolderLock lock = FolderLock::take_in(made.fd.fd(), real, shown);
        if (!holds_nothing(made.path()))
            throw Error(
                fmt::format("{}: changed while rlda prepared it (another program wrote into it); nothing was "
                            "deleted",
                            shown));
        write_marker(made.fd.fd(), dir);
        return lock;
    }
    // Checked as the open folder before its lock is made (the path may lead elsewhere now), then
    // locked and looked at again: another writer's folder is never touched.
    check_existing(dir, old, force, inputs, false);
    FolderLock lock = FolderLock::take_in(old.fd.fd(), real, shown);
    if (holds_nothing(old.path())) {
        write_marker(old.fd.fd(), dir);
        return lock;
    }
    check_existing(dir, old, force, inputs, true); // again, now that nobody else writes it
    // Moved aside in one step, so that whatever fails after leaves either the old folder whole
    // (under its new name, which the message gives) or the new one.
    const std::string aside = fmt::format(".{}.rlda-replaced-{}", name, ::getpid());
    const int at = parent.fd.fd();
    if (::renameat(at, name.c_str(), at, aside.c_str()) != 0)
        throw system_error_for(dir, "cannot replace the folder (nothing was deleted)", errno);
    const FileHandle moved = open_dir_at(at, aside);
    if (moved.fd() < 0 || !same_file(moved.fd(), old.fd.fd())) {
        // Another folder took the name between the check and the rename: it goes back untouched.
        ::renameat(at, aside.c_str(), at, name.c_str());
        throw Error(
            fmt::format("{}: changed while rlda prepared it (another folder took its name); nothing was "
                        "deleted",
                        shown));
    }
    FolderLock old_lock = std::move(lock);
    try {
        if (::mkdirat(at, name.c_str(), 0777) != 0)
            throw system_error_for(dir, "cannot create the folder", errno);
        const OpenFolder made{open_folder_at(at, name, dir)};
        lock = FolderLock::take_in(made.fd.fd(), real, shown);
        write_marker(made.fd.fd(), dir);
    } catch (...) {
        ::unlinkat(at, fmt::format("{}/{}", name, kOutputLock).c_str(), 0);
        ::unlinkat(at, fmt::format("{}/{}", name, kOutputMarker).c_str(), 0);
        ::unlinkat(at, name.c_str(), AT_REMOVEDIR);
        if (::renameat(at, aside.c_str(), at, name.c_str()) != 0)
            throw Error(fmt::format("{}: the old folder is kept as {}", shown,
                                    (real.parent_path() / aside).string()));
        throw;
    }
    std::error_code ec;
    remove_folder(old, at, aside, ec);
    if (ec)
        throw system_error_for(real.parent_path() / aside,
                               "cannot remove the replaced folder (remove it by hand)", ec.value());
    return lock;
}

void make_subfolder(const fs::path& dir, const std::string& name)
{
    const fs::path sub = dir / name;
    if (::mkdir(sub.c_str(), 0777) == 0)
        return;
    const int err = errno;
    struct stat st {};
    if (err == EEXIST && ::lstat(sub.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return;
        if (S_ISLNK(st.st_mode))
            throw Error(fmt::format("{}: a symbolic link; rlda writes into no folder but its own; remove it",
                                    sub.string()));
        throw Error(fmt::format("{}: cannot create the folder: a file has its name", sub.string()));
    }
    throw system_error_for(sub, "cannot create the folder", err);
}

FolderLock lock_output_folder(const fs::path& dir)
{
    const fs::path real = resolved(dir);
    const int fd = ::open(real.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        throw system_error_for(dir, "cannot open the folder", errno);
    const OpenFolder folder{FileHandle(fd)};
    return FolderLock::take_in(folder.fd.fd(), real, dir.string());
}

} // namespace rlda::core
