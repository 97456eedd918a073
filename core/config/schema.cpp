// The experiment schema's types (ranges, keys, the schema and its look-ups), the enums' names, and
// the per-key checks and TOML values the table drives (the table itself is schema_keys.cpp).
#include "core/config/schema.h"

#include "core/util/error.h"
#include "core/util/excerpt.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlda::core::config {
namespace {

std::string quoted_list(const std::vector<std::string>& names)
{
    std::vector<std::string> quoted;
    quoted.reserve(names.size());
    for (const auto& n : names)
        quoted.push_back(fmt::format(R"("{}")", n));
    return fmt::format("{}", fmt::join(quoted, ", "));
}

// The generic wording of a value outside `k.range`, `shown` as the value is printed.
std::string range_reason(const Key& k, const std::string& shown, bool integer)
{
    const Range& r = k.range;
    const bool has_max = r.max < kUnbounded;
    const auto bound = [&](double b) {
        return integer ? std::to_string(static_cast<std::int64_t>(b)) : fmt::format("{}", b);
    };
    if (integer && !has_max)
        return fmt::format("must be at least {}, got {}", bound(r.min), shown);
    if (integer && r.min == -kUnbounded)
        return fmt::format("must be at most {}, got {}", bound(r.max), shown);
    if (!has_max && r.min == 0.0)
        return r.min_open ? fmt::format("must be a positive number, got {}", shown)
                          : fmt::format("must be a number of at least 0, got {}", shown);
    if (!has_max)
        return fmt::format("must be a number {} {}, got {}", r.min_open ? "above" : "of at least", bound(r.min), shown);
    return fmt::format("must be in {}, got {}", r.text().substr(3), shown);
}

std::string with_rule(const Key& k, const std::string& shown, const std::string& generic)
{
    return k.rule.empty() ? generic : fmt::format(fmt::runtime(k.rule), shown);
}

template <class T> std::string integer_list(const std::vector<T>& v)
{
    return fmt::format("{}", fmt::join(v, ", "));
}

} // namespace

template <> const std::vector<std::pair<Change, std::string>>& name_table<Change>()
{
    static const std::vector<std::pair<Change, std::string>> t{{Change::Up, "up"}, {Change::Down, "down"}};
    return t;
}

template <> const std::vector<std::pair<Type, std::string>>& name_table<Type>()
{
    static const std::vector<std::pair<Type, std::string>> t{
        {Type::Text, "text"},       {Type::Path, "path"},         {Type::Device, "device"},
        {Type::Choice, "choice"},   {Type::Integer, "integer"},   {Type::Number, "number"},
        {Type::Flag, "flag"},       {Type::Integers, "integers"}, {Type::Texts, "strings"},
        {Type::Events, "events"}};
    return t;
}

bool Range::contains(double v) const
{
    if (std::isnan(v))
        return false;
    const bool above = min_open ? v > min : v >= min;
    const bool below = max_open ? v < max : v <= max;
    return above && below;
}

std::string Range::text() const
{
    if (!bounded())
        return {};
    if (max == kUnbounded)
        return fmt::format("{} {}", min_open ? ">" : ">=", min);
    if (min == -kUnbounded)
        return fmt::format("{} {}", max_open ? "<" : "<=", max);
    return fmt::format("in {}{}, {}{}", min_open ? "(" : "[", min, max, max_open ? ")" : "]");
}

std::string Key::section() const
{
    const auto dot = name.find('.');
    return dot == std::string::npos ? std::string() : name.substr(0, dot);
}

