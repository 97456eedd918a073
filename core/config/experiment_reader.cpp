// Experiment files in, in our schema or the original tool's: every key read as the schema declares
// it (core/config/schema.h), strict keys, and every message pointing at the file position (or the
// --set) at fault.
#include "core/config/experiment_io.h"

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
namespace {

namespace fs = std::filesystem;

// A key as written: its value and its dotted name in the file's own spelling.
struct Field {
    const toml::node& node;
    std::string name;
};

// Where a setting was written, so that a bad value found later can still be pointed at.
struct Spot {
    std::string name;
    toml::source_region at;
};

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

class Reader {
public:
    // `assignment` non-empty: reading a --set, whose text has no useful positions.
    Reader(const Schema& schema, std::string source, std::string assignment, fs::path base)
        : schema_(&schema), source_(std::move(source)), assignment_(std::move(assignment)), base_(std::move(base))
    {
    }

    // Warnings in file order (sections are visited in key order).
    std::vector<std::string> take_warnings()
    {
        std::stable_sort(warnings_.begin(), warnings_.end(),
                         [](const auto& a, const auto& b) { return before(a.first, b.first); });
        std::vector<std::string> out;
        for (auto& w : warnings_)
            out.push_back(std::move(w.second));
        return out;
    }

    void read(const toml::table& root, ExperimentConfig& c)
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

    // Paths written relative to the config file mean "next to it" when such a file exists there.
    void resolve_paths(ExperimentConfig& c) const
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

    // Reports the first bad value in file order; values this text did not set come after.
    void check(const ExperimentConfig& c) const
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

    // How closely this text set what `p` is about: 3 the key itself, 2 the setting it depends
    // on, 1 an enclosing key or section, 0 not at all.
    int closeness(const Problem& p) const
    {
        if (spots_.contains(p.key))
            return 3;
        if (!p.related.empty() && spots_.contains(p.related))
            return 2;
        return spot_for(p) ? 1 : 0;
    }

    // Throws `p` as this text's error, at the position of what it set.
    [[noreturn]] void blame(const Problem& p) const
    {
        const Spot* s = spot_for(p);
        const auto exact = spots_.find(p.key);
        fail(s ? s->at : toml::source_region{}, exact != spots_.end() ? exact->second.name : p.key, p.reason);
    }

    // A value the config cannot hold (a choice's unknown name) is this text's own error.
    void fail_pending() const
    {
        if (!pending_.empty())
            blame(pending_.front());
    }

private:
    const Schema* schema_;
    std::vector<Problem> pending_; // values refused while reading, reported with the checks in file order
    std::string source_;
    std::string assignment_;
    fs::path base_;
    std::map<std::string, Spot> spots_; // canonical key -> where this text set it
    std::vector<std::pair<toml::source_position, std::string>> warnings_;

    std::string prefix(const toml::source_region& at) const
    {
        if (!assignment_.empty())
            return fmt::format("--set {}: ", assignment_);
        const auto line = at.begin.line ? at.begin.line : 1;
        const auto column = at.begin.column ? at.begin.column : 1;
        return fmt::format("{}:{}:{}: ", source_, line, column);
    }

    [[noreturn]] void fail(const toml::source_region& at, const std::string& key,
                           const std::string& why) const
    {
        throw ConfigError(fmt::format("{}{}: {}", prefix(at), key, why));
    }
    [[noreturn]] void fail(const toml::node& at, const std::string& key, const std::string& why) const
    {
        fail(at.source(), key, why);
    }
    [[noreturn]] void fail_type(const toml::node& n, const std::string& key, std::string_view expected) const
    {
        fail(n, key, fmt::format("expected {}, got {}", expected, type_name(n)));
    }

    void warn(const Field& f, std::string_view why)
    {
        warnings_.emplace_back(f.node.source().begin,
                               fmt::format("{}{}: {}", prefix(f.node.source()), f.name, why));
    }

    // The exact key, else the setting it depends on, else the nearest enclosing key or section.
    const Spot* spot_for(const Problem& p) const
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

    // Records where `canonical` was set; two spellings of one setting (budget and running_time)
    // would silently shadow each other, so the later one is an error.
    void claim(const Field& f, const std::string& canonical)
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

    // --- typed values --------------------------------------------------------------------------

