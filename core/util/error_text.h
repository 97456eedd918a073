// What an exception says, for a user: one line, whatever threw it (core, LibTorch, the standard
// library, nlohmann::json, toml++), and the whole of it on demand.
#pragma once

#include <exception>
#include <string>
#include <string_view>

namespace rlda::core {

// The text before the first line break.
std::string_view first_line(std::string_view text);

// One line saying what went wrong: a core::Error's message as it is; a toml::parse_error with its
// file, line and column; std::bad_alloc as "out of memory"; any other exception's what() (LibTorch's
// c10::Error too: its backtrace starts after the first line), each cut at its first line break.
std::string error_line(const std::exception& e);

} // namespace rlda::core