std::string Key::short_name() const
{
    const auto dot = name.find('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

std::string Key::display_label() const
{
    if (!label.empty())
        return label;
    std::string out = short_name();
    std::replace(out.begin(), out.end(), '_', ' ');
    if (!out.empty())
        out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
    return out;
}

std::string Key::allowed() const
{
    switch (type) {
    case Type::Choice:
        return quoted_list(choices);
    case Type::Device:
        return R"("cpu", "cuda", "cuda:N")";
    case Type::Integers:
        if (size)
            return fmt::format("{} integers {}", size, range.text());
        return range.bounded() ? fmt::format("integers {}", range.text()) : std::string();
    case Type::Integer:
        // An unsigned setting (a seed) is what a TOML integer holds at or above 0.
        if (std::holds_alternative<Binding<std::uint64_t>>(value) && !range.bounded())
            return fmt::format("in [0, {}]", std::numeric_limits<std::int64_t>::max());
        return range.text();
    case Type::Number:
        return range.text();
    case Type::Text:
    case Type::Path:
        return required ? "not empty" : "";
    case Type::Texts:
        return choices.empty() ? std::string() : "any of " + quoted_list(choices) + ", each once";
    default:
        return {};
    }
}

std::string Key::hint() const
{
    const std::string what = allowed();
    if (what.empty() || what == "not empty")
        return help;
    const bool names = type == Type::Choice || type == Type::Device;
    return fmt::format("{}; {}{}", help, names ? "one of " : "", what);
}

const Key* Schema::find(std::string_view name) const
{
    const auto it = std::find_if(keys.begin(), keys.end(), [&](const Key& k) { return k.name == name; });
    return it == keys.end() ? nullptr : &*it;
}

const Alias* Schema::find_alias(std::string_view name) const
{
    const auto it = std::find_if(aliases.begin(), aliases.end(), [&](const Alias& a) { return a.name == name; });
    return it == aliases.end() ? nullptr : &*it;
}

const Hint* Schema::find_hint(std::string_view word) const
{
    const auto it = std::find_if(hints.begin(), hints.end(), [&](const Hint& h) { return h.word == word; });
    return it == hints.end() ? nullptr : &*it;
}

const Section* Schema::find_section(std::string_view name) const
{
    const auto it = std::find_if(sections.begin(), sections.end(), [&](const Section& s) { return s.name == name; });
    return it == sections.end() ? nullptr : &*it;
}

std::vector<const Key*> Schema::keys_of(std::string_view section) const
{
    std::vector<const Key*> out;
    for (const auto& k : keys)
        if (k.section() == section)
            out.push_back(&k);
    return out;
}

std::size_t Schema::index_of(std::string_view key) const
{
    const auto cut = key.find('[');
    const std::string_view base = key.substr(0, cut);
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i].name == base)
            return i;
    return keys.size();
}

Schema& Schema::add(Key key)
{
    const std::string section = key.section();
    if (find(key.name) || find_alias(key.name))
        throw Error(fmt::format("{}: declared twice", key.name));
    if (!section.empty() && !find_section(section))
        throw Error(fmt::format("{}: no section [{}] to add it to", key.name, section));
    auto last = keys.end();
    for (auto it = keys.begin(); it != keys.end(); ++it)
        if (it->section() == section)
            last = it + 1;
    keys.insert(last, std::move(key));
    return *this;
}

template <> const std::vector<std::pair<Optimizer, std::string>>& name_table<Optimizer>()
{
    static const std::vector<std::pair<Optimizer, std::string>> t{{Optimizer::Adam, "adam"}, {Optimizer::Sgd, "sgd"}};
    return t;
}

template <> const std::vector<std::pair<DatasetKind, std::string>>& name_table<DatasetKind>()
{
    static const std::vector<std::pair<DatasetKind, std::string>> t{{DatasetKind::Synthetic, "synthetic"},
                                                                    {DatasetKind::Cifar10, "cifar10"},
                                                                    {DatasetKind::FashionMnist, "fashion-mnist"},
                                                                    {DatasetKind::Mnist, "mnist"}};
    return t;
}

template <> const std::vector<std::pair<Normalization, std::string>>& name_table<Normalization>()
{
    static const std::vector<std::pair<Normalization, std::string>> t{
        {Normalization::Half, "half"}, {Normalization::PerDataset, "dataset"}, {Normalization::None, "none"}};
    return t;
}

