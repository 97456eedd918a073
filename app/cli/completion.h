// `rlda completion bash`: a bash completion script generated from rlda's own command line
// (command_tree.h), installed by the package as share/bash-completion/completions/rlda.
#pragma once

#include "app/cli/command_tree.h"

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rlda::app {

// The script: completes subcommands at every level, each command's options (those of a command it
// falls through to included), an option's fixed choices, and file names for the other values and
// positionals. Defines _rlda and runs `complete -F _rlda rlda`.
std::string bash_completion(const std::vector<CliCommand>& tree);

// Registers `rlda completion bash`, which prints bash_completion of the whole of `app`.
std::function<int()> add_completion_command(CLI::App& app);

} // namespace rlda::app
