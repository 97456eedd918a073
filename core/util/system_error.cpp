// Failed system calls named as a user knows them.
#include "core/util/system_error.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstring>

namespace rlda::core {

std::string system_reason(int err)
{
    switch (err) {
    case EACCES:
    case EPERM:
        return "permission denied";
    case ENOSPC:
        return "no space left on the device (the disk is full)";
    case EDQUOT:
        return "disk quota exceeded";
    case EROFS:
        return "read-only file system";
    case ENOMEM:
        return "out of memory";
    default:
        break;
    }
    std::string text = std::strerror(err);
    if (!text.empty())
        text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

Error system_error_for(const std::filesystem::path& path, const std::string& what, int err)
{
    // Error's constructor is std::runtime_error's, explicit: no braced return.
    // NOLINTNEXTLINE(modernize-return-braced-init-list)
    return Error(fmt::format("{}: {}: {}", path.string(), what, system_reason(err)));
}

} // namespace rlda::core
