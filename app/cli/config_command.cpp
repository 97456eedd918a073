// `rlda config keys`: every key of the experiment schema with its type, default, what it allows
// and its help, as core/config/schema.h declares them; `--original`: the original tool's spellings.
// `rlda config examples`: the example experiments shipped with rlda, where this rlda finds them.
#include "app/cli/commands.h"

#include "core/config/schema.h"
#include "core/util/data_dir.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <system_error>

namespace rlda::app {
namespace {

// Columns separated by two spaces, each as wide as its widest cell; the last one as it is.
template <std::size_t N> void print_table(const std::vector<std::array<std::string, N>>& rows)
{
    std::array<std::size_t, N> width{};
    for (const auto& r : rows)
        for (std::size_t i = 0; i + 1 < N; ++i)
            width[i] = std::max(width[i], r[i].size());
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i + 1 < N; ++i)
            line += fmt::format("{:<{}}  ", r[i], width[i]);
        line += r[N - 1];
        line.erase(line.find_last_not_of(' ') + 1); // an empty last cell leaves no trailing spaces
        fmt::print("{}\n", line);
    }
}

int run_keys(bool original)
{
    namespace cfg = rlda::core::config;
    const auto& schema = cfg::experiment_schema();
    if (original) {
        std::vector<std::array<std::string, 3>> rows{{"ORIGINAL", "READ AS", "NOTE"}};
        for (const auto& a : schema.aliases)
            rows.push_back({a.name, a.key.empty() ? "(not used)" : a.key, a.note});
        print_table(rows);
        return 0;
    }
    const cfg::ExperimentConfig defaults;
    std::vector<std::array<std::string, 5>> rows{{"KEY", "TYPE", "DEFAULT", "ALLOWED", "HELP"}};
    for (const auto& k : schema.keys)
        rows.push_back({k.name, cfg::to_string(k.type), cfg::toml_value(k, defaults), k.allowed(), k.help});
    print_table(rows);
    return 0;
}

// One line per example: its path, as `rlda train` takes it, and its name.
int run_examples()
{
    for (const auto& file : core::example_files())
        fmt::print("{}\n", file.string());
    return 0;
}

} // namespace

std::string experiment_file(const std::string& config)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (config.empty() || config.find('/') != std::string::npos || fs::exists(config, ec))
        return config;
    const fs::path name = config.ends_with(".toml") ? config : config + ".toml";
    for (const fs::path& dir : core::example_dirs())
        if (fs::is_regular_file(dir / name, ec))
            return (dir / name).string();
    return config;
}

std::function<int()> add_config_command(CLI::App& app)
{
    auto* config = app.add_subcommand("config", "The experiment file's settings");
    config->require_subcommand(1);
    auto* keys = config->add_subcommand(
        "keys", "Every key: name (section.key), type, default, allowed range or choices, help");
    auto original = std::make_shared<bool>(false);
    keys->add_flag("--original", *original,
                   "Instead: the original tool's keys that experiment files may still use, and what each is read as");
    auto* examples = config->add_subcommand(
        "examples", "The example experiments shipped with rlda, one path a line (rlda train PATH runs one)");
    return [keys, examples, original]() -> int {
        if (examples->parsed())
            return run_examples();
        if (!keys->parsed())
            return -1;
        return run_keys(*original);
    };
}

} // namespace rlda::app
