// Unknown subcommands and their nearest match (unknown_command.h).
#include "app/cli/unknown_command.h"

#include "core/util/nearest_name.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace rlda::app {
namespace {

// The option of `app` or of an ancestor it falls through to that `word` (--name, --name=value, -n)
// names; nullptr when none.
const CLI::Option* option_named(const CLI::App* app, std::string_view word)
{
    const std::string name(word.substr(0, word.find('=')));
    for (; app; app = app->get_fallthrough() ? app->get_parent() : nullptr)
        if (const CLI::Option* o = app->get_option_no_throw(name))
            return o;
    return nullptr;
}

} // namespace

std::string unknown_command(const CLI::App& app, const std::vector<std::string>& args)
{
    const CLI::App* at = &app;
    std::string path; // the subcommands so far, "sweep "
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& word = args[i];
        if (word == "--")
            return {};
        if (word.size() > 1 && word.front() == '-') {
            // An option's value is not a subcommand: step over it.
            const CLI::Option* o = option_named(at, word);
            if (o && o->get_items_expected_max() > 0 && word.find('=') == std::string::npos)
                ++i;
            continue;
        }
        const auto subcommands =
            at->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); });
        if (subcommands.empty())
            return {}; // a positional argument
        const auto known = std::find_if(subcommands.begin(), subcommands.end(),
                                        [&](const CLI::App* s) { return s->check_name(word); });
        if (known != subcommands.end()) {
            at = *known;
            path += word + " ";
            continue;
        }
        if (!at->get_options([](const CLI::Option* o) { return o->get_positional(); }).empty())
            return {}; // subcommands and positionals both: the word may be either
        std::vector<std::string> names;
        for (const CLI::App* s : subcommands)
            names.push_back(s->get_name());
        const std::string near = core::nearest_name(word, names);
        if (near.empty())
            return fmt::format("unknown command '{}{}' (commands: {})", path, word, fmt::join(names, ", "));
        return fmt::format("unknown command '{}{}'; did you mean '{}{}'?", path, word, path, near);
    }
    return {};
}

} // namespace rlda::app
