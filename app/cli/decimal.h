// The one way rlda prints a real number for people to read. Files (CSV, JSON, TOML) keep every
// digit; a line on the terminal shows the digits that matter.
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
