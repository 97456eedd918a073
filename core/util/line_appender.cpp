// Append-only text files written a whole line per write(2): table rows, sweep parts, ranks.
#include "core/util/line_appender.h"

#include "core/util/error.h"
#include "core/util/system_error.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace rlda::core {

LineAppender::LineAppender(const std::filesystem::path& file, const std::string& header) : file_(file)
{
    fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw system_error_for(file, "cannot open for writing", errno);
    std::error_code ec;
    if (!header.empty() && std::filesystem::file_size(file, ec) == 0 && !ec)
        append(header);
}

LineAppender::~LineAppender()
{
    if (fd_ >= 0)
        ::close(fd_);
}

void LineAppender::append(const std::string& line)
{
    ssize_t n;
    while ((n = ::write(fd_, line.data(), line.size())) < 0 && errno == EINTR) {
    }
    // A short write is a full disk (or a file-size limit); the torn line is the reader's to skip.
    if (n != static_cast<ssize_t>(line.size()))
        throw system_error_for(file_, "cannot write", n < 0 ? errno : ENOSPC);
}

} // namespace rlda::core
