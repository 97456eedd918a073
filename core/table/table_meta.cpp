// Table metadata: written by the builder, found beside a table (or in its index), checked on read.
#include "core/table/table_meta.h"

#include "core/config/experiment_io.h"
#include "core/config/value_limits.h"
#include "core/config/dataset_shape.h"
#include "core/model/toml_model.h"
#include "core/model/zoo.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace rlda::core::sim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::uintmax_t kMaxMetaBytes = 16u << 20;
constexpr const char* kFormat = "rlda-table";

// A folder or a FIFO by the name is refused, not read as nothing or waited on; a file over `cap`
// is refused before it is read.
std::string read_capped(const fs::path& file, std::uintmax_t cap) { return read_text_file(file, cap); }

// Typed access with one-line errors "source: key: reason".
class Reader {
public:
    Reader(const json& j, std::string source) : j_(j), source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& reason) const
    {
        throw Error(fmt::format("{}: {}: {}", source_, key, reason));
    }
    const json& at(const json& obj, const std::string& key, const std::string& path,
                   bool required = true) const
    {
        static const json null;
        if (!obj.is_object())
            fail(path, "expected an object");
        const auto it = obj.find(key);
        if (it == obj.end()) {
            if (required)
                fail(path.empty() ? key : path + "." + key, "missing");
            return null;
        }
        return *it;
    }
    std::int64_t integer(const json& v, const std::string& key, std::int64_t lo, std::int64_t hi) const
    {
        if (!v.is_number_integer())
            fail(key, "expected an integer");
        const auto x = v.get<std::int64_t>();
        if (x < lo || x > hi)
            fail(key, fmt::format("{} is outside {}..{}", x, lo, hi));
        return x;
    }
    double number(const json& v, const std::string& key) const
    {
        if (!v.is_number())
            fail(key, "expected a number");
        const double x = v.get<double>();
        if (!std::isfinite(x) || x < 0)
            fail(key, fmt::format("{} is not a finite number >= 0", x));
        return x;
    }
    std::string text(const json& v, const std::string& key) const
    {
        if (!v.is_string())
            fail(key, "expected a string");
        return v.get<std::string>();
    }
    // An enumerated setting by its config name ("cifar10", "wall").
    template <class E> E named(const json& v, const std::string& key) const
    {
        const std::string name = text(v, key);
        const auto e = config::from_string<E>(name);
        if (!e)
            fail(key, fmt::format("unknown value {} (allowed: \"{}\")", excerpt(name),
                                  fmt::join(config::names<E>(), "\", \"")));
        return *e;
    }
    bool boolean(const json& v, const std::string& key) const
    {
        if (!v.is_boolean())
            fail(key, "expected true or false");
        return v.get<bool>();
    }
    const json& root() const { return j_; }

private:
    const json& j_;
    std::string source_;
};

std::int64_t power(std::int64_t base, int exponent)
{
    std::int64_t n = 1;
    for (int i = 0; i < exponent; ++i)
        n *= base;
    return n;
}

// A folder built before tables described themselves: what its config.toml says.
std::optional<TableMeta> meta_from_config(const fs::path& config_toml, const std::vector<std::string>& header)
{
    const auto c = config::load_experiment(config_toml.string());
    const auto sample = config::sample_shape(c.dataset);
    const auto spec = model::load_model(c.job.model, sample.input, sample.classes, c.job.head);
    const int k = header_decisions(header);
    TableMeta m = table_meta(c, spec, k > 0 ? k : c.trainer.max_decisions);
    m.source = config_toml.string();
    return m;
}

} // namespace

model::OutputHead TableMeta::output_head() const
{
    return model::parse_output_head(head).value_or(model::OutputHead::Relu);
}

double TableMeta::first_up() const
{
    for (const auto& e : scheduler.events)
        if (e.change == config::Change::Up)
            return e.time;
    return -1.0;
}

