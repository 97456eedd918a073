// `rlda manpage`: the rlda(1) manual page in roff, generated from rlda's own command line
// (command_tree.h); the package installs it as share/man/man1/rlda.1.gz.
#pragma once

#include "app/cli/command_tree.h"

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rlda::app {

// The page: NAME, SYNOPSIS, DESCRIPTION, the global OPTIONS, then COMMANDS with every subcommand's
// usage, help, positionals and options (value, choices, default), and the ENVIRONMENT, FILES,
// EXIT STATUS and EXAMPLES sections. `version` goes in the header ("0.1.0").
std::string man_page(const std::vector<CliCommand>& tree, const std::string& version);

// Registers `rlda manpage`, which prints man_page of the whole of `app`.
std::function<int()> add_manpage_command(CLI::App& app, std::string version);

} // namespace rlda::app
