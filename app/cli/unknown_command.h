// An unknown subcommand named, with the nearest real one: `rlda trian x.toml` is
// "unknown command 'trian'; did you mean 'train'?", not CLI11's "A subcommand is required".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace rlda::app {

// Follows `args` (argv without the program) through `app`'s subcommands; where a word stands in
// the place of a subcommand and names none, the message for it, without "rlda: error: ":
// "unknown command 'sweep stauts'; did you mean 'sweep status'?" (the nearest by
// core/util/nearest_name.h), or, with nothing near, "unknown command 'x' (commands: config, model,
// ...)". Empty when every subcommand is known.
// Called after CLI11 refused the line, so that a line CLI11 accepts is never second-guessed.
std::string unknown_command(const CLI::App& app, const std::vector<std::string>& args);

} // namespace rlda::app
