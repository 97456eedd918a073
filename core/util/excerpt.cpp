// Excerpts of file contents for error messages.
#include "core/util/excerpt.h"

#include "core/util/error.h"

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

namespace {

// The length of the control character at text[i] (1, or 2 for a C1 character in UTF-8), or 0.
std::size_t control_at(std::string_view text, std::size_t i)
{
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f)
        return 1;
    if (c == 0xc2 && i + 1 < text.size()) {
        const auto next = static_cast<unsigned char>(text[i + 1]);
        if (next >= 0x80 && next <= 0x9f)
            return 2;
    }
    return 0;
}

} // namespace

std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = control_at(text, i);
        if (n == 0) {
            out += text[i++];
            continue;
        }
        for (std::size_t k = 0; k < n; ++k)
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i + k]));
        i += n;
    }
    return out;
}

int first_control_character(std::string_view text)
{
    for (std::size_t i = 0; i < text.size(); ++i)
        if (const std::size_t n = control_at(text, i); n > 0)
            return static_cast<unsigned char>(text[i + n - 1]);
    return -1;
}

void refuse_control_characters(std::string_view text, std::string_view what)
{
    if (const int c = first_control_character(text); c >= 0)
        throw Error(fmt::format("{}: {} holds a control character (\\x{:02x}); names hold none", what,
                                excerpt(text), c));
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
