// The one wording of a failed system call on a file: "PATH: WHAT: REASON", the reason named as a
// user knows it (permission denied, the disk is full), so that no reader calls an unreadable file
// "not a policy file" or a full disk "cannot be written" with nothing after it.
// The file utilities (read_file.h, atomic_file.h, line_appender.h, output_folder.h) word their
// failures through it, and so everything that reads or writes through them does. The sweeps
// (core/sweep/: the process runner, the local and Slurm backends) still word theirs from strerror
// or std::error_code, as does the removal of an emptied notes.json (core/io/run_notes.h).
#pragma once

#include "core/util/error.h"

#include <filesystem>
#include <string>

namespace rlda::core {

// The reason for `err` (an errno value): "permission denied", "no space left on the device (the
// disk is full)", "read-only file system", "disk quota exceeded", "out of memory", else strerror's
// text in lower case.
std::string system_reason(int err);

// Error "PATH: WHAT: REASON".
Error system_error_for(const std::filesystem::path& path, const std::string& what, int err);

} // namespace rlda::core
