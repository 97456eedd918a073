// Excerpts of file contents for error messages.
#include "core/util/excerpt.h"

#include <fmt/format.h>

namespace rlda::core {

std::string excerpt(std::string_view text, std::size_t max)
{
    std::string out = "\"";
    const std::string_view shown = text.substr(0, max);
    for (const char ch : shown) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\')
            out += fmt::format("\\{}", ch);
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c >= 0x7f)
            out += fmt::format("\\x{:02x}", c);
        else
            out += ch;
    }
    if (shown.size() < text.size())
        return out + fmt::format("...\" ({} bytes)", text.size());
    return out + "\"";
}

std::string message_excerpt(std::string_view message)
{
    constexpr std::string_view marker = "; last read: '";
    const auto at = message.find(marker);
    if (at == std::string_view::npos)
        return std::string(message);
    std::string_view token = message.substr(at + marker.size());
    if (token.ends_with('\''))
        token.remove_suffix(1);
    return fmt::format("{}; last read: {}", message.substr(0, at), excerpt(token));
}

} // namespace rlda::core