TableMeta table_meta(const config::ExperimentConfig& c, const model::ModelSpec& spec, int decisions)
{
    TableMeta m;
    if (model::is_zoo_name(c.job.model)) {
        m.model = c.job.model;
    } else {
        m.model = spec.name.empty() ? fs::path(c.job.model).stem().string() : spec.name;
        m.model_toml = read_capped(c.job.model, kMaxMetaBytes / 2);
    }
    m.head = model::to_string(c.job.head);
    m.input = spec.input;
    m.classes = spec.classes;
    m.dataset = config::DatasetConfig{};
    m.dataset.kind = c.dataset.kind;
    m.dataset.normalization = c.dataset.normalization;
    m.dataset.train_subset = c.dataset.train_subset;
    m.dataset.test_subset = c.dataset.test_subset;
    m.dataset.random_subset = c.dataset.random_subset;
    m.dataset.test_unused_train = c.dataset.test_unused_train;
    if (c.dataset.kind == config::DatasetKind::Synthetic) {
        m.dataset.shape = c.dataset.shape;
        m.dataset.classes = c.dataset.classes;
        m.dataset.train_size = c.dataset.train_size;
        m.dataset.test_size = c.dataset.test_size;
        m.dataset.noise = c.dataset.noise;
    }
    m.scenario = c.name;
    m.scheduler = c.scheduler;
    m.decisions = decisions;
    m.operations = model::operation_strings(model::parse_operations(c.trainer.operations));
    m.widen_factor = c.trainer.widen_factor;
    m.actions = table_actions(m, spec).size();
    m.seed = c.job.seed;
    if (c.sweep.seeds.size() > 1) { // a replicated table; its first seed is the one a single table has
        m.seeds.assign(c.sweep.seeds.begin(), c.sweep.seeds.end());
        m.seed = m.seeds.front();
    }
    m.rows = power(m.actions, decisions);
    return m;
}

std::string table_meta_json(const TableMeta& m)
{
    using json = nlohmann::ordered_json; // keys in the order a reader expects them
    json events = json::array();
    for (const auto& e : m.scheduler.events)
        events.push_back({{"time", e.time}, {"change", config::to_string(e.change)}});
    json dataset{{"kind", config::to_string(m.dataset.kind)},
                 {"normalization", config::to_string(m.dataset.normalization)},
                 {"train_subset", m.dataset.train_subset},
                 {"test_subset", m.dataset.test_subset},
                 {"random_subset", m.dataset.random_subset}};
    if (m.dataset.test_unused_train) // only where set, so that every other table's file is as before
        dataset["test_unused_train"] = true;
    if (m.dataset.kind == config::DatasetKind::Synthetic) {
        dataset["shape"] = m.dataset.shape;
        dataset["classes"] = m.dataset.classes;
        dataset["train_size"] = m.dataset.train_size;
        dataset["test_size"] = m.dataset.test_size;
        dataset["noise"] = m.dataset.noise;
    }
    json j{
        {"format", kFormat},
        {"version", TableMeta::kVersion},
        {"rows", m.rows},
        {"decisions", m.decisions},
        {"actions", m.actions},
        {"model",
         {{"name", m.model},
          {"head", m.head},
          {"toml", m.model_toml.empty() ? json(nullptr) : json(m.model_toml)}}},
        {"input", m.input},
        {"classes", m.classes},
        {"dataset", dataset},
        {"scenario",
         {{"name", m.scenario},
          {"first_up", m.first_up()},
          {"start_time", m.scheduler.start_time},
          {"events", events}}},
        {"budget", m.scheduler.budget},
        {"clock",
         {{"kind", config::to_string(m.scheduler.clock)},
          {"step_cost", m.scheduler.step_cost},
          {"eval_cost", m.scheduler.eval_cost}}},
        {"seed", m.seed},
    };
    if (m.operations != std::vector<std::string>{"deepen"}) {
        j["operations"] = m.operations;
        j["widen_factor"] = m.widen_factor;
    }
    if (!m.seeds.empty())
        j["seeds"] = m.seeds;
    return j.dump(2) + "\n";
}