template <> const std::vector<std::pair<ClockKind, std::string>>& name_table<ClockKind>()
{
    static const std::vector<std::pair<ClockKind, std::string>> t{{ClockKind::Virtual, "virtual"},
                                                                  {ClockKind::Wall, "wall"}};
    return t;
}

template <> const std::vector<std::pair<AgentKind, std::string>>& name_table<AgentKind>()
{
    static const std::vector<std::pair<AgentKind, std::string>> t{{AgentKind::Fixed, "fixed"},
                                                                  {AgentKind::Random, "random"},
                                                                  {AgentKind::None, "none"},
                                                                  {AgentKind::Policy, "policy"},
                                                                  {AgentKind::Simulation, "simulation"},
                                                                  {AgentKind::Gradient, "gradient"},
                                                                  {AgentKind::LossDrop, "loss-drop"},
                                                                  {AgentKind::First, "first"},
                                                                  {AgentKind::Last, "last"},
                                                                  {AgentKind::GrowWhileImproving,
                                                                   "grow-while-improving"}};
    return t;
}

template <> const std::vector<std::pair<SweepBackend, std::string>>& name_table<SweepBackend>()
{
    static const std::vector<std::pair<SweepBackend, std::string>> t{{SweepBackend::Local, "local"},
                                                                     {SweepBackend::Slurm, "slurm"}};
    return t;
}

template <> const std::vector<std::pair<FusedReplicates, std::string>>& name_table<FusedReplicates>()
{
    static const std::vector<std::pair<FusedReplicates, std::string>> t{
        {FusedReplicates::Auto, "auto"}, {FusedReplicates::On, "on"}, {FusedReplicates::Off, "off"}};
    return t;
}

template <> const std::vector<std::pair<PolicyEncoder, std::string>>& name_table<PolicyEncoder>()
{
    static const std::vector<std::pair<PolicyEncoder, std::string>> t{{PolicyEncoder::Original, "original"},
                                                                      {PolicyEncoder::Structural, "structural"},
                                                                      {PolicyEncoder::State, "state"}};
    return t;
}

std::vector<std::string> input_paths(const ExperimentConfig& c, const Schema& schema)
{
    std::vector<std::string> paths;
    if (!c.source.empty())
        paths.push_back(c.source);
    for (const Key& k : schema.keys) {
        const auto* b = std::get_if<Binding<std::string>>(&k.value);
        if (k.type != Type::Path || !b)
            continue;
        std::string p = b->get(c);
        if (!p.empty() && std::find(k.choices.begin(), k.choices.end(), p) == k.choices.end())
            paths.push_back(std::move(p));
    }
    return paths;
}

