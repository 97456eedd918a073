// Range, enum and cross-field checks of experiment configs, shared by the reader and validate().
#include "core/config/validate.h"

#include "core/config/dataset_shape.h"
#include "core/model/zoo.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>

namespace rlda::core::config {
namespace {

std::string quoted_list(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "\"" : ", \"") + n + "\"";
    return out;
}

bool contains(const std::vector<std::string>& names, const std::string& value)
{
    return std::find(names.begin(), names.end(), value) != names.end();
}

// Collects problems; each check is one line in check_* below.
class Checker {
public:
    std::vector<Problem> problems;

    void add(std::string key, std::string reason, std::string related = {})
    {
        problems.push_back({std::move(key), std::move(reason), std::move(related)});
    }

    void one_of(const std::string& key, const std::string& value, const std::vector<std::string>& allowed)
    {
        if (!contains(allowed, value))
            add(key, fmt::format("unknown value \"{}\" (allowed: {})", value, quoted_list(allowed)));
    }
    void not_empty(const std::string& key, const std::string& value)
    {
        if (value.empty())
            add(key, "must not be empty");
    }
    void positive(const std::string& key, double v)
    {
        if (!(std::isfinite(v) && v > 0.0))
            add(key, fmt::format("must be a positive number, got {}", v));
    }
    void non_negative(const std::string& key, double v)
    {
        if (!(std::isfinite(v) && v >= 0.0))
            add(key, fmt::format("must be a number of at least 0, got {}", v));
    }
    void unit_closed(const std::string& key, double v) // [0, 1]
    {
        if (!(v >= 0.0 && v <= 1.0))
            add(key, fmt::format("must be in [0, 1], got {}", v));
    }
    void unit_open_closed(const std::string& key, double v) // (0, 1]
    {
        if (!(v > 0.0 && v <= 1.0))
            add(key, fmt::format("must be in (0, 1], got {}", v));
    }
    void at_least(const std::string& key, std::int64_t v, std::int64_t min)
    {
        if (v < min)
            add(key, fmt::format("must be at least {}, got {}", min, v));
    }
    // TOML integers are signed 64-bit: a larger seed could not be written back.
    void seed(const std::string& key, std::uint64_t v)
    {
        constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        if (v > max)
            add(key, fmt::format("must be at most {}, got {}", max, v));
    }
    void in_budget(const std::string& key, double t, double budget)
    {
        if (!(std::isfinite(t) && t >= 0.0 && t < budget))
            add(key, fmt::format("{} is outside the budget [0, {})", t, budget));
    }
};

void check_job(Checker& k, const JobConfig& j)
{
    k.not_empty("job.model", j.model);
    if (j.head != model::OutputHead::Relu && model::is_model_file(j.model))
        k.add("job.head",
              fmt::format("\"{}\" applies to zoo models only; a model file writes its own last block "
                          "(leave out its ReLU for plain logits)",
                          model::to_string(j.head)),
              "job.model");
    k.at_least("job.batch_size", j.batch_size, 1);
    k.one_of("job.optimizer", j.optimizer, optimizer_names());
    k.positive("job.lr", j.lr);
    k.unit_open_closed("job.lr_decay", j.lr_decay);
    if (!(j.momentum >= 0.0 && j.momentum < 1.0))
        k.add("job.momentum", fmt::format("must be in [0, 1), got {}", j.momentum));
    if (!is_device_name(j.device))
        k.add("job.device",
              fmt::format("unknown device \"{}\" (allowed: \"cpu\", \"cuda\", \"cuda:N\")", j.device));
    k.seed("job.seed", j.seed);
}

void check_dataset(Checker& k, const DatasetConfig& d)
{
    k.one_of("dataset.kind", d.kind, dataset_kinds());
    k.one_of("dataset.normalization", d.normalization, normalization_names());
    k.at_least("dataset.train_subset", d.train_subset, 0);
    k.at_least("dataset.test_subset", d.test_subset, 0);
    if (d.shape.size() != 3 || std::any_of(d.shape.begin(), d.shape.end(), [](auto v) { return v < 1; })) {
        std::string got;
        for (auto v : d.shape)
            got += (got.empty() ? "" : ", ") + std::to_string(v);
        k.add("dataset.shape",
              fmt::format("expected 3 positive integers [channels, height, width], got [{}]", got));
    }
    k.at_least("dataset.classes", d.classes, 2);
    k.at_least("dataset.train_size", d.train_size, 1);
    k.at_least("dataset.test_size", d.test_size, 1);
    k.non_negative("dataset.noise", d.noise);
}

void check_scheduler(Checker& k, const SchedulerConfig& s)
{
    k.positive("scheduler.budget", s.budget);
    const bool budget_ok = std::isfinite(s.budget) && s.budget > 0.0;
    if (budget_ok)
        k.in_budget("scheduler.start_time", s.start_time, s.budget);
    for (std::size_t i = 0; i < s.events.size() && budget_ok; ++i)
        k.in_budget(fmt::format("scheduler.events[{}].time", i), s.events[i].time, s.budget);
    k.one_of("scheduler.clock", s.clock, clock_names());
    if (s.clock == "virtual" && !(std::isfinite(s.step_cost) && s.step_cost > 0.0))
        k.add("scheduler.step_cost",
              fmt::format("must be positive for the virtual clock, got {}", s.step_cost), "scheduler.clock");
    k.non_negative("scheduler.eval_cost", s.eval_cost);
}

void check_trainer(Checker& k, const TrainerConfig& t)
{
    k.at_least("trainer.max_decisions", t.max_decisions, 0);
    k.positive("trainer.distill_temperature", t.distill_temperature);
    k.unit_closed("trainer.distill_weight", t.distill_weight);
    k.unit_closed("trainer.distill_decay", t.distill_decay);
}

void check_agent(Checker& k, const ExperimentConfig& c)
{
    const AgentConfig& a = c.agent;
    k.one_of("agent.kind", a.kind, agent_kinds());
    // A negative action is a mistake whatever the kind; only "fixed" plays the sequence.
    for (std::size_t i = 0; i < a.sequence.size(); ++i)
        if (a.sequence[i] < 0)
            k.add(fmt::format("agent.sequence[{}]", i),
                  fmt::format("must not be negative (0..n-1 deepen original block i, n = Do Nothing), got {}",
                              a.sequence[i]));
    // A fixed sequence plays actions 0..n (n = Do Nothing) of the job's model: checked here, so
    // that a run fails before it trains rather than at the first allocation event. The model at
    // the dataset's sample shape; a model or dataset that does not load is reported by its own key.
    if (a.kind == "fixed" && !a.sequence.empty()) {
        int blocks = -1;
        try {
            const auto sample = sample_shape(c.dataset);
            blocks = model::original_block_count(model::load_model(c.job.model, sample.input, sample.classes,
                                                                    c.job.head));
        } catch (const std::exception&) {
        }
        for (std::size_t i = 0; blocks >= 0 && i < a.sequence.size(); ++i)
            if (a.sequence[i] > blocks)
                k.add(fmt::format("agent.sequence[{}]", i),
                      fmt::format("action {} is out of range: {} has {} original blocks, so the actions are 0..{} "
                                  "({} = Do Nothing)",
                                  a.sequence[i], c.job.model, blocks, blocks, blocks),
                      "job.model");
    }
    // Learning against a table may start from scratch; deciding in a training run cannot.
    if (a.kind == "policy" && a.policy.empty() && c.simulation.table.empty())
        k.add("agent.policy",
              "a policy file is required for agent.kind \"policy\" (or a [simulation] table to learn from)",
              "agent.kind");
    k.positive("agent.temperature", a.temperature);
    k.seed("agent.seed", a.seed);
}

void check_policy(Checker& k, const PolicyConfig& p)
{
    k.not_empty("policy.vocab", p.vocab);
    k.at_least("policy.embedding_size", p.embedding_size, 1);
    k.at_least("policy.hidden_size", p.hidden_size, 1);
    k.at_least("policy.decider_lstm_size", p.decider_lstm_size, 1);
    k.at_least("policy.decider_linear_size", p.decider_linear_size, 1);
    k.at_least("policy.time_encoding_size", p.time_encoding_size, 0);
    k.at_least("policy.max_actions", p.max_actions, 0);
    k.at_least("policy.action_set_size", p.action_set_size, 0);
    k.positive("policy.alpha", p.alpha);
    k.unit_open_closed("policy.learning_rate_decay", p.learning_rate_decay);
    k.at_least("policy.decay_freq", p.decay_freq, 1);
}

// [D-]HH:MM:SS, as sbatch --time takes it (the one form written without ambiguity).
bool is_time_limit(std::string_view t)
{
    const auto digits = [](std::string_view s, std::size_t min, std::size_t max) {
        return s.size() >= min && s.size() <= max &&
               std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; });
    };
    if (const auto dash = t.find('-'); dash != std::string_view::npos) {
        if (!digits(t.substr(0, dash), 1, 3))
            return false;
        t.remove_prefix(dash + 1);
    }
    if (t.size() != 8 || t[2] != ':' || t[5] != ':')
        return false;
    return digits(t.substr(0, 2), 2, 2) && digits(t.substr(3, 2), 2, 2) && digits(t.substr(6, 2), 2, 2) &&
           t.substr(3, 2) < "60" && t.substr(6, 2) < "60";
}

