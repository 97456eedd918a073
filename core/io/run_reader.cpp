// Reading run folders back: whole records only; what a kill cut short is skipped and reported.
#include "core/io/run_reader.h"
#include "core/io/run_folder.h"
#include "core/table/open_table.h"
#include "core/table/table_status.h"

#include "core/util/csv.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/memory.h"
#include "core/util/read_file.h"
#include "core/util/toml_parse.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <system_error>

namespace rlda::core::io {
namespace fs = std::filesystem;
using nlohmann::json;

std::string to_string(RunKind kind)
{
    switch (kind) {
    case RunKind::Training:
        return "training";
    case RunKind::Learning:
        return "learning";
    case RunKind::Simulation:
        return "simulation";
    case RunKind::Unknown:
        break;
    }
    return "unknown";
}

namespace {

// A problem of the run: the first kMaxListedProblems are kept, the rest only counted (a file of
// a million junk lines must not hold a million messages).
void add_problem(RunData& run, std::string text)
{
    if (run.problems.size() < kMaxListedProblems)
        run.problems.push_back(std::move(text));
    else
        ++run.problems_not_listed;
}

// Up to `limit` bytes of a file. A file that cannot be read, and one larger than the limit, are
// `problems` entries: the reader never loads a file of any size whole (a 4 GiB metrics file in a
// watched run folder must not take the workbench's memory).
std::string read_capped(const fs::path& file, const std::string& label, std::uint64_t limit, RunData& run,
                        bool& capped)
{
    capped = false;
    try {
        std::string text = read_file_prefix(file, limit, capped);
        if (capped)
            add_problem(run, fmt::format("{}: larger than {}; only its first {} read", label,
                                         byte_size(limit), byte_size(limit)));
        return text;
    } catch (const Error& e) {
        // The message names the reason (permission denied, a FIFO); the label names the file here.
        const std::string what = e.what();
        const auto colon = what.find(": ");
        add_problem(run,
                    fmt::format("{}: {}", label, colon == std::string::npos ? what : what.substr(colon + 2)));
        return {};
    }
}

// Each whole line of a file, in order, as fn(number, text), number 1-based; the lines are never all
// held at once. The writers end every record with '\n' in the same write, so a last line without
// one is the record a kill interrupted: it is reported, not given, even when it happens to parse (a
// number cut short still parses, to the wrong value).
template <class Fn> void for_each_line(const fs::path& file, const std::string& label, RunData& run, Fn&& fn)
{
    bool capped = false;
    std::string text = read_capped(file, label, kMaxRunFileBytes, run, capped);
    if (capped) // the whole lines of the part that was read
        text.resize(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
    std::size_t begin = 0;
    int number = 0;
    while (begin < text.size()) {
        ++number;
        const std::size_t end = text.find('\n', begin);
        if (end == std::string::npos) {
            add_problem(run, fmt::format("{}:{}: partial last line skipped", label, number));
            run.truncated = true;
            break;
        }
        std::string_view line(text.data() + begin, end - begin);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!line.empty())
            fn(number, line);
        begin = end + 1;
    }
}

std::optional<double> to_double(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    double value = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// Space-separated numbers ("0 2 3"); nullopt when any token is not one.
// A stream per row was the cost of opening a long learning run: split in place instead.
std::optional<std::vector<double>> numbers(std::string_view text)
{
    std::vector<double> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == ' ' || text[i] == '\t') {
            ++i;
            continue;
        }
        const std::size_t end = std::min(text.find_first_of(" \t", i), text.size());
        const auto v = to_double(text.substr(i, end - i));
        if (!v)
            return std::nullopt;
        out.push_back(*v);
        i = end;
    }
    return out;
}

// The rows of a CSV file whose header holds `names`, as fn(line number, fields, columns), columns[i]
// the field of names[i]; never all held at once. A row with the wrong field count or a bad quote is
// skipped and reported; a header without one of `names` skips the file, reported once.
template <class Fn>
void for_each_row(const fs::path& file, const std::string& label, const std::vector<std::string>& names,
                  RunData& run, Fn&& fn)
{
    std::vector<std::string> header;
    std::vector<std::size_t> columns;
    bool skipped = false;
    for_each_line(file, label, run, [&](int number, std::string_view text) {
        if (skipped)
            return;
        // Far more fields than any file of a run has: refused before they are split into strings.
        const auto commas = static_cast<std::size_t>(std::count(text.begin(), text.end(), ','));
        if (commas >= kMaxRunColumns) {
            add_problem(run, fmt::format("{}:{}: {} fields or more, more than a run's files have; {} skipped",
                                         label, number, commas + 1, header.empty() ? "file" : "row"));
            skipped = header.empty();
            return;
        }
        std::vector<std::string> fields;
        try {
            fields = split_csv_record(std::string(text));
        } catch (const Error& e) {
            add_problem(run, fmt::format("{}:{}: {}; row skipped", label, number, e.what()));
            return;
        }
        if (header.empty()) {
            header = std::move(fields);
            for (const auto& n : names) {
                const auto it = std::find(header.begin(), header.end(), n);
                if (it == header.end()) {
                    add_problem(run, fmt::format("{}: missing column \"{}\"; file skipped", label, n));
                    skipped = true;
                    return;
                }
                columns.push_back(static_cast<std::size_t>(it - header.begin()));
            }
            return;
        }
        if (fields.size() != header.size()) {
            add_problem(run, fmt::format("{}:{}: {} fields, the header has {}; row skipped", label, number,
                                         fields.size(), header.size()));
            return;
        }
        fn(number, fields, columns);
    });
}

void read_series(const fs::path& file, const std::string& name, RunData& run)
{
    const std::string label = "metrics/" + name + ".csv";
    auto& points = run.series[name];
    for_each_row(file, label, {"epoch", "time", "value"}, run,
                 [&](int line, const std::vector<std::string>& f, const std::vector<std::size_t>& c) {
                     const auto e = to_double(f[c[0]]), tm = to_double(f[c[1]]), v = to_double(f[c[2]]);
                     if (!e || !tm || !v)
                         add_problem(run, fmt::format("{}:{}: not a number; row skipped", label, line));
                     else
                         points.push_back({*e, *tm, *v});
                 });
}

void read_episodes(const fs::path& file, RunData& run)
{
    const std::string label = "metrics/episodes.csv";
    const std::vector<std::string> names{"episode", "time", "objective", "accuracy", "reward",
                                         "lr", "temperature", "actions", "probabilities"};
    for_each_row(file, label, names, run,
                 [&](int line, const std::vector<std::string>& f, const std::vector<std::size_t>& col) {
                     std::optional<double> v[7];
                     bool ok = true;
                     for (int i = 0; i < 7; ++i)
                         ok = (v[i] = to_double(f[col[static_cast<std::size_t>(i)]])).has_value() && ok;
                     const auto actions = numbers(f[col[7]]);
                     sim::EpisodeRecord r;
                     if (ok && actions) {
                         for (double a : *actions)
                             r.actions.push_back(static_cast<int>(a));
                         const std::string& rest = f[col[8]];
                         // "p p p | p p p": one group per decision.
                         std::size_t begin = 0;
                         while (ok && !rest.empty() && begin <= rest.size()) {
                             const std::size_t bar = std::min(rest.find('|', begin), rest.size());
                             const auto group = numbers(std::string_view(rest).substr(begin, bar - begin));
                             ok = group.has_value();
                             if (ok)
                                 r.probabilities.push_back(*group);
                             begin = bar + 1;
                         }
                     }
                     if (!ok || !actions) {
                         add_problem(run, fmt::format("{}:{}: not a number; row skipped", label, line));
                         return;
                     }
                     r.episode = static_cast<std::int64_t>(*v[0]);
                     r.objective = *v[2];
                     r.accuracy = *v[3];
                     r.reward = *v[4];
                     r.lr = *v[5];
                     r.temperature = *v[6];
                     run.episodes.push_back(std::move(r));
                     run.episode_times.push_back(*v[1]);
                 });
}

model::ModelSummary summary_from_json(const json& j)
{
    model::ModelSummary s;
    s.name = j.value("name", std::string{});
    s.input = j.value("input", model::Shape{});
    s.classes = j.value("classes", std::int64_t{0});
    s.parameters = j.value("parameters", std::int64_t{0});
    s.original_blocks = j.value("original_blocks", 0);
    if (j.contains("units"))
        for (const auto& u : j.at("units")) {
            model::BlockSummary b;
            b.position = u.value("position", 0);
            b.original_index = u.value("original_index", -1);
            b.is_block = u.value("block", false);
            b.original = u.value("original", true);
            b.layers = u.value("layers", std::vector<std::string>{});
            b.parameters = u.value("parameters", std::int64_t{0});
            b.residual = u.value("residual", -1);
            b.skip = u.value("skip", std::vector<std::string>{});
            s.units.push_back(std::move(b));
        }
    return s;
}

train::Allocation allocation_from(const std::string& text)
{
    if (const auto a = train::allocation_from_string(text))
        return *a;
    throw Error(fmt::format("unknown change {}", excerpt(text)));
}

void read_event(const json& j, const std::string& text, RunData& run)
{
    const std::string type = j.value("type", std::string{});
    if (type == "adaptation") {
        train::AdaptationEvent e;
        e.decision = j.value("decision", 0);
        e.time = j.value("time", 0.0);
        e.time_left = j.value("time_left", 0.0);
        e.agent = j.value("agent", std::string{});
        e.action = j.value("action", 0);
        e.did_nothing = j.value("did_nothing", false);
        // Runs written before widening existed deepened the block their action names.
        e.operation = j.value("operation", std::string(e.did_nothing ? "" : "deepen"));
        e.block = j.value("block", e.did_nothing ? -1 : e.action);
        e.operations = j.value("operations", std::vector<std::string>{"deepen"});
        e.probabilities = j.value("probabilities", std::vector<double>{});
        e.max_abs_diff = j.value("max_abs_diff", -1.0);
        if (j.contains("before"))
            e.before = summary_from_json(j.at("before"));
        if (j.contains("after"))
            e.after = summary_from_json(j.at("after"));
        run.adaptations.push_back(std::move(e));
    } else if (type == "allocation") {
        run.allocations.push_back(
            {j.value("time", 0.0), allocation_from(j.value("change", train::to_string(train::Allocation::Same))), j.value("effect", std::string{})});
    } else if (type == "message") {
        run.messages.push_back(j.value("text", std::string{}));
    } else if (type == "final") {
        train::EpochMetrics m;
        m.final = true;
        m.time = j.value("time", 0.0);
        m.test_acc = j.value("test_acc", std::numeric_limits<double>::quiet_NaN()); // none: never tested
        m.tested = j.value("tested", true);
        m.parameters = j.value("parameters", std::int64_t{0});
        m.steps = j.value("steps", std::int64_t{0});
        run.final_metrics = m;
    } else if (type == "finished") {
        train::RunResult r;
        r.final_test_acc = j.value("final_test_acc", std::numeric_limits<double>::quiet_NaN());
        r.epochs = j.value("epochs", 0);
        r.steps = j.value("steps", std::int64_t{0});
        r.actions = j.value("actions", std::vector<int>{});
        r.cancelled = j.value("cancelled", false);
        r.final_model.parameters = j.value("parameters", std::int64_t{0});
        run.finished = std::move(r);
    } else if (std::ranges::find(learning_event::kAll, type) != std::end(learning_event::kAll)) {
        run.other_events.push_back(text);
    } else {
        // Kept, a file of junk objects would cost memory per line: counted with the problems.
        throw Error("no rlda run writes events of this type");
    }
}

void read_events(const fs::path& file, RunData& run)
{
    for_each_line(file, "events.jsonl", run, [&](int number, std::string_view text) {
        const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded() || !j.is_object()) {
            add_problem(run, fmt::format("events.jsonl:{}: not a JSON object; line skipped", number));
            return;
        }
        try {
            read_event(j, std::string(text), run);
        } catch (const std::exception& e) { // a field of the wrong type
            add_problem(run, fmt::format("events.jsonl:{}: bad {} record ({}); line skipped", number,
                                         excerpt(j.value("type", std::string{"?"})), e.what()));
        }
    });
}

