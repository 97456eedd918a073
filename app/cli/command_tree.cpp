// The command line read back from CLI11 (command_tree.h).
#include "app/cli/command_tree.h"

#include <CLI/CLI.hpp>

namespace rlda::app {
namespace {

// "TEXT:{local,slurm}" -> {"local", "slurm"}: CLI11 writes an IsMember check's set this way.
std::vector<std::string> choices_of(const std::string& type_name)
{
    const auto open = type_name.find('{');
    const auto close = type_name.find('}', open);
    if (open == std::string::npos || close == std::string::npos)
        return {};
    std::vector<std::string> choices;
    std::string rest = type_name.substr(open + 1, close - open - 1);
    for (std::size_t cut; !rest.empty(); rest.erase(0, cut == std::string::npos ? cut : cut + 1)) {
        cut = rest.find(',');
        choices.push_back(rest.substr(0, cut));
    }
    return choices;
}

CliOption option_of(const CLI::Option& o)
{
    CliOption c;
    if (o.get_positional() && !o.nonpositional()) {
        c.names.push_back(o.get_name(true));
    } else {
        for (const auto& n : o.get_lnames())
            c.names.push_back("--" + n);
        for (const auto& n : o.get_snames())
            c.names.push_back("-" + n);
    }
    if (o.get_items_expected_max() > 0) { // not a flag
        // "INT:INT in [1 - 5]": the type, then its check's description when it has one.
        const std::string type = o.get_type_name();
        c.choices = choices_of(type);
        c.value = type.empty() ? "VALUE" : type.substr(type.find(':') + 1);
    }
    c.help = o.get_description();
    c.default_value = o.get_default_str();
    c.required = o.get_required();
    c.repeatable = o.nonpositional() && o.get_items_expected_max() > 1;
    return c;
}

void add(const CLI::App& app, const std::string& path, std::vector<CliCommand>& tree)
{
    CliCommand c;
    c.path = path;
    c.help = app.get_description();
    c.fallthrough = app.get_fallthrough();
    for (const CLI::Option* o : app.get_options()) {
        if (o->nonpositional())
            c.options.push_back(option_of(*o));
        else
            c.positionals.push_back(option_of(*o));
    }
    const auto subcommands = app.get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); });
    for (const CLI::App* s : subcommands)
        c.subcommands.push_back(s->get_name());
    tree.push_back(std::move(c));
    for (const CLI::App* s : subcommands)
        add(*s, path.empty() ? s->get_name() : path + " " + s->get_name(), tree);
}

} // namespace

std::vector<CliCommand> command_tree(const CLI::App& app)
{
    std::vector<CliCommand> tree;
    add(app, {}, tree);
    return tree;
}

} // namespace rlda::app