void check_sweep(Checker& k, const SweepConfig& s)
{
    k.one_of("sweep.backend", s.backend, sweep_backends());
    k.at_least("sweep.workers", s.workers, 0);
    k.at_least("sweep.threads_per_task", s.threads_per_task, 1);
    k.at_least("sweep.max_retries", s.max_retries, 0);
    if (!is_time_limit(s.time_limit))
        k.add("sweep.time_limit",
              fmt::format("expected [D-]HH:MM:SS (e.g. \"01:30:00\" or \"2-00:00:00\"), got \"{}\"",
                          s.time_limit));
    k.at_least("sweep.cpus_per_task", s.cpus_per_task, 1);
    k.positive("sweep.poll_seconds", s.poll_seconds);
}

} // namespace

const std::vector<std::string>& sweep_backends()
{
    static const std::vector<std::string> names{"local", "slurm"};
    return names;
}

const std::vector<std::string>& optimizer_names()
{
    static const std::vector<std::string> names{"adam", "sgd"};
    return names;
}

const std::vector<std::string>& dataset_kinds()
{
    static const std::vector<std::string> names{"synthetic", "cifar10", "fashion-mnist", "mnist"};
    return names;
}

const std::vector<std::string>& normalization_names()
{
    static const std::vector<std::string> names{"half", "dataset", "none"};
    return names;
}