// A whole small file (config.toml, architecture.json); one larger than `limit` is skipped.
std::string read_text(const fs::path& file, const std::string& label, RunData& run,
                      std::uint64_t limit = kMaxTomlFileBytes)
{
    bool capped = false;
    std::string text = read_capped(file, label, limit, run, capped);
    return capped ? std::string() : text;
}

// A table folder copied without its config.toml still describes itself through table.json.
bool is_run_folder(const fs::path& dir)
{
    std::error_code ec;
    return fs::is_regular_file(dir / "config.toml", ec) || fs::is_directory(dir / "metrics", ec) ||
           fs::is_regular_file(dir / "events.jsonl", ec) || sim::is_table_folder(dir);
}

} // namespace

std::optional<double> final_accuracy(const RunData& run)
{
    if (run.finished && std::isfinite(run.finished->final_test_acc))
        return run.finished->final_test_acc;
    if (run.final_metrics && std::isfinite(run.final_metrics->test_acc))
        return run.final_metrics->test_acc;
    const auto it = run.series.find("test_acc");
    if (it != run.series.end() && !it->second.empty())
        return it->second.back().value;
    return std::nullopt;
}

RunData read_run(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw Error(fmt::format("{}: not a run folder (no such folder)", dir.string()));
    if (!is_run_folder(dir))
        throw Error(fmt::format("{}: not a run folder (no config.toml, metrics/, events.jsonl or table.csv with table.json)", dir.string()));

    RunData run;
    run.path = dir;
    run.name = dir.filename().string();
    if (run.name.empty() || run.name == ".") // "runs/x/" or "."
        run.name = fs::weakly_canonical(dir, ec).filename().string();

    if (fs::is_regular_file(dir / "config.toml", ec))
        run.config_text = read_text(dir / "config.toml", "config.toml", run);

    const fs::path metrics = dir / "metrics";
    if (fs::is_directory(metrics, ec)) {
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(metrics, ec))
            if (entry.is_regular_file(ec) && entry.path().extension() == ".csv")
                files.push_back(entry.path());
        std::sort(files.begin(), files.end()); // problems in a stable order
        for (const auto& f : files) {
            const std::string name = f.stem().string();
            if (name == "episodes")
                read_episodes(f, run);
            else
                read_series(f, name, run);
        }
    }

    bool training_events = false;
    if (fs::is_regular_file(dir / "events.jsonl", ec)) {
        read_events(dir / "events.jsonl", run);
        training_events = !run.adaptations.empty() || !run.allocations.empty() || run.final_metrics;
    }

    if (fs::is_regular_file(dir / "architecture.json", ec)) {
        const std::string text = read_text(dir / "architecture.json", "architecture.json", run);
        const json j = json::parse(text, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            add_problem(run, "architecture.json: not a JSON object; skipped");
        } else {
            try {
                run.final_model = summary_from_json(j);
            } catch (const std::exception& e) {
                add_problem(run, fmt::format("architecture.json: {}; skipped", e.what()));
            }
        }
    }

    if (fs::exists(metrics / "episodes.csv", ec) || fs::exists(dir / "policy.pt", ec))
        run.kind = RunKind::Learning;
    else if (sim::is_table_folder(dir))
        run.kind = RunKind::Simulation;
    else if (fs::exists(metrics / "test_acc.csv", ec) || training_events)
        run.kind = RunKind::Training;
    if (run.problems_not_listed > 0)
        run.problems.push_back(fmt::format("... and {} more problems like these", run.problems_not_listed));
    return run;
}

