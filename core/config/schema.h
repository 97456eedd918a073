// The experiment schema, declared once: every key's name, type, default, range or choices and one
// line of help, bound to its ExperimentConfig member. The reader, the writer, the validator's
// per-key checks, `rlda config keys` and the workbench's editor are all driven from it; cross-field
// rules stay code in validate.cpp. A Schema is a value: a test (or a later feature) copies the
// experiment schema, adds a Key bound to its own storage, and every consumer that takes the
// Schema reads, writes, checks and shows it.
#pragma once

#include "core/config/experiment.h"
#include "core/config/names.h"
#include "core/config/validate.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace rlda::core::config {

// Where a key's value lives: read it from a config, write it into one.
template <class T> struct Binding {
    std::function<T(const ExperimentConfig&)> get;
    std::function<void(ExperimentConfig&, T)> set;
};

// The stored type decides the TOML type and the reader's storage range (an `int` key refuses
// 2^40, a `std::uint64_t` one a negative value). Choices are bound by name (an enum's binding
// converts through its name table).
using AnyBinding =
    std::variant<Binding<std::string>, Binding<bool>, Binding<int>, Binding<std::int64_t>, Binding<std::uint64_t>,
                 Binding<double>, Binding<std::vector<int>>, Binding<std::vector<std::int64_t>>,
                 Binding<std::vector<std::string>>, Binding<std::vector<AllocationEventConfig>>>;

enum class Type {
    Text,     // a string
    Path,     // a string naming a file or folder, relative ones anchored next to the config file
    Device,   // "cpu", "cuda", "cuda:N"; the original's integer N reads as "cuda:N"
    Choice,   // one of `choices`
    Integer,  // int, std::int64_t or std::uint64_t by its binding
    Number,   // double; a TOML integer is read as one
    Flag,     // true / false
    Integers, // an array of integers
    Texts,    // an array of strings
    Events,   // [[scheduler.events]]: { time = s, change = "up" | "down" }
};

// Its names ("text", "path", "device", "choice", "integer", "number", "flag", "integers",
// "strings", "events"), through to_string(Type) of core/config/names.h.
template <> const std::vector<std::pair<Type, std::string>>& name_table<Type>();

// The end of an interval with no bound on that side.
inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

// A closed or open interval; the default is the whole line. Numbers must also be finite.
struct Range {
    double min = -kUnbounded;
    double max = kUnbounded;
    bool min_open = false;
    bool max_open = false;

    bool bounded() const { return min > -kUnbounded || max < kUnbounded; }
    bool contains(double v) const;
    // "> 0", ">= 1", "in [0, 1)"; "" when unbounded.
    std::string text() const;
};

struct Key {
    std::string name{};  // "job.lr"; no dot for a top-level key ("name")
    Type type = Type::Text;
    std::string label{}; // what a form calls it ("Learning rate"); "" = from the name
    std::string help{};  // one line
    AnyBinding value{};
    Range range{};                      // Integer, Number, each element of Integers
    std::size_t size = 0;               // Integers: exactly this many (0 = any number)
    std::vector<std::string> choices{}; // Choice: the allowed names in chooser order; Text, Path: suggestions
    bool required = false;              // Text, Path: must not be empty
    std::function<bool(std::string_view)> valid{}; // Text, Device: the value's form
    // Why a value is refused, "{}" standing for the value as shown, a string quoted and escaped as a
    // short excerpt ("expected [D-]HH:MM:SS, got {}"); "" = the generic wording of the range, the
    // choices or `required`.
    std::string rule{};

    std::string section() const; // "job"; "" for a top-level key
    std::string short_name() const; // "lr"
    std::string display_label() const; // label, else the short name with spaces, capitalised
    // help, then what the value may be ("; > 0", "; one of \"adam\", \"sgd\""), as a tooltip or a
    // comment shows it.
    std::string hint() const;
    // What the value may be, without the help ("> 0", "\"adam\", \"sgd\"", "3 integers >= 1"); ""
    // when anything of its type goes.
    std::string allowed() const;
};

struct Section {
    std::string name{}; // "job"
    std::string help{}; // one line, the comment above its header
};

// A key of the original tool's schema: read into one of ours, or read and reported as not used.
struct Alias {
    std::string name{};    // "scheduler.running_time", as the original wrote it
    std::string key{};     // the setting it sets ("scheduler.budget"); "" = not used, `note` says why
    std::string note{};    // key "": the warning; else a warning given when the value ends in `extension`
    std::string extension{};
    std::vector<std::pair<std::string, std::string>> values{}; // the original's names for a Choice's values
};