const std::vector<std::string>& clock_names()
{
    static const std::vector<std::string> names{"virtual", "wall"};
    return names;
}

const std::vector<std::string>& agent_kinds()
{
    static const std::vector<std::string> names{"fixed", "random", "none", "policy", "simulation"};
    return names;
}

bool is_device_name(std::string_view device)
{
    if (device == "cpu" || device == "cuda")
        return true;
    constexpr std::string_view prefix = "cuda:";
    if (!device.starts_with(prefix))
        return false;
    const auto index = device.substr(prefix.size());
    // Nine digits keep the index an int for torch::Device.
    return !index.empty() && index.size() <= 9 &&
           std::all_of(index.begin(), index.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; });
}

std::string to_string(Change change)
{
    return change == Change::Up ? "up" : "down";
}

std::optional<Change> change_from_string(std::string_view text)
{
    if (text == "up")
        return Change::Up;
    if (text == "down")
        return Change::Down;
    return std::nullopt;
}

std::vector<Problem> find_problems(const ExperimentConfig& c)
{
    Checker k;
    k.not_empty("name", c.name);
    check_job(k, c.job);
    check_dataset(k, c.dataset);
    check_scheduler(k, c.scheduler);
    check_trainer(k, c.trainer);
    check_agent(k, c);
    check_policy(k, c.policy);
    k.at_least("runner.total_episodes", c.runner.total_episodes, 1);
    check_sweep(k, c.sweep);
    return std::move(k.problems);
}

void validate(const ExperimentConfig& c)
{
    const auto problems = find_problems(c);
    if (!problems.empty())
        throw ConfigError(fmt::format("{}: {}", problems.front().key, problems.front().reason));
}

} // namespace rlda::core::config
