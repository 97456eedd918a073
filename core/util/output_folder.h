// The folders rlda writes its output into (run folders, learning runs, reproductions, transfer runs,
// simulation table folders): which folders --force may replace, how it replaces one, and the lock
// that makes each folder have one writer at a time.
//
// The rules, written once, here (docs/architecture.md, *Output folders*, points here):
// - A folder is rlda's when it holds the marker `.rlda` as rlda writes it: a regular file, not a
//   symbolic link, holding rlda's one line. A table folder made before the marker counts too when
//   every entry in it is one rlda writes and its table.json is in rlda's format; names alone
//   (config.toml, events.jsonl, model.pt) are anybody's, so an older run folder without the marker
//   is refused, and its owner removes it by hand.
// - Symbolic links are resolved once, first: --out LINK is judged, locked, replaced and written as
//   the folder it led to then (FolderLock::folder(), output_path()). From the check on, the folder
//   is reached through its descriptor (openat, renameat), so what was checked is what is moved,
//   and a folder that changes meanwhile is refused with nothing deleted.
// - --force replaces only a folder of rlda's, never one that holds an input of the command (its
//   config, table, policy, --from, model or dataset), and never the folder the command runs in:
//   each is refused before anything is touched.
// - Replacing moves the old folder aside with one renameat(2) to `.NAME.rlda-replaced-PID`, creates
//   the new one, then removes the old; a folder that cannot be removed whole (a subfolder without
//   write permission) is refused first, so a failure never leaves half a folder. What a --force
//   killed during the removal left aside is removed by the next command that prepares NAME.
// - One writer per folder: `.rlda.lock`, an flock(2) held for the whole run by whoever prepared
//   the folder, with that process's pid in it. A second writer is refused naming the holder's pid
//   (from /proc/locks); a lock left by a dead process is free (the kernel drops flock locks with
//   their process). The lock file is opened without following a link and refused when it is not a
//   regular file or has a second name. The documented exception: a sweep's parts (`rlda simulate
//   --part I/N`, the local workers and Slurm tasks) write into the folder their parent prepared and
//   locked; each part locks its own parts/part-I-of-N.lock instead.
#pragma once

#include "core/util/read_file.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace rlda::core {

// The marker file rlda writes first into every output folder it creates.
inline constexpr const char* kOutputMarker = ".rlda";
// The lock file of an output folder (and of a sweep part: parts/part-I-of-N.lock).
inline constexpr const char* kOutputLock = ".rlda.lock";

// True when `dir` (symbolic links resolved) is a folder rlda made, by the rule above.
bool made_by_rlda(const std::filesystem::path& dir);

// The folder a command writes into: `dir` as given when no symbolic link leads to it, else the
// folder the links lead to, resolved once, so that a link changed while the command runs
// redirects nothing.
std::filesystem::path output_path(const std::filesystem::path& dir);

// An exclusive flock(2) on a lock file, released when destroyed (or when the process dies).
class FolderLock {
public:
    FolderLock() = default;
    // Takes the lock on `lock_file` (created if missing) and writes this process's pid into it.
    // Error "`what`: in use by another process (pid N); wait for it to end or choose another
    // --out" when another process holds it, N read from /proc/locks (not from the file); Error
    // naming the file when it cannot be opened, is a symbolic link, is not a regular file or has
    // another name (a hard link): rlda writes into no file but its own.
    static FolderLock take(const std::filesystem::path& lock_file, const std::string& what);
    // The same, on the lock file of the open folder `dir_fd`, `folder` as the messages name it.
    static FolderLock take_in(int dir_fd, const std::filesystem::path& folder, const std::string& what);

    bool held() const { return file_.fd() >= 0; }
    // The folder the lock is in, symbolic links resolved: where the holder writes, so that a link
    // changed after the folder was prepared redirects nothing.
    const std::filesystem::path& folder() const { return folder_; }
    // The path to write the folder through: `as_given` (relative or not, as the user typed it)
    // when no symbolic link led from it to folder(), else folder().
    std::filesystem::path path(const std::filesystem::path& as_given) const;

private:
    FolderLock(FileHandle file, std::filesystem::path folder)
        : file_(std::move(file)), folder_(std::move(folder))
    {
    }
    // Opens `name` under the folder `dir` (AT_FDCWD: `name` is a path), checks it and locks it.
    static FolderLock take_opened(int dir, const char* name, const std::filesystem::path& lock_file,
                                  const std::string& what, const std::filesystem::path& folder);
    FileHandle file_; // closing it releases the lock
    std::filesystem::path folder_;
};

// The files and folders a command reads. --force refuses to replace a folder that holds one of them
// (or is one); paths that do not exist, and names that are not paths (a zoo model), are ignored.
using InputPaths = std::vector<std::filesystem::path>;

// The checks of prepare_output_folder, touching nothing: an empty path, a dangling symbolic link
// and an existing file are Errors; an existing non-empty folder is an Error unless `force`, the
// folder is rlda's and it holds none of `inputs`.
void check_output_folder(const std::filesystem::path& dir, bool force, const InputPaths& inputs = {});

// Makes `dir` ready for new output and returns its lock, held until the returned object goes:
// check_output_folder(), then the lock, then (an existing non-empty folder with `force`) the old
// folder moved aside and removed, the folder (and parents) created, and the marker written.
[[nodiscard]] FolderLock prepare_output_folder(const std::filesystem::path& dir, bool force,
                                               const InputPaths& inputs = {});

// Creates the subfolder `name` of the output folder `dir` (metrics/, parts/, logs/) when missing.
// Error "DIR/NAME: a symbolic link; rlda writes into no folder but its own" and "DIR/NAME: cannot
// create the folder: a file has its name": a link planted there never sends rlda's files elsewhere.
void make_subfolder(const std::filesystem::path& dir, const std::string& name);

// The process that holds the lock of the output folder `dir` now (from /proc/locks, taking no
// lock itself, so that a listing never makes a writer's start fail), or 0: none, or no lock file.
long folder_writer(const std::filesystem::path& dir);

// Locks an existing folder of rlda's that a command goes on writing without replacing it (a table
// folder being resumed). Error as FolderLock::take.
[[nodiscard]] FolderLock lock_output_folder(const std::filesystem::path& dir);

// True when `path` (symbolic links resolved) is `dir` or lies inside it.
bool lies_inside(const std::filesystem::path& path, const std::filesystem::path& dir);

} // namespace rlda::core