TableMeta parse_table_meta(const std::string& text, const std::string& source)
{
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        // nlohmann's messages are one line: "[json.exception.parse_error.101] parse error at line 1, …".
        throw Error(fmt::format("{}: not valid JSON: {}", source, message_excerpt(e.what())));
    }
    const Reader r(j, source);
    if (!j.is_object())
        r.fail("(top level)", "expected a JSON object");
    if (r.text(r.at(j, "format", ""), "format") != kFormat)
        r.fail("format", fmt::format("expected \"{}\"", kFormat));
    const auto version = r.integer(r.at(j, "version", ""), "version", 1, 1 << 20);
    if (version > TableMeta::kVersion)
        r.fail("version", fmt::format("{} is newer than this rlda reads ({}); update rlda", version,
                                      TableMeta::kVersion));
    TableMeta m;
    m.source = source;
    m.decisions = static_cast<int>(r.integer(r.at(j, "decisions", ""), "decisions", 1, 32));
    m.actions = static_cast<int>(r.integer(r.at(j, "actions", ""), "actions", 2, 1024));
    m.rows = r.integer(r.at(j, "rows", ""), "rows", 1, std::int64_t{1} << 40);
    // actions^decisions, computed without overflow.
    std::int64_t expected = 1;
    for (int i = 0; i < m.decisions && expected <= m.rows; ++i)
        expected *= m.actions;
    if (expected != m.rows)
        r.fail("rows", fmt::format("{} rows for {} decisions over {} actions; a complete table has {}^{}",
                                   m.rows, m.decisions, m.actions, m.actions, m.decisions));
    const json& model = r.at(j, "model", "");
    m.model = r.text(r.at(model, "name", "model"), "model.name");
    if (first_control_character(m.model) >= 0)
        r.fail("model.name", "holds a control character; names hold none");
    if (m.model.empty())
        r.fail("model.name", "empty");
    if (const json& head = r.at(model, "head", "model", false); !head.is_null()) {
        m.head = r.text(head, "model.head");
        if (!model::parse_output_head(m.head))
            r.fail("model.head", fmt::format("{}: expected \"{}\"", excerpt(m.head), fmt::join(model::output_head_names(), "\" or \"")));
    }
    if (const json& toml = r.at(model, "toml", "model", false); !toml.is_null())
        m.model_toml = r.text(toml, "model.toml");
    const json& input = r.at(j, "input", "");
    if (!input.is_array() || input.empty() || input.size() > 3)
        r.fail("input", "expected 1 to 3 dimensions, e.g. [1, 28, 28]");
    m.input.clear();
    for (const auto& d : input)
        m.input.push_back(r.integer(d, "input", 1, 1 << 16));
    m.classes = r.integer(r.at(j, "classes", ""), "classes", 1, 1 << 20);

    const json& dataset = r.at(j, "dataset", "");
    m.dataset.kind = r.named<config::DatasetKind>(r.at(dataset, "kind", "dataset"), "dataset.kind");
    if (const json& v = r.at(dataset, "normalization", "dataset", false); !v.is_null())
        m.dataset.normalization = r.named<config::Normalization>(v, "dataset.normalization");
    if (const json& v = r.at(dataset, "train_subset", "dataset", false); !v.is_null())
        m.dataset.train_subset = r.integer(v, "dataset.train_subset", 0, std::int64_t{1} << 40);
    if (const json& v = r.at(dataset, "test_subset", "dataset", false); !v.is_null())
        m.dataset.test_subset = r.integer(v, "dataset.test_subset", 0, std::int64_t{1} << 40);
    if (const json& v = r.at(dataset, "random_subset", "dataset", false); !v.is_null())
        m.dataset.random_subset = r.boolean(v, "dataset.random_subset");
    if (const json& v = r.at(dataset, "test_unused_train", "dataset", false); !v.is_null())
        m.dataset.test_unused_train = r.boolean(v, "dataset.test_unused_train");
    if (m.dataset.kind == config::DatasetKind::Synthetic) {
        if (const json& v = r.at(dataset, "shape", "dataset", false); v.is_array() && v.size() <= 3) {
            m.dataset.shape.clear();
            for (const auto& d : v)
                m.dataset.shape.push_back(r.integer(d, "dataset.shape", 1, 1 << 16));
        }
        if (const json& v = r.at(dataset, "classes", "dataset", false); !v.is_null())
            m.dataset.classes = r.integer(v, "dataset.classes", 1, 1 << 20);
        if (const json& v = r.at(dataset, "train_size", "dataset", false); !v.is_null())
            m.dataset.train_size = r.integer(v, "dataset.train_size", 1, std::int64_t{1} << 40);
        if (const json& v = r.at(dataset, "test_size", "dataset", false); !v.is_null())
            m.dataset.test_size = r.integer(v, "dataset.test_size", 1, std::int64_t{1} << 40);
        if (const json& v = r.at(dataset, "noise", "dataset", false); !v.is_null())
            m.dataset.noise = r.number(v, "dataset.noise");
    }

    const json& scenario = r.at(j, "scenario", "");
    m.scenario = r.text(r.at(scenario, "name", "scenario"), "scenario.name");
    if (first_control_character(m.scenario) >= 0)
        r.fail("scenario.name", "holds a control character; names hold none");
    if (const json& v = r.at(scenario, "start_time", "scenario", false); !v.is_null())
        m.scheduler.start_time = r.number(v, "scenario.start_time");
    const json& events = r.at(scenario, "events", "scenario");
    if (!events.is_array() || events.size() > 100000)
        r.fail("scenario.events", R"(expected a list of {"time", "change"})");
    for (std::size_t i = 0; i < events.size(); ++i) {
        const std::string key = fmt::format("scenario.events[{}]", i);
        config::AllocationEventConfig e;
        e.time = r.number(r.at(events[i], "time", key), key + ".time");
        const std::string change = r.text(r.at(events[i], "change", key), key + ".change");
        const auto parsed = config::from_string<config::Change>(change);
        if (!parsed)
            r.fail(key + ".change", fmt::format(R"({}: expected "up" or "down")", excerpt(change)));
        e.change = *parsed;
        m.scheduler.events.push_back(e);
    }
    m.scheduler.budget = r.number(r.at(j, "budget", ""), "budget");
    const json& clock = r.at(j, "clock", "");
    m.scheduler.clock = r.named<config::ClockKind>(r.at(clock, "kind", "clock"), "clock.kind");
    if (const json& v = r.at(clock, "step_cost", "clock", false); !v.is_null())
        m.scheduler.step_cost = r.number(v, "clock.step_cost");
    if (const json& v = r.at(clock, "eval_cost", "clock", false); !v.is_null())
        m.scheduler.eval_cost = r.number(v, "clock.eval_cost");
    if (const json& v = r.at(j, "seed", "", false); !v.is_null()) {
        if (!v.is_number_unsigned() && !v.is_number_integer())
            r.fail("seed", "expected an integer");
        m.seed = v.get<std::uint64_t>();
    }
    if (const json& v = r.at(j, "operations", "", false); !v.is_null()) {
        if (!v.is_array() || v.size() > model::operation_names().size())
            r.fail("operations", R"(expected a list such as ["deepen", "widen"])");
        std::vector<std::string> names;
        for (const auto& o : v)
            names.push_back(r.text(o, "operations"));
        try {
            m.operations = model::operation_strings(model::parse_operations(names));
        } catch (const Error& e) {
            r.fail("operations", e.what());
        }
    }
    if (const json& v = r.at(j, "widen_factor", "", false); !v.is_null()) {
        m.widen_factor = r.number(v, "widen_factor");
        if (!(m.widen_factor > 1.0 && m.widen_factor <= 8.0))
            r.fail("widen_factor", fmt::format("{} is outside (1, 8]", m.widen_factor));
    }
    if (const json& v = r.at(j, "seeds", "", false); !v.is_null()) {
        if (!v.is_array() || v.empty() || v.size() > config::kMaxReplicates)
            r.fail("seeds", fmt::format("expected a list of 1 to {} seeds", config::kMaxReplicates));
        for (const auto& s : v) {
            if (!s.is_number_unsigned() && !(s.is_number_integer() && s.get<std::int64_t>() >= 0))
                r.fail("seeds", "expected whole numbers >= 0");
            m.seeds.push_back(s.get<std::uint64_t>());
        }
    }
    return m;
}

