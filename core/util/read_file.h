// Opening and reading a file a user named: a missing file, a folder, a FIFO or a device, an
// unreadable file and a file too large for what it should be are refused in one line naming it,
// instead of the stream's own error, an empty read, or a read that blocks forever.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace rlda::core {

// Throws Error "FILE: no such file", "FILE: is a folder, not a file" or "FILE: not a regular
// file" unless `file` is a regular file (after symbolic links). Touches nothing: stat(2) only.
void require_regular_file(const std::filesystem::path& file);

// An open file descriptor, closed when destroyed.
class FileHandle {
public:
    FileHandle() = default;
    explicit FileHandle(int fd) : fd_(fd) {}
    ~FileHandle();
    FileHandle(FileHandle&& other) noexcept;
    FileHandle& operator=(FileHandle&& other) noexcept;
    FileHandle(const FileHandle&) = delete;
    FileHandle& operator=(const FileHandle&) = delete;

    int fd() const { return fd_; }
    int release(); // the descriptor, no longer closed by this object

private:
    int fd_ = -1;
};

// Opens `file` for reading with O_NONBLOCK, so that a FIFO or a device never blocks the open, then
// checks with fstat(2) that what was opened is a regular file (what is opened is what is checked).
// Error "FILE: no such file", "FILE: is a folder, not a file", "FILE: not a regular file (a FIFO)",
// "FILE: cannot open: permission denied", ...
FileHandle open_regular_file(const std::filesystem::path& file);

// What a file that is not a regular one is, by its st_mode: "a FIFO", "a device", "a socket".
std::string kind_of(unsigned mode);

// The size of an opened file (fstat).
std::uint64_t file_size_of(const FileHandle& f);

// Files a user hands rlda as text (experiment and model files, tables, indexes) are far smaller.
inline constexpr std::uint64_t kMaxTextFileBytes = std::uint64_t{1} << 30;

// The whole of a regular file, opened through open_regular_file(). Error "FILE: N bytes, more than
// the LIMIT bytes rlda reads from such a file" before anything is read when it is larger than
// `max_bytes`; Error "FILE: cannot read: REASON" and, when the bytes do not fit in memory, "FILE:
// N bytes do not fit in memory".
std::string read_text_file(const std::filesystem::path& file, std::uint64_t max_bytes = kMaxTextFileBytes);

// Up to `max_bytes` from the start of a regular file (for a bounded look: a header, the first
// records of a huge file); `truncated` tells whether there was more.
std::string read_file_prefix(const std::filesystem::path& file, std::uint64_t max_bytes, bool& truncated);

} // namespace rlda::core
