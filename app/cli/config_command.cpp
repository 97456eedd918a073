// `rlda config keys`: every key of the experiment schema with its type, default, what it allows
// and its help, as core/config/schema.h declares them.
#include "app/cli/commands.h"

#include "core/config/schema.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>

namespace rlda::app {
namespace {

int run_keys()
{
    namespace cfg = rlda::core::config;
    const cfg::ExperimentConfig defaults;
    std::vector<std::array<std::string, 5>> rows{{"KEY", "TYPE", "DEFAULT", "ALLOWED", "HELP"}};
    for (const auto& k : cfg::experiment_schema().keys)
        rows.push_back({k.name, cfg::to_string(k.type), cfg::toml_value(k, defaults), k.allowed(), k.help});
    std::array<std::size_t, 4> width{};
    for (const auto& r : rows)
        for (std::size_t i = 0; i < width.size(); ++i)
            width[i] = std::max(width[i], r[i].size());
    for (const auto& r : rows)
        fmt::print("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", r[0], width[0], r[1], width[1], r[2], width[2], r[3],
                   width[3], r[4]);
    return 0;
}

} // namespace

std::function<int()> add_config_command(CLI::App& app)
{
    auto* config = app.add_subcommand("config", "The experiment file's settings");
    config->require_subcommand(1);
    auto* keys = config->add_subcommand(
        "keys", "Every key: name (section.key), type, default, allowed range or choices, help");
    return [keys]() -> int {
        if (!keys->parsed())
            return -1;
        return run_keys();
    };
}

} // namespace rlda::app
