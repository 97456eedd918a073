// Experiment files in, in our schema or the original tool's: every key read as the schema declares
// it (core/config/schema.h), strict keys, and every message pointing at the file position (or the
// --set) at fault. The --set assignments are experiment_overrides.cpp.
#include "core/config/experiment_io.h"
#include "core/config/experiment_reader.h"

#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/nearest_name.h"
#include "core/util/toml_parse.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <map>
#include <string_view>
#include <type_traits>

namespace rlda::core::config {
namespace detail {
namespace {

namespace fs = std::filesystem;

bool before(const toml::source_position& a, const toml::source_position& b)
{
    return a.line < b.line || (a.line == b.line && a.column < b.column);
}

std::string_view type_name(const toml::node& n)
{
    switch (n.type()) {
    case toml::node_type::string:
        return "a string";
    case toml::node_type::integer:
        return "an integer";
    case toml::node_type::floating_point:
        return "a float";
    case toml::node_type::boolean:
        return "a boolean";
    case toml::node_type::array:
        return "an array";
    case toml::node_type::table:
        return "a table";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time:
        return "a date or time";
    default:
        return "nothing";
    }
}

} // namespace

Reader::Reader(const Schema& schema, std::string source, std::string assignment, fs::path base)
    : schema_(&schema), source_(std::move(source)), assignment_(std::move(assignment)), base_(std::move(base))
{
}

std::vector<std::string> Reader::take_warnings()
{
    std::stable_sort(warnings_.begin(), warnings_.end(),
                     [](const auto& a, const auto& b) { return before(a.first, b.first); });
    std::vector<std::string> out;
    for (auto& w : warnings_)
        out.push_back(std::move(w.second));
    return out;
}

void Reader::read(const toml::table& root, ExperimentConfig& c)
{
    for (const auto& [k, v] : root) {
        const std::string key(k.str());
        if (const Key* top = schema_->find(key); top && top->section().empty()) {
            read_key(*top, Field{v, key}, c, key);
            continue;
        }
        if (!schema_->find_section(key)) {
            std::vector<std::string> names; // what `key` may have meant, as written in a file
            std::vector<std::string> known;
            for (const Key* top : schema_->keys_of("")) {
                names.push_back(top->name);
                known.push_back(top->name);
            }
            for (const auto& section : schema_->sections) {
                names.push_back(section.name);
                known.push_back(fmt::format("[{}]", section.name));
            }
            const std::string near = nearest_name(key, names);
            const auto i = std::find(names.begin(), names.end(), near) - names.begin();
            // [train] epochs = 3 is answered for its key: [trainer] has no epochs either.
            std::string advice = hint_text(key);
            if (const toml::table* t = v.as_table())
                for (const auto& [inner, value] : *t)
                    if (advice.empty())
                        advice = hint_text(inner.str());
            if (advice.empty() && !near.empty())
                advice = fmt::format("; did you mean {}?", known[static_cast<std::size_t>(i)]);
            fail(k.source(), key, fmt::format("unknown section{} (known: {})", advice, fmt::join(known, ", ")));
        }
        const toml::table* t = v.as_table();
        if (!t)
            fail(v.source(), key, fmt::format("expected a table [{}], got {}", key, type_name(v)));
        spots_[key] = Spot{key, t->source()};
        section(*t, key, c);
    }
}

void Reader::resolve_paths(ExperimentConfig& c) const
{
    if (base_.empty())
        return;
    for (const Key& k : schema_->keys) {
        const auto* b = std::get_if<Binding<std::string>>(&k.value);
        if (k.type != Type::Path || !b)
            continue;
        const std::string p = b->get(c);
        // A suggestion (a zoo model's name) is not a path.
        if (p.empty() || fs::path(p).is_absolute() ||
            std::find(k.choices.begin(), k.choices.end(), p) != k.choices.end())
            continue;
        std::error_code ec;
        const fs::path there = base_ / p;
        if (fs::exists(there, ec))
            b->set(c, there.lexically_normal().string());
    }
}

void Reader::check(const ExperimentConfig& c) const
{
    auto problems = pending_;
    for (auto& p : find_problems(c, *schema_))
        problems.push_back(std::move(p));
    if (problems.empty())
        return;
    const Problem* best = nullptr;
    const Spot* best_spot = nullptr;
    for (const auto& p : problems) {
        const Spot* s = spot_for(p);
        if (s && (!best_spot || before(s->at.begin, best_spot->at.begin))) {
            best = &p;
            best_spot = s;
        }
    }
    if (!best) {
        const auto& p = problems.front();
        throw ConfigError(fmt::format("{}{}: {}", prefix(toml::source_region{}), p.key, p.reason));
    }
    const auto exact = spots_.find(best->key);
    const std::string& name = exact != spots_.end() ? exact->second.name : best->key;
    fail(best_spot->at, name, best->reason);
}

int Reader::closeness(const Problem& p) const
{
    if (spots_.contains(p.key))
        return 3;
    if (!p.related.empty() && spots_.contains(p.related))
        return 2;
    return spot_for(p) ? 1 : 0;
}

void Reader::blame(const Problem& p) const
{
    const Spot* s = spot_for(p);
    const auto exact = spots_.find(p.key);
    fail(s ? s->at : toml::source_region{}, exact != spots_.end() ? exact->second.name : p.key, p.reason);
}

void Reader::fail_pending() const
{
    if (!pending_.empty())
        blame(pending_.front());
}

std::string Reader::prefix(const toml::source_region& at) const
{
    if (!assignment_.empty())
        return fmt::format("--set {}: ", assignment_);
    const auto line = at.begin.line ? at.begin.line : 1;
    const auto column = at.begin.column ? at.begin.column : 1;
    return fmt::format("{}:{}:{}: ", source_, line, column);
}

void Reader::fail(const toml::source_region& at, const std::string& key,
                  const std::string& why) const
{
    throw ConfigError(fmt::format("{}{}: {}", prefix(at), key, why));
}

void Reader::fail(const toml::node& at, const std::string& key, const std::string& why) const
{
    fail(at.source(), key, why);
}

void Reader::fail_type(const toml::node& n, const std::string& key, std::string_view expected) const
{
    fail(n, key, fmt::format("expected {}, got {}", expected, type_name(n)));
}

void Reader::warn(const Field& f, std::string_view why)
{
    warnings_.emplace_back(f.node.source().begin,
                           fmt::format("{}{}: {}", prefix(f.node.source()), f.name, why));
}

const Spot* Reader::spot_for(const Problem& p) const
{
    if (auto it = spots_.find(p.key); it != spots_.end())
        return &it->second;
    if (auto it = spots_.find(p.related); !p.related.empty() && it != spots_.end())
        return &it->second;
    std::string key = p.key;
    for (auto cut = key.find_last_of(".["); cut != std::string::npos; cut = key.find_last_of(".[")) {
        key.resize(cut);
        if (auto it = spots_.find(key); it != spots_.end())
            return &it->second;
    }
    return nullptr;
}

void Reader::claim(const Field& f, const std::string& canonical)
{
    const Spot here{f.name, f.node.source()};
    if (auto it = spots_.find(canonical); it != spots_.end()) {
        const bool later = before(it->second.at.begin, here.at.begin);
        const Spot& first = later ? it->second : here;
        const Spot& second = later ? here : it->second;
        fail(second.at, second.name,
             fmt::format("sets the same value as {} (line {})", first.name, first.at.begin.line));
    }
    spots_[canonical] = here;
}

std::string Reader::text(const Field& f, const std::string& canonical)
{
    claim(f, canonical);
    if (!f.node.is_string())
        fail_type(f.node, f.name, "a string");
    return f.node.value<std::string>().value();
}

template <class T> T Reader::as_integer(const toml::node& n, const std::string& name) const
{
    if (!n.is_integer())
        fail_type(n, name, "an integer");
    const std::int64_t v = n.as_integer()->get();
    if constexpr (std::is_unsigned_v<T>) {
        if (v < 0)
            fail(n, name, fmt::format("must be at least 0, got {}", v));
    } else if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
               v > static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
        fail(n, name,
             fmt::format("must be in [{}, {}], got {}", std::numeric_limits<T>::min(),
                         std::numeric_limits<T>::max(), v));
    }
    return static_cast<T>(v);
}

template <class T> T Reader::integer(const Field& f, const std::string& canonical)
{
    claim(f, canonical);
    return as_integer<T>(f.node, f.name);
}

double Reader::as_number(const toml::node& n, const std::string& name) const
{
    if (n.is_integer())
        return static_cast<double>(n.as_integer()->get());
    if (!n.is_floating_point())
        fail_type(n, name, "a number");
    return n.as_floating_point()->get();
}

double Reader::number(const Field& f, const std::string& canonical)
{
    claim(f, canonical);
    return as_number(f.node, f.name);
}

bool Reader::flag(const Field& f, const std::string& canonical)
{
    claim(f, canonical);
    if (!f.node.is_boolean())
        fail_type(f.node, f.name, "true or false");
    return f.node.as_boolean()->get();
}

template <class T> std::vector<T> Reader::integers(const Field& f, const std::string& canonical)
{
    claim(f, canonical);
    const toml::array* arr = f.node.as_array();
    if (!arr)
        fail_type(f.node, f.name, "an array of integers");
    std::vector<T> out;
    for (std::size_t i = 0; i < arr->size(); ++i) {
        const toml::node& n = (*arr)[i];
        const std::string name = fmt::format("{}[{}]", f.name, i);
        spots_[fmt::format("{}[{}]", canonical, i)] = Spot{name, n.source()};
        out.push_back(as_integer<T>(n, name));
    }
    return out;
}

std::string Reader::device(const Field& f, const std::string& canonical)
{
    claim(f, canonical);
    if (f.node.is_integer()) {
        const std::int64_t index = f.node.as_integer()->get();
        if (index < 0)
            fail(f.node, f.name, fmt::format("a GPU index must be at least 0, got {}", index));
        return fmt::format("cuda:{}", index);
    }
    if (!f.node.is_string())
        fail_type(f.node, f.name, "a device string (\"cpu\", \"cuda\", \"cuda:N\") or a GPU index");
    return f.node.value<std::string>().value();
}

std::vector<AllocationEventConfig> Reader::events(const Field& f, const std::string& canonical)
{
    claim(f, canonical);
    const toml::array* arr = f.node.as_array();
    if (!arr)
        fail_type(f.node, f.name, "an array of { time = ..., change = \"up\" | \"down\" }");
    std::vector<AllocationEventConfig> out;
    for (std::size_t i = 0; i < arr->size(); ++i) {
        const std::string name = fmt::format("{}[{}]", f.name, i);
        const std::string key = fmt::format("{}[{}]", canonical, i);
        const toml::table* t = (*arr)[i].as_table();
        if (!t)
            fail_type((*arr)[i], name, "a table { time = ..., change = \"up\" | \"down\" }");
        spots_[key] = Spot{name, t->source()};
        out.push_back(event(*t, name, key));
    }
    return out;
}

AllocationEventConfig Reader::event(const toml::table& t, const std::string& name, const std::string& key)
{
    AllocationEventConfig e;
    bool has_time = false;
    bool has_change = false;
    for (const auto& [k, v] : t) {
        const Field f{v, fmt::format("{}.{}", name, k.str())};
        if (k.str() == "time") {
            e.time = number(f, key + ".time");
            has_time = true;
        } else if (k.str() == "change") {
            const std::string name = text(f, key + ".change");
            const auto c = from_string<Change>(name);
            if (!c)
                fail(f.node, f.name,
                     fmt::format("unknown value {} (allowed: \"{}\")", excerpt(name), fmt::join(names<Change>(), "\", \"")));
            e.change = *c;
            has_change = true;
        } else {
            const std::string near = nearest_name(k.str(), {"time", "change"});
            fail(k.source(), f.name,
                 fmt::format("unknown key{} (known: time, change)",
                             near.empty() ? "" : fmt::format("; did you mean {}?", near)));
        }
    }
    if (!has_time)
        fail(t.source(), name + ".time", "missing (seconds since the job started)");
    if (!has_change)
        fail(t.source(), name + ".change", "missing (\"up\" or \"down\")");
    return e;
}

void Reader::section(const toml::table& t, const std::string& name, ExperimentConfig& c)
{
    for (const auto& [k, v] : t) {
        const std::string key = fmt::format("{}.{}", name, k.str());
        const Field f{v, key};
        if (const Key* ours = schema_->find(key)) {
            read_key(*ours, f, c, key);
        } else if (const Alias* alias = schema_->find_alias(key)) {
            read_alias(*alias, f, c);
        } else {
            // The original's keys are read but not suggested.
            std::vector<std::string> known;
            for (const Key* x : schema_->keys_of(name))
                known.push_back(x->short_name());
            const std::string near = nearest_key(name, std::string(k.str()));
            const std::string advice = near.empty() ? hint_text(k.str()) : fmt::format("; did you mean {}?", near);
            fail(k.source(), key, fmt::format("unknown key{} (known: {})", advice, fmt::join(known, ", ")));
        }
    }
}

std::string Reader::hint_text(std::string_view word) const
{
    const Hint* h = schema_->find_hint(word);
    return h ? fmt::format("; {}: set {}", h->note, h->key) : std::string();
}

std::string Reader::nearest_key(const std::string& section, const std::string& name) const
{
    std::vector<std::string> own;
    for (const Key* x : schema_->keys_of(section))
        own.push_back(x->short_name());
    if (const std::string near = nearest_name(name, own); !near.empty())
        return fmt::format("{}.{}", section, near);
    std::vector<std::string> others;
    std::vector<std::string> full;
    for (const Key& x : schema_->keys)
        if (!x.section().empty() && x.section() != section) {
            others.push_back(x.short_name());
            full.push_back(x.name);
        }
    const std::string near = nearest_name(name, others);
    if (near.empty() || edit_distance(name, near) > 1)
        return {};
    // The first of equal names: job.seed before agent.seed.
    const auto at = std::find(others.begin(), others.end(), near);
    return full[static_cast<std::size_t>(at - others.begin())];
}

void Reader::read_key(const Key& k, const Field& f, ExperimentConfig& c, const std::string& canonical)
{
    std::visit(
        [&]<class T>(const Binding<T>& b) {
            if constexpr (std::is_same_v<T, std::string>) {
                std::string v = k.type == Type::Device ? device(f, canonical) : text(f, canonical);
                if (k.type == Type::Choice && std::find(k.choices.begin(), k.choices.end(), v) == k.choices.end()) {
                    std::vector<std::string> allowed;
                    for (const auto& n : k.choices)
                        allowed.push_back(fmt::format("\"{}\"", n));
                    pending_.push_back({canonical,
                                        fmt::format("unknown value {} (allowed: {})", excerpt(v), fmt::join(allowed, ", ")),
                                        {}});
                    return;
                }
                b.set(c, std::move(v));
            } else if constexpr (std::is_same_v<T, bool>) {
                b.set(c, flag(f, canonical));
            } else if constexpr (std::is_same_v<T, double>) {
                b.set(c, number(f, canonical));
            } else if constexpr (std::is_integral_v<T>) {
                b.set(c, integer<T>(f, canonical));
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                b.set(c, texts(f, canonical));
            } else if constexpr (std::is_same_v<T, std::vector<AllocationEventConfig>>) {
                b.set(c, events(f, canonical));
            } else {
                b.set(c, integers<typename T::value_type>(f, canonical));
            }
        },
        k.value);
}

void Reader::read_alias(const Alias& a, const Field& f, ExperimentConfig& c)
{
    if (a.key.empty()) {
        warn(f, a.note);
        return;
    }
    const Key* k = schema_->find(a.key);
    if (!k)
        throw Error(fmt::format("{}: the schema's alias names no key \"{}\"", a.name, a.key));
    if (!a.values.empty()) { // the original's names of the choices
        const std::string name = text(f, a.key);
        const auto it = std::find_if(a.values.begin(), a.values.end(), [&](const auto& v) { return v.first == name; });
        if (it == a.values.end()) {
            std::vector<std::string> allowed;
            for (const auto& v : a.values)
                allowed.push_back(fmt::format("\"{}\"", v.first));
            fail(f.node, f.name, fmt::format("unknown value {} (allowed: {})", excerpt(name), fmt::join(allowed, ", ")));
        }
        std::get<Binding<std::string>>(k->value).set(c, it->second);
        return;
    }
    read_key(*k, f, c, a.key);
    if (const auto* b = std::get_if<Binding<std::string>>(&k->value);
        b && !a.extension.empty() && fs::path(b->get(c)).extension() == a.extension)
        warn(f, a.note);
}

std::vector<std::string> Reader::texts(const Field& f, const std::string& canonical)
{
    claim(f, canonical);
    const toml::array* arr = f.node.as_array();
    if (!arr)
        fail_type(f.node, f.name, "an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < arr->size(); ++i) {
        const toml::node& n = (*arr)[i];
        const std::string name = fmt::format("{}[{}]", f.name, i);
        spots_[fmt::format("{}[{}]", canonical, i)] = Spot{name, n.source()};
        if (!n.is_string())
            fail_type(n, name, "a string");
        out.push_back(n.value<std::string>().value());
    }
    return out;
}

} // namespace detail

ExperimentConfig parse_experiment(const std::string& text, const std::string& source, const Schema& schema)
{
    const toml::table root = parse_toml(text, source);
    ExperimentConfig c;
    c.source = source;
    detail::Reader reader(schema, source, {}, std::filesystem::path(source).parent_path());
    reader.read(root, c);
    reader.resolve_paths(c);
    reader.check(c);
    c.warnings = reader.take_warnings();
    return c;
}

ExperimentConfig load_experiment(const std::string& path, const Schema& schema)
{
    return parse_experiment(read_toml_file(path), path, schema);
}

} // namespace rlda::core::config