    std::string text(const Field& f, const std::string& canonical)
    {
        claim(f, canonical);
        if (!f.node.is_string())
            fail_type(f.node, f.name, "a string");
        return f.node.value<std::string>().value();
    }

    template <class T> T as_integer(const toml::node& n, const std::string& name) const
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

    template <class T> T integer(const Field& f, const std::string& canonical)
    {
        claim(f, canonical);
        return as_integer<T>(f.node, f.name);
    }

    double as_number(const toml::node& n, const std::string& name) const
    {
        if (n.is_integer())
            return static_cast<double>(n.as_integer()->get());
        if (!n.is_floating_point())
            fail_type(n, name, "a number");
        return n.as_floating_point()->get();
    }

    double number(const Field& f, const std::string& canonical)
    {
        claim(f, canonical);
        return as_number(f.node, f.name);
    }

    bool flag(const Field& f, const std::string& canonical)
    {
        claim(f, canonical);
        if (!f.node.is_boolean())
            fail_type(f.node, f.name, "true or false");
        return f.node.as_boolean()->get();
    }

    template <class T> std::vector<T> integers(const Field& f, const std::string& canonical)
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

    // An integer N is the original's GPU index; strings are checked with the other values.
    std::string device(const Field& f, const std::string& canonical)
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

    std::vector<AllocationEventConfig> events(const Field& f, const std::string& canonical)
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

    AllocationEventConfig event(const toml::table& t, const std::string& name, const std::string& key)
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

    // --- sections ------------------------------------------------------------------------------

    void section(const toml::table& t, const std::string& name, ExperimentConfig& c)
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

    // "; NOTE: set KEY" for a word of another tool's settings (Schema::hints), else "".
    std::string hint_text(std::string_view word) const
    {
        const Hint* h = schema_->find_hint(word);
        return h ? fmt::format("; {}: set {}", h->note, h->key) : std::string();
    }

    // The key that `section`.`name`, which names none, most likely meant (nearest_name.h): one of
    // its own section, else one of another section whose name is the same or one letter away
    // (job.budget is scheduler.budget; sweep.nodes is not job.model); "" when none is that near.
    std::string nearest_key(const std::string& section, const std::string& name) const
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

    // Reads `f` as `k`, into the setting `k` names; `canonical` is where it is recorded.
    void read_key(const Key& k, const Field& f, ExperimentConfig& c, const std::string& canonical)
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

    void read_alias(const Alias& a, const Field& f, ExperimentConfig& c)
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

