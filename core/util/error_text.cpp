// One line of an exception: LibTorch's messages carry a multi-line backtrace, a user needs the cause.
// LibTorch's c10::Error puts its message first and its backtrace after the first line break, so that
// the first line of what() is the first line of what_without_backtrace(): no LibTorch header here.
#include "core/util/error_text.h"

#include "core/util/error.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <new>

namespace rlda::core {

std::string_view first_line(std::string_view text)
{
    return text.substr(0, text.find('\n'));
}

std::string error_line(const std::exception& e)
{
    if (dynamic_cast<const Error*>(&e))
        return e.what();
    if (const auto* toml = dynamic_cast<const toml::parse_error*>(&e)) {
        const auto& s = toml->source();
        return fmt::format("{}:{}:{}: {}", s.path ? *s.path : std::string("(text)"), s.begin.line, s.begin.column,
                           first_line(toml->description()));
    }
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return fmt::format("out of memory ({})", first_line(e.what()));
    return std::string(first_line(e.what()));
}

} // namespace rlda::core
