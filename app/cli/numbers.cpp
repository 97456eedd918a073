// The command line's number validators (numbers.h).
#include "app/cli/numbers.h"

#include "app/cli/decimal.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::app {
namespace {

// The whole number `text` spells exactly, or nullopt (not digits, or beyond the int64 range).
std::optional<std::int64_t> parse_whole(std::string_view text)
{
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

std::string describe(Bound low, Bound high)
{
    const bool has_low = std::isfinite(low.value);
    const bool has_high = std::isfinite(high.value);
    if (has_low && has_high && low.included && high.included)
        return fmt::format("a finite number from {} to {}", decimal(low.value), decimal(high.value));
    std::string range = "a finite number";
    if (has_low)
        range += fmt::format(" {} {}", low.included ? "at least" : "above", decimal(low.value));
    if (has_high)
        range += fmt::format("{} {} {}", has_low ? "," : "", high.included ? "at most" : "below", decimal(high.value));
    return range;
}

} // namespace

CLI::Validator whole_number(std::int64_t min, std::int64_t max)
{
    const std::string wanted = fmt::format("a whole number from {} to {}", min, max);
    return CLI::Validator(
        [=](std::string& value) {
            const auto v = parse_whole(value);
            return v && *v >= min && *v <= max ? std::string() : fmt::format("{}: must be {}", value, wanted);
        },
        fmt::format("INT in [{} - {}]", min, max));
}

CLI::Validator real_number(Bound low, Bound high)
{
    const std::string wanted = describe(low, high);
    return CLI::Validator(
        [=](std::string& value) {
            char* end = nullptr;
            const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
            const bool ok = !value.empty() && end == value.c_str() + value.size() && std::isfinite(v) &&
                            (low.included ? v >= low.value : v > low.value) &&
                            (high.included ? v <= high.value : v < high.value);
            return ok ? std::string() : fmt::format("{}: must be {}", value, wanted);
        },
        "FLOAT");
}

CLI::Validator input_shape()
{
    return CLI::Validator(
        [](std::string& value) {
            std::vector<std::string_view> dims;
            std::string_view rest(value);
            for (std::size_t cut; (cut = rest.find_first_of("x,")) != std::string_view::npos;
                 rest.remove_prefix(cut + 1))
                dims.push_back(rest.substr(0, cut));
            dims.push_back(rest);
            bool ok = dims.size() == 3 || dims.size() == 1;
            for (const auto d : dims) {
                const auto v = parse_whole(d);
                ok = ok && v && *v >= 1 && *v <= kMaxInputDimension;
            }
            return ok ? std::string()
                      : fmt::format("{}: must be CxHxW (or one N), each a whole number from 1 to {}", value,
                                    kMaxInputDimension);
        },
        "CxHxW");
}

} // namespace rlda::app