void save_table_meta(const fs::path& file, const TableMeta& meta)
{
    write_text_atomically(file, table_meta_json(meta));
}

TableMeta load_table_meta(const fs::path& file)
{
    return parse_table_meta(read_capped(file, kMaxMetaBytes), file.string());
}

fs::path meta_file_for(const fs::path& table_csv)
{
    fs::path p = table_csv;
    return p.replace_extension(".json");
}

TableMeta meta_from_index(const TableIndexEntry& e, const std::string& source)
{
    TableMeta m;
    m.source = source;
    m.model = e.model;
    m.input = model::kCifar10Input;
    m.classes = model::kCifar10Classes;
    m.dataset.kind = config::DatasetKind::Cifar10;
    m.scenario = e.scenario;
    m.scheduler.budget = e.budget;
    m.scheduler.events = {{e.adaptation_start, config::Change::Up}};
    m.scheduler.clock = config::ClockKind::Wall;
    m.seed = 42;
    const auto spec = model::load_model(e.model, m.input, m.classes);
    m.actions = model::original_block_count(spec) + 1;
    m.rows = e.sequences;
    m.decisions = 0;
    for (std::int64_t n = 1; n < m.rows && m.decisions < 32; n *= m.actions)
        ++m.decisions;
    if (m.rows < 1 || power(m.actions, m.decisions) != m.rows)
        throw Error(fmt::format("{}: {}: sequences: {} is not a power of {} ({}'s actions)", source, e.file,
                                e.sequences, m.actions, e.model));
    return m;
}

