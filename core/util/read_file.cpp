// Whole-file reads that check what they open: std::ifstream opens a folder without complaint on
// Linux and then throws basic_filebuf's "underflow error" (or reads nothing) from deep inside a
// parser, and blocks forever in open(2) on a FIFO.
#include "core/util/read_file.h"

#include "core/util/error.h"
#include "core/util/system_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <new>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rlda::core {

namespace fs = std::filesystem;

std::string kind_of(unsigned mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a file";
}

namespace {

// Reads up to `limit` bytes from `fd` into `out`; false when more remain.
bool read_up_to(const FileHandle& f, const fs::path& file, std::uint64_t limit, std::string& out)
{
    char buffer[1 << 16];
    while (out.size() < limit) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buffer, limit - out.size()));
        const ssize_t n = ::read(f.fd(), buffer, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw system_error_for(file, "cannot read", errno);
        if (n == 0)
            return true;
        try {
            out.append(buffer, static_cast<std::size_t>(n));
        } catch (const std::bad_alloc&) {
            throw Error(fmt::format("{}: {} bytes do not fit in memory", file.string(), out.size() + n));
        }
    }
    char probe;
    ssize_t n;
    while ((n = ::read(f.fd(), &probe, 1)) < 0 && errno == EINTR) {
    }
    return n == 0;
}

} // namespace

void require_regular_file(const fs::path& file)
{
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            throw Error(fmt::format("{}: no such file", file.string()));
        throw system_error_for(file, "cannot read", errno);
    }
    if (S_ISDIR(st.st_mode))
        throw Error(fmt::format("{}: is a folder, not a file", file.string()));
    if (!S_ISREG(st.st_mode))
        throw Error(fmt::format("{}: not a regular file ({})", file.string(), kind_of(st.st_mode)));
}

FileHandle::~FileHandle()
{
    if (fd_ >= 0)
        ::close(fd_);
}

FileHandle::FileHandle(FileHandle&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FileHandle& FileHandle::operator=(FileHandle&& other) noexcept
{
    if (this != &other) {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
}

int FileHandle::release() { return std::exchange(fd_, -1); }

FileHandle open_regular_file(const fs::path& file)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT)
            throw Error(fmt::format("{}: no such file", file.string()));
        if (err == EISDIR)
            throw Error(fmt::format("{}: is a folder, not a file", file.string()));
        throw system_error_for(file, "cannot open", err);
    }
    FileHandle f(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw system_error_for(file, "cannot read", errno);
    if (S_ISDIR(st.st_mode))
        throw Error(fmt::format("{}: is a folder, not a file", file.string()));
    if (!S_ISREG(st.st_mode))
        throw Error(fmt::format("{}: not a regular file ({})", file.string(), kind_of(st.st_mode)));
    // Reads of a regular file never block; later readers (zlib, streams) expect blocking semantics.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return f;
}

std::uint64_t file_size_of(const FileHandle& f)
{
    struct stat st {};
    return ::fstat(f.fd(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

std::string read_text_file(const fs::path& file, std::uint64_t max_bytes)
{
    const FileHandle f = open_regular_file(file);
    const std::uint64_t size = file_size_of(f);
    if (size > max_bytes)
        throw Error(fmt::format("{}: {} bytes, more than the {} bytes rlda reads from such a file", file.string(),
                                size, max_bytes));
    std::string text;
    try {
        text.reserve(static_cast<std::size_t>(size));
    } catch (const std::bad_alloc&) {
        throw Error(fmt::format("{}: {} bytes do not fit in memory", file.string(), size));
    }
    if (!read_up_to(f, file, max_bytes, text))
        throw Error(fmt::format("{}: grew past {} bytes while being read", file.string(), max_bytes));
    return text;
}

std::string read_file_prefix(const fs::path& file, std::uint64_t max_bytes, bool& truncated)
{
    const FileHandle f = open_regular_file(file);
    std::string text;
    truncated = !read_up_to(f, file, max_bytes, text);
    return text;
}

} // namespace rlda::core