// A setting other tools have that ours does another way: a key of that name in any section, or an
// option of it on `rlda train` or `simulate`, is answered with the note and the key to set instead
// ("epochs": a run lasts scheduler.budget seconds).
struct Hint {
    std::string word{};  // "epochs", as a key or an option names it
    std::string key{};   // the setting that does its work here: "scheduler.budget"
    std::string value{}; // what that key takes, as a placeholder: "SECONDS"
    std::string note{};  // why the word is not a key: "a run lasts its time budget in seconds, ..."
};

class Schema {
public:
    std::vector<Section> sections; // in file order
    std::vector<Key> keys;         // top-level keys first, then section by section
    std::vector<Alias> aliases;
    std::vector<Hint> hints;

    const Key* find(std::string_view name) const;
    const Alias* find_alias(std::string_view name) const;
    const Hint* find_hint(std::string_view word) const;
    const Section* find_section(std::string_view name) const;
    std::vector<const Key*> keys_of(std::string_view section) const; // "" = the top-level keys
    // Declaration order of a problem's key ("scheduler.events[1].time" counts as
    // "scheduler.events"); keys.size() for one not declared.
    std::size_t index_of(std::string_view key) const;

    // Adds a key after the others of its section. Error for a name already declared (or an
    // original spelling) and for a section the schema does not have. Returns *this.
    Schema& add(Key key);
};

// Ours: every key of ExperimentConfig, and the original tool's spellings.
const Schema& experiment_schema();

// Per-key problems of `c` against `schema` (range, choices, form, required), in declaration
// order; find_problems() adds the cross-field rules.
std::vector<Problem> check_keys(const ExperimentConfig& c, const Schema& schema);

// What a run of `c` reads from disk: the file it was read from (`source`) and every Path key's value
// that is not one of its suggestions (a zoo model's name). --force never replaces a folder that
// holds one of them (core/util/output_folder.h).
std::vector<std::string> input_paths(const ExperimentConfig& c, const Schema& schema = experiment_schema());

// The value of `key` in `c`, in TOML syntax on one line (`0.01`, `"adam"`, `[1, 28, 28]`, `[]`),
// read back exactly by the reader; doubles are written shortest, bit for bit.
std::string toml_value(const Key& key, const ExperimentConfig& c);

// A TOML basic string of `s`, quotes and control characters escaped.
std::string toml_quote(std::string_view s);
// A TOML float that reads back to `v` bit for bit: fmt's shortest form, ".0" added to a whole number.
std::string toml_number(double v);

// Bindings to members: member<&ExperimentConfig::job, &JobConfig::lr>(), top<&ExperimentConfig::name>().
template <class> struct member_of;
template <class C, class T> struct member_of<T C::*> {
    using type = T;
};

template <auto Section, auto Member> auto member()
{
    using T = typename member_of<decltype(Member)>::type;
    return Binding<T>{[](const ExperimentConfig& c) -> T { return (c.*Section).*Member; },
                      [](ExperimentConfig& c, T v) { (c.*Section).*Member = std::move(v); }};
}

template <auto Member> auto top()
{
    using T = typename member_of<decltype(Member)>::type;
    return Binding<T>{[](const ExperimentConfig& c) -> T { return c.*Member; },
                      [](ExperimentConfig& c, T v) { c.*Member = std::move(v); }};
}

// A Choice bound to an enum through its name table: `to_name(e)` gives the name, `from_name(text)`
// an optional enum (the reader has refused an unknown name before it gets here).
template <class E, class ToName, class FromName>
Binding<std::string> by_name(Binding<E> b, ToName to_name, FromName from_name)
{
    return Binding<std::string>{[get = b.get, to_name](const ExperimentConfig& c) { return std::string(to_name(get(c))); },
                                [set = b.set, from_name](ExperimentConfig& c, std::string v) {
                                    if (const auto e = from_name(v))
                                        set(c, *e);
                                }};
}

// A Choice bound to an enum member with a name table (core/config/names.h):
// named<&ExperimentConfig::job, &JobConfig::optimizer>().
template <auto Section, auto Member> Binding<std::string> named()
{
    using E = typename member_of<decltype(Member)>::type;
    return by_name(member<Section, Member>(), [](E e) { return to_string(e); },
                   [](std::string_view t) { return from_string<E>(t); });
}

} // namespace rlda::core::config
