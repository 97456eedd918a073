// Reading a whole file a user named: one that is missing, a folder or unreadable is refused in
// one line naming it, instead of the stream's own error (or an empty read).
#pragma once

#include <filesystem>
#include <string>

namespace rlda::core {

// Throws Error "FILE: no such file", "FILE: is a folder, not a file" or "FILE: not a regular
// file" unless `file` is a regular file (after symbolic links).
void require_regular_file(const std::filesystem::path& file);

// The whole of a regular file: require_regular_file(), then Error "FILE: cannot open: REASON" or
// "FILE: cannot read: REASON".
std::string read_text_file(const std::filesystem::path& file);

} // namespace rlda::core
