// Write-then-rename, the one way this project replaces files it may be killed while writing.
#include "core/util/atomic_file.h"

#include "core/util/error.h"
#include "core/util/system_error.h"

#include <fmt/format.h>

#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace rlda::core {

void replace_atomically(const std::filesystem::path& target,
                        const std::function<void(const std::filesystem::path& tmp)>& write)
{
    std::filesystem::path tmp = target;
    tmp += ".tmp";
    // A failed write leaves neither a torn target nor a stray .tmp behind.
    const auto discard = [&] {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
    };
    try {
        write(tmp);
    } catch (...) {
        discard();
        throw;
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        const int err = errno;
        discard();
        throw system_error_for(target, "cannot write", err);
    }
}

void write_text_atomically(const std::filesystem::path& target, std::string_view text)
{
    replace_atomically(target, [&](const std::filesystem::path& tmp) {
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
            throw system_error_for(target, "cannot write", errno);
        std::string_view left = text;
        int err = 0;
        while (!left.empty()) {
            const ssize_t n = ::write(fd, left.data(), left.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                err = n < 0 ? errno : ENOSPC;
                break;
            }
            left.remove_prefix(static_cast<std::size_t>(n));
        }
        // close() is where some file systems (NFS, quotas) report a full disk.
        if (::close(fd) != 0 && err == 0)
            err = errno;
        if (err != 0)
            throw system_error_for(target, "cannot write", err);
    });
}

} // namespace rlda::core
