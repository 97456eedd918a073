// How rlda prints a real number whose digits vary for people to read (evaluations, option ranges);
// lines of a fixed precision print their decimals. Files (CSV, JSON, TOML) keep every digit.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <string>

namespace rlda::app {

// Significant digits of a printed number: more than a table's accuracies carry (4), fewer than
// the float noise of a mean (0.46020000000000005).
inline constexpr int kShownDigits = 6;

// `v` rounded to kShownDigits significant digits, then the shortest text that reads back as that:
// 0.4602, 60, 1000000, 1e-05, -0.25; nan and inf as fmt writes them.
inline std::string decimal(double v)
{
    if (!std::isfinite(v))
        return fmt::format("{}", v);
    return fmt::format("{}", std::strtod(fmt::format("{:.{}g}", v, kShownDigits).c_str(), nullptr));
}

} // namespace rlda::app
