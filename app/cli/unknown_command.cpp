// Unknown subcommands and options, and what was most likely meant (unknown_command.h).
#include "app/cli/unknown_command.h"

#include "core/config/schema.h"
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

// A word that is an option's name: "--out", "-h", "--out=DIR"; not "-", "-1" or "-.5".
bool option_word(std::string_view word)
{
    return word.size() > 1 && word.front() == '-' && word != "--" &&
           std::string_view("0123456789.").find(word[1]) == std::string_view::npos;
}

// The long names of the options of `app` and of the ancestors it falls through to, without their
// dashes ("out", "force", "verbose").
std::vector<std::string> long_names(const CLI::App* app)
{
    std::vector<std::string> names;
    for (; app; app = app->get_fallthrough() ? app->get_parent() : nullptr)
        for (const CLI::Option* o : app->get_options())
            for (const std::string& n : o->get_lnames())
                if (std::find(names.begin(), names.end(), n) == names.end())
                    names.push_back(n);
    return names;
}

// For an unknown option `name` of `at` (its path "train"), given `value` (may be empty): the
// nearest option, else a setting of the experiment of that name or a hint of the schema where `at`
// takes --set, else where its options are listed.
std::string unknown_option_message(const CLI::App* at, const std::string& path, const std::string& name,
                                   const std::string& value)
{
    const auto dashes = name.find_first_not_of('-');
    const std::string bare = dashes == std::string::npos ? std::string() : name.substr(dashes); // "---": ""
    const std::string command = path.empty() ? std::string("rlda") : "rlda " + path;
    const std::string head = fmt::format("unknown option '{}' for '{}'", name, command);
    if (const std::string near = core::nearest_name(bare, long_names(at)); !near.empty())
        return fmt::format("{}; did you mean '--{}'?", head, near);
    if (option_named(at, "--set")) {
        const auto& schema = core::config::experiment_schema();
        std::string key = bare;
        std::replace(key.begin(), key.end(), '-', '_');
        for (const auto& k : schema.keys)
            if (k.name == key || k.short_name() == key)
                return fmt::format("{}; did you mean --set {}={}?", head, k.name, value.empty() ? "VALUE" : value);
        if (const core::config::Hint* h = schema.find_hint(key))
            return fmt::format("{}: {}; use --set {}={}", head, h->note, h->key, h->value);
    }
    return fmt::format("{} ({} --help lists them)", head, command);
}

} // namespace

std::string unknown_option(const CLI::App& app, const std::vector<std::string>& args)
{
    const CLI::App* at = &app;
    std::string path; // the subcommands so far, "sweep status"
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& word = args[i];
        if (word == "--")
            return {};
        if (option_word(word)) {
            const auto eq = word.find('=');
            if (const CLI::Option* o = option_named(at, word)) {
                if (o->get_items_expected_max() > 0 && eq == std::string::npos)
                    ++i; // its value
                continue;
            }
            std::string value;
            if (eq != std::string::npos)
                value = word.substr(eq + 1);
            else if (i + 1 < args.size() && !option_word(args[i + 1]))
                value = args[i + 1];
            return unknown_option_message(at, path, word.substr(0, eq), value);
        }
        const auto subcommands = at->get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); });
        const auto known = std::find_if(subcommands.begin(), subcommands.end(),
                                        [&](const CLI::App* s) { return s->check_name(word); });
        if (known != subcommands.end()) {
            at = *known;
            path += (path.empty() ? "" : " ") + word;
        }
    }
    return {};
}

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
