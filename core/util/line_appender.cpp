// Append-only text files written a whole line per write(2): table rows, sweep parts, ranks.
#include "core/util/line_appender.h"

#include "core/util/error.h"

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
        throw Error(fmt::format("{}: cannot open for writing: {}", file.string(), std::strerror(errno)));
    std::error_code ec;
    if (std::filesystem::file_size(file, ec) == 0 && !ec)
        append(header);
}

LineAppender::~LineAppender()
{
    if (fd_ >= 0)
        ::close(fd_);
}

void LineAppender::append(const std::string& line)
{
    const ssize_t n = ::write(fd_, line.data(), line.size());
    if (n != static_cast<ssize_t>(line.size()))
        throw Error(fmt::format("{}: cannot write: {}", file_.string(), n < 0 ? std::strerror(errno) : "short write"));
}

} // namespace rlda::core
