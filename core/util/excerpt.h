// How an error message quotes what it found in a file: a short, escaped excerpt of the offending
// token, never a file's contents (a table.csv that links to a system file must not print its line).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rlda::core {

inline constexpr std::size_t kExcerptChars = 32;

// `text` in double quotes, at most `max` characters of it, with quotes, backslashes, control and
// non-ASCII bytes escaped (\", \\, \n, \xNN); a longer text ends in "..." and gives its length:
// "a1,a2,timeleft1,timeleft2,totalt..." (61 bytes).
std::string excerpt(std::string_view text, std::size_t max = kExcerptChars);

// A parser's message with the file's text it quotes cut to an excerpt: nlohmann's "...; last read:
// '<the whole token>'" keeps its reason and quotes 32 characters of the token.
std::string message_excerpt(std::string_view message);

} // namespace rlda::core
