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

// The edit distance of `a` and `b` counting an insertion, a deletion, a substitution and a swap of
// two neighbouring letters as one each (optimal string alignment): trian -> train is 1.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name of `names` nearest to `word`: a unique one that `word` begins, else the one at the
// smallest edit distance when that is at most a third of the longer word (rounded up; ties: the
// first); empty when none is that near.
std::string nearest_name(std::string_view word, const std::vector<std::string>& names);

// Follows `args` (argv without the program) through `app`'s subcommands; where a word stands in
// the place of a subcommand and names none, the message for it, without "rlda: error: ":
// "unknown command 'sweep stauts'; did you mean 'sweep status'?", or, with nothing near,
// "unknown command 'x' (commands: config, model, ...)". Empty when every subcommand is known.
// Called after CLI11 refused the line, so that a line CLI11 accepts is never second-guessed.
std::string unknown_command(const CLI::App& app, const std::vector<std::string>& args);

} // namespace rlda::app
