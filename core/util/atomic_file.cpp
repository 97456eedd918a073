// Write-then-rename, the one way this project replaces files it may be killed while writing.
#include "core/util/atomic_file.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <fstream>

namespace rlda::core {

void replace_atomically(const std::filesystem::path& target,
                        const std::function<void(const std::filesystem::path& tmp)>& write)
{
    std::filesystem::path tmp = target;
    tmp += ".tmp";
    write(tmp);
    std::error_code ec;
    std::filesystem::rename(tmp, target, ec);
    if (ec)
        throw Error(fmt::format("{}: cannot write: {}", target.string(), ec.message()));
}

void write_text_atomically(const std::filesystem::path& target, const std::string& text)
{
    replace_atomically(target, [&](const std::filesystem::path& tmp) {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out)
            throw Error(fmt::format("{}: cannot write", tmp.string()));
    });
}

} // namespace rlda::core
