// An unknown subcommand named, with the nearest real one: `rlda trian x.toml` is
// "unknown command 'trian'; did you mean 'train'?", not CLI11's "A subcommand is required"; an
// unknown option likewise, not CLI11's "The following arguments were not expected: 3 --epochs".
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

// Follows `args` as unknown_command does; for the first option that names none of its command's
// (nor of rlda's own), the message for it, without "rlda: error: ": the nearest option ("unknown
// option '--ot' for 'rlda train'; did you mean '--out'?"), else, where the command takes --set, the
// setting of that name ("did you mean --set job.lr=0.1?") or a hint of the schema (core/config/
// schema.h: "unknown option '--epochs' for 'rlda train': a run lasts its time budget in seconds,
// not a number of epochs; use --set scheduler.budget=SECONDS"), else where the options are listed.
// Empty when every option is known. Called after CLI11 refused the line.
std::string unknown_option(const CLI::App& app, const std::vector<std::string>& args);

} // namespace rlda::app
