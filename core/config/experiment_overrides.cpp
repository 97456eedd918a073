// --set section.key=value: each assignment parsed as one TOML value, read into a copy of the
// settings by the file's own reader, then checked once, a problem blamed on the assignment at fault.
#include "core/config/experiment_io.h"
#include "core/config/experiment_reader.h"

#include "core/util/error.h"
#include "core/util/toml_parse.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <numeric>
#include <string_view>

namespace rlda::core::config {
namespace {

namespace fs = std::filesystem;
using detail::Reader;

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

std::vector<std::int64_t> consecutive_seeds(std::int64_t first, int count)
{
    constexpr auto largest = std::numeric_limits<std::int64_t>::max();
    if (count > 1 && first > largest - (count - 1))
        throw Error(
            fmt::format("job.seed {}: {} consecutive seeds from it pass {}, the largest seed; lower job.seed",
                        first, count, largest));
    std::vector<std::int64_t> seeds(static_cast<std::size_t>(std::max(0, count)));
    std::iota(seeds.begin(), seeds.end(), first);
    return seeds;
}

void apply_override(ExperimentConfig& c, const std::string& assignment, const Schema& schema)
{
    apply_overrides(c, {assignment}, schema);
}

void apply_overrides(ExperimentConfig& c, const std::vector<std::string>& assignments, const Schema& schema)
{
    std::vector<Assignment> parsed;
    parsed.reserve(assignments.size());
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
