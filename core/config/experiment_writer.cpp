// Experiment files out: every key of the schema written with its help, read back bit for bit.
#include "core/config/experiment_io.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::config {
namespace {

class Writer {
public:
    std::string out;

    void header(std::string_view name, std::string_view comment)
    {
        out += fmt::format("\n# {}\n[{}]\n", comment, name);
    }
    void line(std::string_view key, const std::string& value, std::string_view comment)
    {
        out += fmt::format("{:<40}# {}\n", fmt::format("{} = {} ", key, value), comment);
    }
    // Events one to a line, the rest on one.
    void key(const Key& k, const ExperimentConfig& c)
    {
        const auto* events = std::get_if<Binding<std::vector<AllocationEventConfig>>>(&k.value);
        if (!events || events->get(c).empty()) {
            line(k.short_name(), toml_value(k, c), k.hint());
            return;
        }
        line(k.short_name(), "[", k.hint());
        for (const auto& e : events->get(c))
            out += fmt::format("  {{ time = {}, change = {} }},\n", toml_number(e.time),
                               toml_quote(to_string(e.change)));
        out += "]\n";
    }
};

} // namespace

std::string to_toml(const ExperimentConfig& c, const Schema& schema)
{
    Writer w;
    w.out = "# RLDA Workbench experiment: every setting written, defaults included.\n\n";
    for (const Key* k : schema.keys_of(""))
        w.key(*k, c);
    for (const auto& section : schema.sections) {
        w.header(section.name, section.help);
        for (const Key* k : schema.keys_of(section.name))
            w.key(*k, c);
    }
    return w.out;
}

namespace {

// `c` with each relative path (every Path key but a suggestion, a zoo model's name) replaced by
// `f(path)`. In memory a relative path is relative to the working directory: the reader resolved it.
template <class F> ExperimentConfig map_relative_paths(const ExperimentConfig& c, const Schema& schema, F f)
{
    namespace fs = std::filesystem;
    ExperimentConfig out = c;
    for (const Key& k : schema.keys) {
        const auto* b = std::get_if<Binding<std::string>>(&k.value);
        if (k.type != Type::Path || !b)
            continue;
        const std::string p = b->get(c);
        if (p.empty() || fs::path(p).is_absolute() || std::find(k.choices.begin(), k.choices.end(), p) != k.choices.end())
            continue;
        std::error_code ec;
        const fs::path absolute = fs::absolute(p, ec).lexically_normal();
        if (!ec)
            b->set(out, f(absolute));
    }
    return out;
}

} // namespace

std::string to_toml_at(const ExperimentConfig& c, const std::filesystem::path& file, const Schema& schema)
{
    std::error_code ec;
    const auto folder = std::filesystem::absolute(file, ec).lexically_normal().parent_path();
    return to_toml(map_relative_paths(c, schema, [&](const std::filesystem::path& p) {
                       return p.lexically_relative(folder).string();
                   }),
                   schema);
}

ExperimentConfig with_absolute_paths(const ExperimentConfig& c, const Schema& schema)
{
    return map_relative_paths(c, schema, [](const std::filesystem::path& p) { return p.string(); });
}

bool same_settings(const ExperimentConfig& a, const ExperimentConfig& b)
{
    ExperimentConfig x = a;
    ExperimentConfig y = b;
    x.source.clear();
    y.source.clear();
    x.warnings.clear();
    y.warnings.clear();
    return x == y;
}

} // namespace rlda::core::config