std::optional<TableMeta> find_table_meta(const fs::path& table_csv)
{
    std::error_code ec;
    // Anything by the metadata's name is read as it, so that a folder there is an error, not "no metadata".
    if (const fs::path meta = meta_file_for(table_csv); fs::exists(meta, ec))
        return load_table_meta(meta);
    const fs::path folder = table_csv.parent_path().empty() ? fs::path(".") : table_csv.parent_path();
    if (const fs::path index = folder / "index.csv"; fs::is_regular_file(index, ec)) {
        const auto name = table_csv.filename();
        for (const auto& e : load_table_index(index.string()))
            if (fs::path(e.file).filename() == name)
                return meta_from_index(e, index.string());
    }
    if (table_csv.filename() == "table.csv" && fs::is_regular_file(folder / "config.toml", ec))
        return meta_from_config(folder / "config.toml", read_table_header(table_csv));
    return std::nullopt;
}

model::ModelSpec table_model(const TableMeta& m)
{
    if (!m.model_toml.empty())
        return model::parse_toml_model(m.model_toml, m.source.empty() ? m.model : m.source + " (model.toml)",
                                       m.input, m.classes);
    return model::load_model(m.model, m.input, m.classes, m.output_head());
}

model::ActionSpace table_actions(const TableMeta& m, const model::ModelSpec& model)
{
    return model::action_space(model, model::parse_operations(m.operations), m.widen_factor);
}

} // namespace rlda::core::sim
