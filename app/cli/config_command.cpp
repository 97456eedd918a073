// `rlda config keys`: every key of the experiment schema with its type, default, what it allows
// and its help, as core/config/schema.h declares them, section by section, every line within 80
// columns; `--original`: the original tool's spellings.
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

// Every line of `config keys` fits a terminal of this many columns; a key's text goes under it,
// indented.
constexpr std::size_t kColumns = 80;
constexpr std::size_t kIndent = 4;

// Columns on a terminal: UTF-8 continuation bytes take none.
std::size_t columns(std::string_view text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
}

// `text` in lines of `kIndent` spaces and words, each within kColumns where its words allow (a word
// wider than a line stands alone).
std::vector<std::string> wrap(std::string_view text)
{
    const std::string indent(kIndent, ' ');
    std::vector<std::string> lines;
    std::string line;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find(' ', start), text.size());
        const std::string_view word = text.substr(start, end - start);
        start = end + 1;
        if (word.empty())
            continue;
        if (!line.empty() && columns(line) + 1 + columns(word) > kColumns) {
            lines.push_back(line);
            line.clear();
        }
        line += line.empty() ? indent + std::string(word) : " " + std::string(word);
    }
    if (!line.empty())
        lines.push_back(line);
    return lines;
}

// Each row's cells but the last as columns separated by two spaces, each as wide as its widest
// cell; the last cell wrapped under them. `sections`: before a row's index, a blank line and this
// header (none when empty).
template <std::size_t N>
void print_rows(const std::vector<std::array<std::string, N>>& rows,
                const std::vector<std::pair<std::size_t, std::string>>& sections = {})
{
    std::array<std::size_t, N> width{};
    for (const auto& r : rows)
        for (std::size_t i = 0; i + 2 < N; ++i)
            width[i] = std::max(width[i], columns(r[i]));
    auto section = sections.begin();
    for (std::size_t row = 0; row < rows.size(); ++row) {
        if (section != sections.end() && section->first == row) {
            fmt::print("\n");
            if (!section->second.empty())
                fmt::print("{}\n", section->second);
            ++section;
        }
        const auto& r = rows[row];
        std::string line;
        for (std::size_t i = 0; i + 2 < N; ++i)
            line += r[i] + std::string(width[i] - columns(r[i]) + 2, ' ');
        line += r[N - 2];
        line.erase(line.find_last_not_of(' ') + 1); // an empty last cell leaves no trailing spaces
        fmt::print("{}\n", line);
        for (const auto& l : wrap(r[N - 1]))
            fmt::print("{}\n", l);
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
        print_rows(rows);
        return 0;
    }
    // The key's help and what it allows, as the editor's tooltips and config.toml's comments say it.
    const cfg::ExperimentConfig defaults;
    std::vector<std::array<std::string, 4>> rows{{"KEY", "TYPE", "DEFAULT", "WHAT IT DOES; WHAT IT ALLOWS"}};
    std::vector<std::pair<std::size_t, std::string>> sections;
    std::string last = "-";
    for (const auto& k : schema.keys) {
        if (k.section() != last) {
            last = k.section();
            const cfg::Section* s = schema.find_section(last);
            sections.emplace_back(rows.size(), s ? fmt::format("[{}]  {}", s->name, s->help) : ""); // "": name
        }
        rows.push_back({k.name, cfg::to_string(k.type), cfg::toml_value(k, defaults), k.hint()});
    }
    print_rows(rows, sections);
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
