// Experiment files in, in our schema or the original tool's: one small reader per section,
// strict keys, and every message pointing at the file position (or the --set) at fault.
#include "core/config/experiment_io.h"

#include "core/model/zoo.h"
#include "core/util/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
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

// How one key of a section is read. Keys of the original schema are accepted but not suggested.
struct Handler {
    std::string_view key;
    std::function<void(const Field&)> read;
    bool original = false;
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

const std::vector<std::string_view>& section_names()
{
    static const std::vector<std::string_view> names{"job",   "dataset", "scheduler",  "trainer",
                                                     "agent", "policy",  "simulation", "runner",
                                                     "sweep"};
    return names;
}

class Reader {
public:
    // `assignment` non-empty: reading a --set, whose text has no useful positions.
    Reader(std::string source, std::string assignment, fs::path base)
        : source_(std::move(source)), assignment_(std::move(assignment)), base_(std::move(base))
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
            if (key == "name") {
                c.name = text(Field{v, key}, "name");
                continue;
            }
            if (std::find(section_names().begin(), section_names().end(), key) == section_names().end()) {
                std::string known = "name";
                for (auto s : section_names())
                    known += fmt::format(", [{}]", s);
                fail(k.source(), key, fmt::format("unknown section (known: {})", known));
            }
            const toml::table* t = v.as_table();
            if (!t)
                fail(v.source(), key, fmt::format("expected a table [{}], got {}", key, type_name(v)));
            spots_[key] = Spot{key, t->source()};
            if (key == "job")
                job(*t, c);
            else if (key == "dataset")
                dataset(*t, c.dataset);
            else if (key == "scheduler")
                scheduler(*t, c.scheduler);
            else if (key == "trainer")
                trainer(*t, c.trainer);
            else if (key == "agent")
                agent(*t, c);
            else if (key == "policy")
                section(*t, "policy", policy_handlers(c.policy, false));
            else if (key == "simulation")
                simulation(*t, c.simulation);
            else if (key == "sweep")
                sweep(*t, c.sweep);
            else
                runner(*t, c);
        }
    }

    // Paths written relative to the config file mean "next to it" when such a file exists there.
    void resolve_paths(ExperimentConfig& c) const
    {
        if (base_.empty())
            return;
        const auto resolve = [&](std::string& p) {
            if (p.empty() || fs::path(p).is_absolute())
                return;
            std::error_code ec;
            const fs::path there = base_ / p;
            if (fs::exists(there, ec))
                p = there.lexically_normal().string();
        };
        if (!model::is_zoo_name(c.job.model))
            resolve(c.job.model);
        resolve(c.agent.policy);
        resolve(c.simulation.table);
        resolve(c.dataset.path);
    }

    // Reports the first bad value in file order; values this text did not set come after.
    void check(const ExperimentConfig& c) const
    {
        const auto problems = find_problems(c);
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

private:
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
    std::string device(const Field& f)
    {
        claim(f, "job.device");
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

    model::OutputHead head(const Field& f)
    {
        const std::string name = text(f, "job.head");
        const auto h = model::parse_output_head(name);
        if (!h) {
            std::vector<std::string> allowed;
            for (const auto& n : model::output_head_names())
                allowed.push_back(fmt::format("\"{}\"", n));
            fail(f.node, f.name, fmt::format("unknown value \"{}\" (allowed: {})", name, fmt::join(allowed, ", ")));
        }
        return *h;
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
        section(t, name,
                {{"time",
                  [&](const Field& f) {
                      e.time = number(f, key + ".time");
                      has_time = true;
                  }},
                 {"change", [&](const Field& f) {
                      const auto c = change_from_string(text(f, key + ".change"));
                      if (!c)
                          fail(f.node, f.name,
                               fmt::format("unknown value \"{}\" (allowed: \"up\", \"down\")",
                                           f.node.value<std::string>().value()));
                      e.change = *c;
                      has_change = true;
                  }}});
        if (!has_time)
            fail(t.source(), name + ".time", "missing (seconds since the job started)");
        if (!has_change)
            fail(t.source(), name + ".change", "missing (\"up\" or \"down\")");
        return e;
    }

    // --- sections ------------------------------------------------------------------------------

    void section(const toml::table& t, const std::string& name, const std::vector<Handler>& handlers)
    {
        for (const auto& [k, v] : t) {
            const std::string key = fmt::format("{}.{}", name, k.str());
            const auto h = std::find_if(handlers.begin(), handlers.end(),
                                        [&](const Handler& x) { return x.key == k.str(); });
            if (h == handlers.end()) {
                std::vector<std::string_view> known;
                for (const auto& x : handlers)
                    if (!x.original)
                        known.push_back(x.key);
                fail(k.source(), key, fmt::format("unknown key (known: {})", fmt::join(known, ", ")));
            }
            h->read(Field{v, key});
        }
    }

    void job(const toml::table& t, ExperimentConfig& c)
    {
        JobConfig& j = c.job;
        section(t, "job",
                {{"model", [&](const Field& f) { j.model = text(f, "job.model"); }},
                 {"head", [&](const Field& f) { j.head = head(f); }},
                 {"batch_size",
                  [&](const Field& f) { j.batch_size = integer<std::int64_t>(f, "job.batch_size"); }},
                 {"optimizer", [&](const Field& f) { j.optimizer = text(f, "job.optimizer"); }},
                 {"lr", [&](const Field& f) { j.lr = number(f, "job.lr"); }},
                 {"lr_decay", [&](const Field& f) { j.lr_decay = number(f, "job.lr_decay"); }},
                 {"momentum", [&](const Field& f) { j.momentum = number(f, "job.momentum"); }},
                 {"device", [&](const Field& f) { j.device = device(f); }},
                 {"seed", [&](const Field& f) { j.seed = integer<std::uint64_t>(f, "job.seed"); }},
                 {"dataset", [&](const Field& f) { c.dataset.kind = text(f, "dataset.kind"); }, true}});
    }

    void dataset(const toml::table& t, DatasetConfig& d)
    {
        section(
            t, "dataset",
            {{"kind", [&](const Field& f) { d.kind = text(f, "dataset.kind"); }},
             {"path", [&](const Field& f) { d.path = text(f, "dataset.path"); }},
             {"normalization", [&](const Field& f) { d.normalization = text(f, "dataset.normalization"); }},
             {"train_subset",
              [&](const Field& f) { d.train_subset = integer<std::int64_t>(f, "dataset.train_subset"); }},
             {"test_subset",
              [&](const Field& f) { d.test_subset = integer<std::int64_t>(f, "dataset.test_subset"); }},
             {"random_subset", [&](const Field& f) { d.random_subset = flag(f, "dataset.random_subset"); }},
             {"shape", [&](const Field& f) { d.shape = integers<std::int64_t>(f, "dataset.shape"); }},
             {"classes", [&](const Field& f) { d.classes = integer<std::int64_t>(f, "dataset.classes"); }},
             {"train_size",
              [&](const Field& f) { d.train_size = integer<std::int64_t>(f, "dataset.train_size"); }},
             {"test_size",
              [&](const Field& f) { d.test_size = integer<std::int64_t>(f, "dataset.test_size"); }},
             {"noise", [&](const Field& f) { d.noise = number(f, "dataset.noise"); }}});
    }

    void scheduler(const toml::table& t, SchedulerConfig& s)
    {
        section(t, "scheduler",
                {{"budget", [&](const Field& f) { s.budget = number(f, "scheduler.budget"); }},
                 {"start_time", [&](const Field& f) { s.start_time = number(f, "scheduler.start_time"); }},
                 {"events", [&](const Field& f) { s.events = events(f, "scheduler.events"); }},
                 {"clock", [&](const Field& f) { s.clock = text(f, "scheduler.clock"); }},
                 {"step_cost", [&](const Field& f) { s.step_cost = number(f, "scheduler.step_cost"); }},
                 {"eval_cost", [&](const Field& f) { s.eval_cost = number(f, "scheduler.eval_cost"); }},
                 {"running_time", [&](const Field& f) { s.budget = number(f, "scheduler.budget"); }, true},
                 {"gpu_changes", [&](const Field& f) { s.events = events(f, "scheduler.events"); }, true}});
    }

    void trainer(const toml::table& t, TrainerConfig& tr)
    {
        section(
            t, "trainer",
            {{"max_decisions",
              [&](const Field& f) { tr.max_decisions = integer<int>(f, "trainer.max_decisions"); }},
             {"distill_temperature",
              [&](const Field& f) { tr.distill_temperature = number(f, "trainer.distill_temperature"); }},
             {"distill_weight",
              [&](const Field& f) { tr.distill_weight = number(f, "trainer.distill_weight"); }},
             {"distill_decay",
              [&](const Field& f) { tr.distill_decay = number(f, "trainer.distill_decay"); }},
             {"check_preservation",
              [&](const Field& f) { tr.check_preservation = flag(f, "trainer.check_preservation"); }},
             {"warm_start_checkpoint",
              [&](const Field& f) { tr.warm_start_checkpoint = flag(f, "trainer.warm_start_checkpoint"); }},
             {"weights",
              [&](const Field& f) {
                  warn(f, "not used: the original tool's PyTorch warm-start weights cannot be loaded here");
              },
              true},
             {"runtimes",
              [&](const Field& f) {
                  warn(f, "not used: the original tool's runtimes of its warm-start run; "
                          "time here comes from [scheduler]");
              },
              true}});
    }

    std::vector<Handler> policy_handlers(PolicyConfig& p, bool original)
    {
        const auto size = [&](std::int64_t& member, const char* key) {
            return Handler{key,
                           [&member, key, this](const Field& f) {
                               member = integer<std::int64_t>(f, std::string("policy.") + key);
                           },
                           original};
        };
        return {{"vocab", [&](const Field& f) { p.vocab = text(f, "policy.vocab"); }, original},
                size(p.embedding_size, "embedding_size"),
                size(p.hidden_size, "hidden_size"),
                size(p.decider_lstm_size, "decider_lstm_size"),
                size(p.decider_linear_size, "decider_linear_size"),
                size(p.time_encoding_size, "time_encoding_size"),
                size(p.max_actions, "max_actions"),
                size(p.action_set_size, "action_set_size"),
                {"alpha", [&](const Field& f) { p.alpha = number(f, "policy.alpha"); }, original},
                {"learning_rate_decay",
                 [&](const Field& f) { p.learning_rate_decay = number(f, "policy.learning_rate_decay"); },
                 original},
                size(p.decay_freq, "decay_freq")};
    }

    void agent(const toml::table& t, ExperimentConfig& c)
    {
        AgentConfig& a = c.agent;
        std::vector<Handler> handlers{
            {"kind", [&](const Field& f) { a.kind = text(f, "agent.kind"); }},
            {"sequence", [&](const Field& f) { a.sequence = integers<int>(f, "agent.sequence"); }},
            {"policy", [&](const Field& f) { a.policy = text(f, "agent.policy"); }},
            {"temperature", [&](const Field& f) { a.temperature = number(f, "agent.temperature"); }},
            {"greedy", [&](const Field& f) { a.greedy = flag(f, "agent.greedy"); }},
            {"seed", [&](const Field& f) { a.seed = integer<std::uint64_t>(f, "agent.seed"); }},
            // The original kept the device and the policy's settings here.
            {"device", [&](const Field& f) { c.job.device = device(f); }, true},
            {"policyfile",
             [&](const Field& f) {
                 a.policy = text(f, "agent.policy");
                 if (fs::path(a.policy).extension() == ".pth")
                     warn(f, "a .pth file is the original tool's PyTorch pickle, which the workbench "
                             "cannot load; use a policy saved by `rlda learn`");
             },
             true},
            {"num_actions",
             [&](const Field& f) { c.trainer.max_decisions = integer<int>(f, "trainer.max_decisions"); },
             true},
            {"save_file",
             [&](const Field& f) {
                 warn(f, "not used: the original tool's pickled results; results go to the run folder");
             },
             true}};
        for (auto& h : policy_handlers(c.policy, true))
            handlers.push_back(std::move(h));
        section(t, "agent", handlers);
    }

    void simulation(const toml::table& t, SimulationConfig& s)
    {
        section(t, "simulation",
                {{"table", [&](const Field& f) { s.table = text(f, "simulation.table"); }},
                 {"datafile",
                  [&](const Field& f) {
                      s.table = text(f, "simulation.table");
                      if (fs::path(s.table).extension() == ".pkl")
                          warn(f, "a .pkl file is the original tool's pickled table, which the workbench "
                                  "cannot read; use its CSV form (as in data/paper/tables)");
                  },
                  true}});
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

    void sweep(const toml::table& t, SweepConfig& s)
    {
        section(t, "sweep",
                {{"backend", [&](const Field& f) { s.backend = text(f, "sweep.backend"); }},
                 {"workers", [&](const Field& f) { s.workers = integer<int>(f, "sweep.workers"); }},
                 {"threads_per_task",
                  [&](const Field& f) { s.threads_per_task = integer<int>(f, "sweep.threads_per_task"); }},
                 {"max_retries", [&](const Field& f) { s.max_retries = integer<int>(f, "sweep.max_retries"); }},
                 {"partition", [&](const Field& f) { s.partition = text(f, "sweep.partition"); }},
                 {"time_limit", [&](const Field& f) { s.time_limit = text(f, "sweep.time_limit"); }},
                 {"cpus_per_task",
                  [&](const Field& f) { s.cpus_per_task = integer<int>(f, "sweep.cpus_per_task"); }},
                 {"gres", [&](const Field& f) { s.gres = text(f, "sweep.gres"); }},
                 {"sbatch_args", [&](const Field& f) { s.sbatch_args = texts(f, "sweep.sbatch_args"); }},
                 {"poll_seconds", [&](const Field& f) { s.poll_seconds = number(f, "sweep.poll_seconds"); }}});
    }

    void runner(const toml::table& t, ExperimentConfig& c)
    {
        section(t, "runner",
                {{"total_episodes",
                  [&](const Field& f) {
                      c.runner.total_episodes = integer<std::int64_t>(f, "runner.total_episodes");
                  }},
                 {"save", [&](const Field& f) { c.runner.save = flag(f, "runner.save"); }},
                 {"seed", [&](const Field& f) { c.job.seed = integer<std::uint64_t>(f, "job.seed"); }, true},
                 {"folder", [&](const Field& f) { c.name = text(f, "name"); }, true},
                 {"agent", [&](const Field& f) { c.agent.kind = original_agent(f); }, true}});
    }

    std::string original_agent(const Field& f)
    {
        static const std::map<std::string, std::string> kinds{
            {"RandomAgent", "random"}, {"Agent", "policy"}, {"SimulationAgent", "simulation"}};
        const std::string name = text(f, "agent.kind");
        const auto it = kinds.find(name);
        if (it == kinds.end())
            fail(
                f.node, f.name,
                fmt::format("unknown value \"{}\" (allowed: \"RandomAgent\", \"Agent\", \"SimulationAgent\")",
                            name));
        return it->second;
    }
};

toml::table parse_text(const std::string& text, const std::string& source)
{
    try {
        return toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        throw ConfigError(fmt::format("{}:{}:{}: {}", source, b.line, b.column, e.description()));
    }
}

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

ExperimentConfig parse_experiment(const std::string& text, const std::string& source)
{
    const toml::table root = parse_text(text, source);
    ExperimentConfig c;
    c.source = source;
    Reader reader(source, {}, fs::path(source).parent_path());
    reader.read(root, c);
    reader.resolve_paths(c);
    reader.check(c);
    c.warnings = reader.take_warnings();
    return c;
}

ExperimentConfig load_experiment(const std::string& path)
{
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw ConfigError(fmt::format("{}: is a folder, not an experiment file", path));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError(fmt::format("{}: cannot open the experiment file", path));
    std::ostringstream text;
    text << in.rdbuf();
    return parse_experiment(text.str(), path);
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
        a.root = toml::parse(text, std::string_view("--set"));
    } catch (const toml::parse_error& e) {
        const bool bare = std::isalpha(static_cast<unsigned char>(value.front())) != 0;
        fail(fmt::format("{}: {}{}", key, e.description(),
                         bare ? fmt::format(" (a string needs double quotes: {}=\"{}\")", key, value) : ""));
    }
    const toml::table* section = a.root.get_as<toml::table>(head);
    if (a.root.size() != 1 || (!tail.empty() && (!section || section->size() != 1)))
        fail("expected exactly one value");
    return a;
}

} // namespace

void apply_override(ExperimentConfig& c, const std::string& assignment)
{
    apply_overrides(c, {assignment});
}

void apply_overrides(ExperimentConfig& c, const std::vector<std::string>& assignments)
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
            Reader r(std::string{}, parsed[i].shown, fs::path{});
            r.read(parsed[i].root, out); // a wrong type or an unknown key: this assignment's own error
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
    const auto problems = find_problems(changed);
    const auto has_key = [](const std::vector<Problem>& ps, const std::string& key) {
        return std::any_of(ps.begin(), ps.end(), [&](const Problem& q) { return q.key == key; });
    };
    const Problem* fault = nullptr;
    std::size_t culprit = readers.size();
    int best = 0;
    for (const auto& p : problems) {
        for (std::size_t i = readers.size(); i-- > 0;) {
            const int close = readers[i].closeness(p);
            const int score = (has_key(find_problems(apply(i, nullptr)), p.key) ? 0 : 4) + close;
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
