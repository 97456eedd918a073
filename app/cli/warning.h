// The one way rlda prints a warning: "rlda: warning: TEXT" on stderr, one line.
#pragma once

#include "core/util/excerpt.h"

#include <fmt/format.h>

#include <cstdio>
#include <string_view>

namespace rlda::app {

inline void print_warning(std::string_view text)
{
    fmt::print(stderr, "rlda: warning: {}\n", core::printable(text));
}

} // namespace rlda::app
