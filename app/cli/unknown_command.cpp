// Unknown subcommands and their nearest match (unknown_command.h).
#include "app/cli/unknown_command.h"

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

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    // d[i][j]: the distance of a's first i letters and b's first j, in three rows.
    std::vector<std::size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        last[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                row[j] = std::min(row[j], before[j - 2] + 1);
        }
        std::swap(before, last);
        std::swap(last, row);
    }
    return last[b.size()];
}

std::string nearest_name(std::string_view word, const std::vector<std::string>& names)
{
    std::vector<std::string> begun;
    for (const auto& n : names)
        if (!word.empty() && n.starts_with(word))
            begun.push_back(n);
    if (begun.size() == 1)
        return begun.front();
    std::string best;
    std::size_t best_distance = 0;
    for (const auto& n : names) {
        const std::size_t d = edit_distance(word, n);
        const std::size_t limit = (std::max(word.size(), n.size()) + 2) / 3;
        if (d <= limit && (best.empty() || d < best_distance)) {
            best = n;
            best_distance = d;
        }
    }
    return best;
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
        const std::string near = nearest_name(word, names);
        if (near.empty())
            return fmt::format("unknown command '{}{}' (commands: {})", path, word, fmt::join(names, ", "));
        return fmt::format("unknown command '{}{}'; did you mean '{}{}'?", path, word, path, near);
    }
    return {};
}

} // namespace rlda::app