std::vector<Problem> check_keys(const ExperimentConfig& c, const Schema& schema)
{
    std::vector<Problem> out;
    const auto add = [&](std::string key, std::string reason) { out.push_back({std::move(key), std::move(reason), {}}); };
    for (const Key& k : schema.keys) {
        std::visit(
            [&]<class T>(const Binding<T>& b) {
                const T v = b.get(c);
                if constexpr (std::is_same_v<T, std::string>) {
                    // A string from a file is quoted as a short excerpt, never whole (core/util/excerpt.h).
                    const std::string shown = excerpt(v, kExcerptChars * 2);
                    if (k.type == Type::Choice) {
                        if (std::find(k.choices.begin(), k.choices.end(), v) == k.choices.end())
                            add(k.name, fmt::format("unknown value {} (allowed: {})", shown, quoted_list(k.choices)));
                    } else if (k.required && v.empty()) {
                        add(k.name, with_rule(k, shown, "must not be empty"));
                    } else if (k.valid && !k.valid(v)) {
                        add(k.name, with_rule(k, shown, fmt::format("{} is not allowed", shown)));
                    }
                } else if constexpr (std::is_same_v<T, double>) {
                    if (k.range.bounded() && !(std::isfinite(v) && k.range.contains(v)))
                        {
                        const std::string shown = fmt::format("{}", v);
                        add(k.name, with_rule(k, shown, range_reason(k, shown, false)));
                    }
                } else if constexpr (std::is_same_v<T, std::uint64_t>) {
                    // TOML integers are signed 64-bit: a larger value could not be written back.
                    constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
                    if (v > max)
                        add(k.name, fmt::format("must be at most {}, got {}", max, v));
                    else if (k.range.bounded() && !k.range.contains(static_cast<double>(v)))
                        add(k.name, with_rule(k, std::to_string(v), range_reason(k, std::to_string(v), true)));
                } else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, std::int64_t>) {
                    if (k.range.bounded() && !k.range.contains(static_cast<double>(v)))
                        add(k.name, with_rule(k, std::to_string(v), range_reason(k, std::to_string(v), true)));
                } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                    if (k.required && v.empty())
                        add(k.name, fmt::format("must not be empty (allowed: {})", quoted_list(k.choices)));
                    for (std::size_t i = 0; i < v.size() && !k.choices.empty(); ++i) {
                        if (std::find(k.choices.begin(), k.choices.end(), v[i]) == k.choices.end())
                            add(fmt::format("{}[{}]", k.name, i),
                                fmt::format("unknown value {} (allowed: {})", excerpt(v[i]), quoted_list(k.choices)));
                        else if (std::find(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v[i]) != v.begin() + static_cast<std::ptrdiff_t>(i))
                            add(fmt::format("{}[{}]", k.name, i), fmt::format("{} is listed twice", excerpt(v[i])));
                    }
                } else if constexpr (std::is_same_v<T, std::vector<int>> ||
                                     std::is_same_v<T, std::vector<std::int64_t>>) {
                    const auto bad = [&](auto x) { return !k.range.contains(static_cast<double>(x)); };
                    if (k.size) {
                        if (v.size() != k.size || std::any_of(v.begin(), v.end(), bad))
                            add(k.name, with_rule(k, integer_list(v),
                                                  fmt::format("expected {} integers {}, got [{}]", k.size,
                                                              k.range.text(), integer_list(v))));
                    } else {
                        for (std::size_t i = 0; i < v.size(); ++i)
                            if (bad(v[i]))
                                add(fmt::format("{}[{}]", k.name, i),
                                    with_rule(k, std::to_string(v[i]), range_reason(k, std::to_string(v[i]), true)));
                    }
                }
            },
            k.value);
    }
    return out;
}

std::string toml_quote(std::string_view s)
{
    std::string out = "\"";
    for (const char ch : s) {
        switch (ch) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
                out += fmt::format("\\u{:04X}", static_cast<unsigned>(static_cast<unsigned char>(ch)));
            else
                out += ch;
        }
    }
    return out + "\"";
}

std::string toml_number(double v)
{
    std::string s = fmt::format("{}", v);
    if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
    return s;
}

std::string toml_value(const Key& key, const ExperimentConfig& c)
{
    return std::visit(
        [&]<class T>(const Binding<T>& b) -> std::string {
            const T v = b.get(c);
            if constexpr (std::is_same_v<T, std::string>) {
                return toml_quote(v);
            } else if constexpr (std::is_same_v<T, bool>) {
                return v ? "true" : "false";
            } else if constexpr (std::is_same_v<T, double>) {
                return toml_number(v);
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                std::vector<std::string> quoted;
                quoted.reserve(v.size());
                for (const auto& s : v)
                    quoted.push_back(toml_quote(s));
                return fmt::format("[{}]", fmt::join(quoted, ", "));
            } else if constexpr (std::is_same_v<T, std::vector<AllocationEventConfig>>) {
                std::vector<std::string> events;
                events.reserve(v.size());
                for (const auto& e : v)
                    events.push_back(
                        fmt::format("{{ time = {}, change = {} }}", toml_number(e.time), toml_quote(to_string(e.change))));
                return fmt::format("[{}]", fmt::join(events, ", "));
            } else if constexpr (std::is_integral_v<T>) {
                return std::to_string(v);
            } else {
                return fmt::format("[{}]", integer_list(v));
            }
        },
        key.value);
}

} // namespace rlda::core::config
