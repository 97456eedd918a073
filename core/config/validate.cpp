// Experiment configs checked: the schema's per-key declarations, then the rules across keys.
#include "core/config/validate.h"

#include "core/config/dataset_shape.h"
#include "core/config/operations.h"
#include "core/config/schema.h"
#include "core/config/value_limits.h"
#include "core/model/zoo.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>

namespace rlda::core::config {
namespace {

// Collects the cross-field problems; each check is one line in check_* below.
class Checker {
public:
    std::vector<Problem> problems;

    void add(std::string key, std::string reason, std::string related = {})
    {
        problems.push_back({std::move(key), std::move(reason), std::move(related)});
    }
    void in_budget(const std::string& key, double t, double budget)
    {
        if (!(std::isfinite(t) && t >= 0.0 && t < budget))
            add(key, fmt::format("{} is outside the budget [0, {})", t, budget));
    }
};

void check_job(Checker& k, const JobConfig& j, const DatasetConfig& d)
{
    // A batch beyond the training set could never be drawn (and its step count overflows); the
    // synthetic set's size is known here, a dataset's on disk once loaded (train/setup.cpp).
    if (d.kind == DatasetKind::Synthetic) {
        const std::int64_t samples = d.train_subset > 0 ? std::min(d.train_subset, d.train_size) : d.train_size;
        if (samples >= 1 && j.batch_size > samples)
            k.add("job.batch_size",
                  fmt::format("{} is more than the {} training samples of the synthetic dataset", j.batch_size, samples),
                  d.train_subset > 0 ? "dataset.train_subset" : "dataset.train_size");
    }
    if (j.head != model::OutputHead::Relu && model::is_model_file(j.model))
        k.add("job.head",
              fmt::format("\"{}\" applies to zoo models only; a model file writes its own last block "
                          "(leave out its ReLU for plain logits)",
                          model::to_string(j.head)),
              "job.model");
}

void check_scheduler(Checker& k, const SchedulerConfig& s)
{
    const bool budget_ok = std::isfinite(s.budget) && s.budget > 0.0;
    if (budget_ok)
        k.in_budget("scheduler.start_time", s.start_time, s.budget);
    for (std::size_t i = 0; i < s.events.size() && budget_ok; ++i)
        k.in_budget(fmt::format("scheduler.events[{}].time", i), s.events[i].time, s.budget);
    if (s.clock == ClockKind::Virtual && !(std::isfinite(s.step_cost) && s.step_cost > 0.0))
        k.add("scheduler.step_cost",
              fmt::format("must be positive for the virtual clock, got {}", s.step_cost), "scheduler.clock");
    else if (s.clock == ClockKind::Virtual && budget_ok && s.budget / s.step_cost > kMaxSteps)
        k.add("scheduler.step_cost",
              fmt::format("{} s a step reaches the budget of {} s only after {:.3g} steps, more than the {:.0e} a "
                          "run may take; use at least {:.3g}",
                          s.step_cost, s.budget, s.budget / s.step_cost, kMaxSteps, s.budget / kMaxSteps),
              "scheduler.budget");
}

void check_sweep(Checker& k, const SweepConfig& s, std::uint64_t job_seed)
{
    // One seed is no replicated table: it is built at job.seed, which must then be that seed.
    if (s.seeds.size() == 1 && static_cast<std::uint64_t>(s.seeds.front()) != job_seed)
        k.add("sweep.seeds",
              fmt::format(
                  "one seed, {}, builds an unreplicated table at job.seed, which is {}; set job.seed = {} "
                  "or give two seeds or more",
                  s.seeds.front(), job_seed, s.seeds.front()),
              "job.seed");
    if (s.seeds.size() > static_cast<std::size_t>(kMaxReplicates))
        k.add("sweep.seeds", fmt::format("{} seeds, more than the {} one table may have", s.seeds.size(), kMaxReplicates));
    for (std::size_t i = 0; i < s.seeds.size(); ++i)
        if (std::find(s.seeds.begin(), s.seeds.begin() + static_cast<std::ptrdiff_t>(i), s.seeds[i]) !=
            s.seeds.begin() + static_cast<std::ptrdiff_t>(i)) {
            k.add(fmt::format("sweep.seeds[{}]", i), fmt::format("the seed {} is listed twice", s.seeds[i]));
            break;
        }
}

void check_agent(Checker& k, const ExperimentConfig& c)
{
    const AgentConfig& a = c.agent;
    // A fixed sequence plays actions 0..n (n = Do Nothing) of the job's model: checked here, so
    // that a run fails before it trains rather than at the first allocation event. The model at
    // the dataset's sample shape; a model or dataset that does not load is reported by its own key.
    if (a.kind == AgentKind::Fixed && !a.sequence.empty()) {
        int actions = -1, blocks = 0;
        try {
            const auto sample = sample_shape(c.dataset);
            const auto space = trainer_actions(
                c.trainer, model::load_model(c.job.model, sample.input, sample.classes, c.job.head));
            actions = space.size();
            blocks = space.blocks();
        } catch (const std::exception&) {
        }
        for (std::size_t i = 0; actions >= 0 && i < a.sequence.size(); ++i)
            if (a.sequence[i] >= actions)
                k.add(fmt::format("agent.sequence[{}]", i),
                      fmt::format("action {} is out of range: {} has {} original blocks and {} actions, 0..{} "
                                  "({} = Do Nothing)",
                                  a.sequence[i], c.job.model, blocks, actions, actions - 1, actions - 1),
                      "job.model");
    }
    // Learning against a table may start from scratch; deciding in a training run cannot.
    if (a.kind == AgentKind::Policy && a.policy.empty() && c.simulation.table.empty())
        k.add("agent.policy",
              "a policy file is required for agent.kind \"policy\" (or a [simulation] table to learn from)",
              "agent.kind");
}

} // namespace

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

bool is_run_name(std::string_view name)
{
    return !name.empty() && name.size() <= kMaxRunNameBytes && name != "." && name != ".." &&
           name.find('/') == std::string_view::npos && first_control_character(name) < 0;
}

std::vector<Problem> find_problems(const ExperimentConfig& c, const Schema& schema)
{
    // The declarations' checks first, then the rules across keys, each in the order of its key.
    std::vector<Problem> problems = check_keys(c, schema);
    Checker k;
    check_job(k, c.job, c.dataset);
    check_scheduler(k, c.scheduler);
    check_agent(k, c);
    check_sweep(k, c.sweep, c.job.seed);
    problems.insert(problems.end(), k.problems.begin(), k.problems.end());
    std::stable_sort(problems.begin(), problems.end(), [&](const Problem& a, const Problem& b) {
        return schema.index_of(a.key) < schema.index_of(b.key);
    });
    return problems;
}

std::vector<Problem> find_problems(const ExperimentConfig& c)
{
    return find_problems(c, experiment_schema());
}

void validate(const ExperimentConfig& c)
{
    const auto problems = find_problems(c);
    if (!problems.empty())
        throw ConfigError(fmt::format("{}: {}", problems.front().key, problems.front().reason));
}

} // namespace rlda::core::config