    std::vector<std::string> texts(const Field& f, const std::string& canonical)
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

};


std::string trim(std::string_view s)
{
    const auto space = [](unsigned char ch) { return std::isspace(ch) != 0; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return std::string(s);
}

bool bare_key(std::string_view k)
{
    return !k.empty() && std::all_of(k.begin(), k.end(), [](unsigned char ch) {
        return std::isalnum(ch) != 0 || ch == '_' || ch == '-';
    });
}

} // namespace

ExperimentConfig parse_experiment(const std::string& text, const std::string& source, const Schema& schema)
{
    const toml::table root = parse_toml(text, source);
    ExperimentConfig c;
    c.source = source;
    Reader reader(schema, source, {}, fs::path(source).parent_path());
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

namespace {

// One --set parsed into a one-key TOML table, its text kept for messages.
struct Assignment {
    std::string shown; // one line even for an assignment that spans several
    toml::table root;
};

Assignment parse_assignment(const std::string& assignment)
{
    Assignment a;
    for (const char ch : assignment)
        a.shown += ch == '\n' ? std::string("\\n") : std::string(1, ch);
    const auto fail = [&](std::string_view why) {
        throw ConfigError(fmt::format("--set {}: {}", a.shown, why));
    };
    const auto eq = assignment.find('=');
    if (eq == std::string::npos)
        fail("expected section.key=value, the value in TOML syntax (strings in double quotes)");
    const std::string key = trim(std::string_view(assignment).substr(0, eq));
    const std::string value = trim(std::string_view(assignment).substr(eq + 1));
    const auto dot = key.find('.');
    const std::string head = key.substr(0, dot);
    const std::string tail = dot == std::string::npos ? std::string() : key.substr(dot + 1);
    if (!bare_key(head) || (dot != std::string::npos && !bare_key(tail)))
        fail(fmt::format("\"{}\" is not a section.key name", key));
    if (value.empty())
        fail("expected a value after '='");

    // The value goes through the TOML parser and the file's section readers unchanged.
    const std::string text = tail.empty() ? fmt::format("{} = {}\n", head, value)
                                          : fmt::format("[{}]\n{} = {}\n", head, tail, value);
    try {
        check_toml_depth(text, "--set");
        a.root = toml::parse(text, std::string_view("--set"));
    } catch (const ConfigError&) {
        fail(fmt::format("{}: a value nested deeper than {} levels", key, kMaxTomlDepth));
    } catch (const toml::parse_error& e) {
        const bool bare = std::isalpha(static_cast<unsigned char>(value.front())) != 0;
        // A bare word is a string whose quotes the shell took (--set agent.kind="policy" in bash):
        // read it as one; the key's own reader still checks its type and allowed values.
        const bool word = std::all_of(value.begin(), value.end(), [](char ch) {
            return std::isalnum(static_cast<unsigned char>(ch)) != 0 || std::string_view("_-./:+~").find(ch) != std::string_view::npos;
        });
        if (word)
            a.root = toml::parse(tail.empty() ? fmt::format("{} = \"{}\"\n", head, value)
                                              : fmt::format("[{}]\n{} = \"{}\"\n", head, tail, value),
                                 std::string_view("--set"));
        else
            fail(fmt::format("{}: {}{}", key, e.description(),
                             bare ? fmt::format(" (a string needs double quotes: {}=\"{}\")", key, value) : ""));
    }
    const toml::table* section = a.root.get_as<toml::table>(head);
    if (a.root.size() != 1 || (!tail.empty() && (!section || section->size() != 1)))
        fail("expected exactly one value");
    return a;
}

} // namespace

void apply_override(ExperimentConfig& c, const std::string& assignment, const Schema& schema)
{
    apply_overrides(c, {assignment}, schema);
}

void apply_overrides(ExperimentConfig& c, const std::vector<std::string>& assignments, const Schema& schema)
{
    std::vector<Assignment> parsed;
    for (const auto& text : assignments)
        parsed.push_back(parse_assignment(text));
    // Every assignment but `skip` (none when out of range) onto `c`, types and keys checked.
    const auto apply = [&](std::size_t skip, std::vector<Reader>* readers) {
        ExperimentConfig out = c;
        for (std::size_t i = 0; i < parsed.size(); ++i) {
            if (i == skip)
                continue;
            Reader r(schema, std::string{}, parsed[i].shown, fs::path{});
            r.read(parsed[i].root, out); // a wrong type or an unknown key: this assignment's own error
            r.fail_pending();
            if (readers)
                readers->push_back(std::move(r));
        }
        return out;
    };
    std::vector<Reader> readers;
    ExperimentConfig changed = apply(parsed.size(), &readers);

    // Range and cross-field checks once, on the result. When `c` was valid, each problem comes
    // from the assignments: blame one without which the problem goes away (budget=40 before
    // step_cost=0.1 for an event past the budget), else the one that set the key closest to it;
    // the latest of equals.
    const auto problems = find_problems(changed, schema);
    const auto has_key = [](const std::vector<Problem>& ps, const std::string& key) {
        return std::any_of(ps.begin(), ps.end(), [&](const Problem& q) { return q.key == key; });
    };
    const Problem* fault = nullptr;
    std::size_t culprit = readers.size();
    int best = 0;
    for (const auto& p : problems) {
        for (std::size_t i = readers.size(); i-- > 0;) {
            const int close = readers[i].closeness(p);
            const int score = (has_key(find_problems(apply(i, nullptr), schema), p.key) ? 0 : 4) + close;
            if (score > best) {
                best = score;
                culprit = i;
                fault = &p;
            }
        }
        if (best >= 4) // a cause: later problems are most likely its consequences
            break;
    }
    if (fault)
        readers[culprit].blame(*fault);
    if (!problems.empty()) // only if `c` came in invalid: no assignment to name
        throw ConfigError(fmt::format("--set: {}: {}", problems.front().key, problems.front().reason));
    for (auto& r : readers)
        for (auto& w : r.take_warnings())
            changed.warnings.push_back(std::move(w));
    c = std::move(changed);
}

} // namespace rlda::core::config
