// Whole-file reads that check what they open: std::ifstream opens a folder without complaint on
// Linux and then throws basic_filebuf's "underflow error" (or reads nothing) from deep inside a parser.
#include "core/util/read_file.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace rlda::core {

namespace fs = std::filesystem;

void require_regular_file(const fs::path& file)
{
    std::error_code ec;
    const auto status = fs::status(file, ec);
    if (status.type() == fs::file_type::not_found)
        throw Error(fmt::format("{}: no such file", file.string()));
    if (ec)
        throw Error(fmt::format("{}: cannot read: {}", file.string(), ec.message()));
    if (status.type() == fs::file_type::directory)
        throw Error(fmt::format("{}: is a folder, not a file", file.string()));
    if (status.type() != fs::file_type::regular)
        throw Error(fmt::format("{}: not a regular file", file.string()));
}

std::string read_text_file(const fs::path& file)
{
    require_regular_file(file);
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(fmt::format("{}: cannot open: {}", file.string(), std::strerror(errno)));
    // istream::read turns the stream buffer's exceptions into badbit (operator<< of rdbuf() would
    // only set failbit, as it does for an empty file).
    std::string text;
    char buffer[1 << 16];
    while (in) {
        in.read(buffer, sizeof buffer);
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad())
        throw Error(fmt::format("{}: cannot read: {}", file.string(), std::strerror(errno)));
    return text;
}

} // namespace rlda::core
