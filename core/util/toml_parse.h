// The one way rlda parses TOML text (experiment files, model files, --set values, the model text a
// table.json embeds, a run's config.toml): a bounded pre-scan, then toml++.
//
// toml++ 3.3 limits nested arrays and inline tables (256 levels) but not dotted keys or table
// headers: `a.a.a…` of some 40,000 parts overflows the stack inside it. The pre-scan refuses any
// key nested deeper than kMaxTomlDepth levels, counting a header's parts, a dotted key's parts and
// the inline tables and arrays around it, before toml++ sees the text.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace rlda::core {

// An experiment or model file is a few KiB; a larger one is refused before it is read.
inline constexpr std::uint64_t kMaxTomlFileBytes = std::uint64_t{16} << 20;

// Deeper than any config or model file needs (they use 3), far below what overflows a stack.
inline constexpr int kMaxTomlDepth = 64;

// Throws ConfigError "SOURCE:LINE:COL: a key nested deeper than 64 levels (dotted key, table
// header or inline tables)" for text nested too deep; returns silently otherwise.
void check_toml_depth(std::string_view text, const std::string& source);

// The text of a TOML file a user named (core/util/read_file.h: a FIFO or a folder refused, at most
// kMaxTomlFileBytes); every failure a ConfigError naming the file.
std::string read_toml_file(const std::string& path);

// check_toml_depth, then toml::parse. A parse error is ConfigError "SOURCE:LINE:COL: description".
toml::table parse_toml(std::string_view text, const std::string& source);

} // namespace rlda::core
