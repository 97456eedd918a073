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

// `text` as it may reach a terminal: every control character (C0 with NUL and newline, DEL, and C1
// as UTF-8) written \xNN, the rest as it is. What every printer of a text it did not write itself
// (an error or warning line, a name read from a file or a folder) passes it through, so that no file
// can retitle, recolour or clear the user's terminal.
std::string printable(std::string_view text);

// The first control character of `text` (as printable() escapes it), or -1 when it holds none.
int first_control_character(std::string_view text);

// Error "WHAT: TEXT holds a control character (\xNN); names hold none", TEXT as excerpt() quotes
// it, when `text` holds one: the check of every name where it is written or read (a run's name, a
// model's, a scenario's, a field of a CSV file).
void refuse_control_characters(std::string_view text, std::string_view what);

// A parser's message with the file's text it quotes cut to an excerpt: nlohmann's "...; last read:
// '<the whole token>'" keeps its reason and quotes 32 characters of the token.
std::string message_excerpt(std::string_view message);

} // namespace rlda::core
