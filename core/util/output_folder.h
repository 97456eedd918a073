// The folders rlda writes its output into (run folders, learning runs, reproductions, transfer runs,
// simulation table folders): which folders --force may replace, how it replaces one, and the lock
// that makes each folder have one writer at a time.
//
// The rules, written once, here (docs/architecture.md, *Output folders*, points here):
// - A folder is rlda's when it holds the marker `.rlda` (written first into every folder rlda
//   makes), or, for folders made before the marker, when every entry in it is one rlda writes
//   (rlda_entry_kind() below) and one of them is events.jsonl, ranks.csv or table.json. A user's
//   folder that merely holds one of those names, beside anything else, is not rlda's.
// - Symbolic links are resolved first: --out LINK is judged, locked and replaced as its target.
// - --force replaces only a folder of rlda's, and never one that holds an input of the command
//   (its config, table, policy, --from, model or dataset): that is refused before anything is
//   touched.
// - Replacing moves the old folder aside with one rename(2), creates the new one, then removes the
//   old; a folder that cannot be removed whole (a subfolder without write permission) is refused
//   first, so a failure never leaves half a folder.
// - One writer per folder: `.rlda.lock`, an flock(2) held for the whole run by whoever prepared
//   the folder, with that process's pid in it. A second writer is refused naming the pid; a lock
//   left by a dead process is free (the kernel drops flock locks with their process). The
//   documented exception: a sweep's parts (`rlda simulate --part I/N`, the local workers and Slurm
//   tasks) write into the folder their parent prepared and locked; each part locks its own
//   parts/part-I-of-N.lock instead.
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

// An exclusive flock(2) on a lock file, released when destroyed (or when the process dies).
class FolderLock {
public:
    FolderLock() = default;
    // Takes the lock on `lock_file` (created if missing) and writes this process's pid into it.
    // Error "`what`: in use by another rlda process (pid N); wait for it to end or choose another
    // --out" when another process holds it; Error naming the file and the reason when the file
    // cannot be opened.
    static FolderLock take(const std::filesystem::path& lock_file, const std::string& what);

    bool held() const { return file_.fd() >= 0; }

private:
    explicit FolderLock(FileHandle file) : file_(std::move(file)) {}
    FileHandle file_; // closing it releases the lock
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

// Locks an existing folder of rlda's that a command goes on writing without replacing it (a table
// folder being resumed). Error as FolderLock::take.
[[nodiscard]] FolderLock lock_output_folder(const std::filesystem::path& dir);

// True when `path` (symbolic links resolved) is `dir` or lies inside it.
bool lies_inside(const std::filesystem::path& path, const std::filesystem::path& dir);

} // namespace rlda::core
