// rlda's command line as a value: every subcommand with its options and help, read from the CLI11
// definition itself, so that the bash completion and the man page (completion.h, manpage.h) never
// drift from what rlda parses.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rlda::app {

struct CliOption {
    std::vector<std::string> names;   // "--out", "-o"; a positional's one name: "CONFIG"
    std::string value;                // what it takes, "TEXT", "INT in [1 - 100]"; empty: a flag
    std::vector<std::string> choices; // the values it allows, when a fixed set
    std::string help;
    std::string default_value; // when shown (capture_default_str)
    bool required = false;
    bool repeatable = false;
};

struct CliCommand {
    std::string path; // "sweep status"; empty: rlda itself
    std::string help;
    std::vector<CliOption> options;       // its own, --help included
    std::vector<CliOption> positionals;   // in order
    std::vector<std::string> subcommands; // the names, in order
    bool fallthrough = false;             // its options are taken after a subcommand's name too
};

// `app` and every subcommand below it, depth first, `app` first.
std::vector<CliCommand> command_tree(const CLI::App& app);

} // namespace rlda::app
