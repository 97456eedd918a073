// Reading run folders back: whole records only; what a kill cut short is skipped and reported.
#include "core/io/run_reader.h"
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
#include <fstream>
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

struct Line {
    int number = 0; // 1-based
    std::string text;
};

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
            run.problems.push_back(fmt::format("{}: larger than {}; only its first {} read", label,
                                               byte_size(limit), byte_size(limit)));
        return text;
    } catch (const Error& e) {
        // The message names the reason (permission denied, a FIFO); the label names the file here.
        const std::string what = e.what();
        const auto colon = what.find(": ");
        run.problems.push_back(fmt::format("{}: {}", label, colon == std::string::npos ? what : what.substr(colon + 2)));
        return {};
    }
}

// Whole lines of a file. The writers end every record with '\n' in the same write, so a last line
// without one is the record a kill interrupted: it is reported, not returned, even when it happens
// to parse (a number cut short still parses, to the wrong value).
std::vector<Line> read_lines(const fs::path& file, const std::string& label, RunData& run)
{
    std::vector<Line> lines;
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
            run.problems.push_back(fmt::format("{}:{}: partial last line skipped", label, number));
            run.truncated = true;
            break;
        }
        std::string line = text.substr(begin, end - begin);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (!line.empty())
            lines.push_back({number, std::move(line)});
        begin = end + 1;
    }
    return lines;
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

// A CSV file with a header: the rows as fields, with the columns looked up by name. Rows with the
// wrong field count or a bad quote are skipped and reported.
struct Table {
    std::vector<std::string> header;
    std::vector<std::pair<int, std::vector<std::string>>> rows; // line number, fields
    std::optional<std::size_t> column(const std::string& name) const
    {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end())
            return std::nullopt;
        return static_cast<std::size_t>(it - header.begin());
    }
};

Table read_table(const fs::path& file, const std::string& label, RunData& run)
{
    Table table;
    for (auto& line : read_lines(file, label, run)) {
        std::vector<std::string> fields;
        try {
            fields = split_csv_record(line.text);
        } catch (const Error& e) {
            run.problems.push_back(fmt::format("{}:{}: {}; row skipped", label, line.number, e.what()));
            continue;
        }
        if (table.header.empty()) {
            table.header = std::move(fields);
            continue;
        }
        if (fields.size() != table.header.size()) {
            run.problems.push_back(fmt::format("{}:{}: {} fields, the header has {}; row skipped", label,
                                               line.number, fields.size(), table.header.size()));
            continue;
        }
        table.rows.emplace_back(line.number, std::move(fields));
    }
    return table;
}

// Missing columns: one problem for the file, and it is skipped.
bool has_columns(const Table& t, const std::vector<std::string>& names, const std::string& label, RunData& run)
{
    if (t.header.empty() && t.rows.empty())
        return false; // empty file: nothing was written yet
    for (const auto& n : names)
        if (!t.column(n)) {
            run.problems.push_back(fmt::format("{}: missing column \"{}\"; file skipped", label, n));
            return false;
        }
    return true;
}

void read_series(const fs::path& file, const std::string& name, RunData& run)
{
    const std::string label = "metrics/" + name + ".csv";
    const Table t = read_table(file, label, run);
    if (!has_columns(t, {"epoch", "time", "value"}, label, run))
        return;
    const std::size_t ce = *t.column("epoch"), ct = *t.column("time"), cv = *t.column("value");
    auto& points = run.series[name];
    for (const auto& [line, f] : t.rows) {
        const auto e = to_double(f[ce]), tm = to_double(f[ct]), v = to_double(f[cv]);
        if (!e || !tm || !v) {
            run.problems.push_back(fmt::format("{}:{}: not a number; row skipped", label, line));
            continue;
        }
        points.push_back({*e, *tm, *v});
    }
}

void read_episodes(const fs::path& file, RunData& run)
{
    const std::string label = "metrics/episodes.csv";
    const Table t = read_table(file, label, run);
    const std::vector<std::string> names{"episode", "time", "objective", "accuracy", "reward",
                                         "lr", "temperature", "actions", "probabilities"};
    if (!has_columns(t, names, label, run))
        return;
    std::vector<std::size_t> col;
    col.reserve(std::size(names));
    for (const auto& n : names)
        col.push_back(*t.column(n));
    for (const auto& [line, f] : t.rows) {
        std::optional<double> v[7];
        bool ok = true;
        for (int i = 0; i < 7; ++i)
            ok = (v[i] = to_double(f[col[static_cast<std::size_t>(i)]])).has_value() && ok;
        const auto actions = numbers(f[col[7]]);
        sim::EpisodeRecord r;
        if (ok && actions) {
            for (double a : *actions)
                r.actions.push_back(static_cast<int>(a));
            std::string rest = f[col[8]];
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
            run.problems.push_back(fmt::format("{}:{}: not a number; row skipped", label, line));
            continue;
        }
        r.episode = static_cast<std::int64_t>(*v[0]);
        r.objective = *v[2];
        r.accuracy = *v[3];
        r.reward = *v[4];
        r.lr = *v[5];
        r.temperature = *v[6];
        run.episodes.push_back(std::move(r));
        run.episode_times.push_back(*v[1]);
    }
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
        m.test_acc = j.value("test_acc", 0.0);
        m.parameters = j.value("parameters", std::int64_t{0});
        m.steps = j.value("steps", std::int64_t{0});
        run.final_metrics = m;
    } else if (type == "finished") {
        train::RunResult r;
        r.final_test_acc = j.value("final_test_acc", 0.0);
        r.epochs = j.value("epochs", 0);
        r.steps = j.value("steps", std::int64_t{0});
        r.actions = j.value("actions", std::vector<int>{});
        r.cancelled = j.value("cancelled", false);
        r.final_model.parameters = j.value("parameters", std::int64_t{0});
        run.finished = std::move(r);
    } else {
        run.other_events.push_back(text);
    }
}

void read_events(const fs::path& file, RunData& run)
{
    for (const auto& line : read_lines(file, "events.jsonl", run)) {
        const json j = json::parse(line.text, nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded() || !j.is_object()) {
            run.problems.push_back(fmt::format("events.jsonl:{}: not a JSON object; line skipped", line.number));
            continue;
        }
        try {
            read_event(j, line.text, run);
        } catch (const std::exception& e) { // a field of the wrong type
            run.problems.push_back(fmt::format("events.jsonl:{}: bad {} record ({}); line skipped", line.number,
                                               excerpt(j.value("type", std::string{"?"})), e.what()));
        }
    }
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
    if (run.finished)
        return run.finished->final_test_acc;
    if (run.final_metrics)
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
            run.problems.emplace_back("architecture.json: not a JSON object; skipped");
        } else {
            try {
                run.final_model = summary_from_json(j);
            } catch (const std::exception& e) {
                run.problems.push_back(fmt::format("architecture.json: {}; skipped", e.what()));
            }
        }
    }

    if (fs::exists(metrics / "episodes.csv", ec) || fs::exists(dir / "policy.pt", ec))
        run.kind = RunKind::Learning;
    else if (sim::is_table_folder(dir))
        run.kind = RunKind::Simulation;
    else if (fs::exists(metrics / "test_acc.csv", ec) || training_events)
        run.kind = RunKind::Training;
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
        if (!j.is_object() || text(j, "type") != "settings")
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