std::optional<LearnSettings> learn_settings(const RunData& run)
{
    std::optional<LearnSettings> found;
    const auto text = [](const json& j, const char* key) {
        return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : std::string();
    };
    for (const auto& line : run.other_events) {
        const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (!j.is_object() || text(j, "type") != learning_event::kSettings)
            continue;
        LearnSettings s{text(j, "model"), text(j, "from"), {}}; // the last settings event holds
        if (j.contains("stages") && j.at("stages").is_array())
            for (const json& stage : j.at("stages"))
                if (const std::string t = stage.is_object() ? text(stage, "table") : std::string();
                    !t.empty() && std::find(s.tables.begin(), s.tables.end(), t) == s.tables.end())
                    s.tables.push_back(t);
        found = std::move(s);
    }
    return found;
}

bool learned_on(const fs::path& policy, const fs::path& table)
{
    std::error_code ec;
    const fs::path events = policy.parent_path() / "events.jsonl";
    if (!fs::is_regular_file(events, ec))
        return false;
    RunData run; // its events alone: a long run's metrics are no part of the answer
    read_events(events, run);
    const auto settings = learn_settings(run);
    if (!settings)
        return false;
    const fs::path evaluated = sim::table_file(table);
    return std::ranges::any_of(settings->tables, [&](const std::string& t) {
        std::error_code e;
        return fs::equivalent(sim::table_file(t), evaluated, e) && !e;
    });
}

std::vector<fs::path> find_runs(const fs::path& root, int depth)
{
    std::vector<fs::path> runs;
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        return runs;
    if (is_run_folder(root))
        runs.push_back(root);
    if (depth < 1)
        return runs;
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
        // depth() is 0 for root's children, which are one level down.
        if (it->is_directory(ec) && !it->is_symlink(ec)) {
            if (is_run_folder(it->path()))
                runs.push_back(it->path());
            if (it.depth() + 1 >= depth)
                it.disable_recursion_pending();
        }
    }
    std::sort(runs.begin(), runs.end());
    return runs;
}

} // namespace rlda::core::io
