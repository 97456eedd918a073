// Building a run from its config. Each piece is a small function so that the workbench can reuse it.
#include "core/train/experiment.h"

#include "core/agent/reinforce.h"
#include "core/config/experiment_io.h"
#include "core/data/cifar10.h"
#include "core/data/idx.h"
#include "core/data/synthetic.h"
#include "core/io/run_folder.h"
#include "core/model/zoo.h"
#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::train {

data::DatasetSplit load_dataset(const config::DatasetConfig& c, std::uint64_t seed)
{
    if (c.kind == "synthetic") {
        data::SyntheticOptions o;
        o.shape = c.shape;
        o.classes = c.classes;
        o.train_size = c.train_size;
        o.test_size = c.test_size;
        o.noise = c.noise;
        o.seed = seed;
        return data::make_synthetic(o);
    }
    data::LoadOptions o;
    const auto normalization = data::parse_normalization(c.normalization);
    if (!normalization)
        throw Error(fmt::format("dataset.normalization: unknown \"{}\"", c.normalization));
    o.normalization = *normalization;
    o.train_subset = c.train_subset;
    o.test_subset = c.test_subset;
    o.random_subset = c.random_subset;
    o.subset_seed = seed;
    if (c.kind == "cifar10")
        return data::load_cifar10(c.path.empty() ? std::string("data/cifar-10-batches-bin") : c.path, o);
    if (c.kind == "fashion-mnist")
        return c.path.empty() ? data::load_fashion_mnist(o) : data::load_idx(c.path, o);
    if (c.kind == "mnist")
        return data::load_idx(c.path.empty() ? std::string("data/mnist") : c.path, o);
    throw Error(fmt::format("dataset.kind: unknown dataset \"{}\"", c.kind));
}

std::unique_ptr<agent::Agent> make_agent(const config::AgentConfig& c, TrainObserver* observer)
{
    if (c.kind == "fixed")
        return std::make_unique<agent::FixedSequenceAgent>(c.sequence);
    if (c.kind == "random")
        return std::make_unique<agent::RandomAgent>(c.seed);
    if (c.kind == "none")
        return std::make_unique<agent::NoAdaptationAgent>();
    if (c.kind == "policy") {
        auto learner = std::make_shared<agent::PolicyLearner>(agent::PolicyLearner::load(c.policy));
        learner->set_temperature(c.temperature);
        return std::make_unique<agent::PolicyAgent>(learner, c.greedy, [observer](const std::string& warning) {
            if (observer)
                observer->on_message(warning);
        });
    }
    throw Error(fmt::format("agent.kind: \"{}\" does not train jobs: it builds simulation tables (rlda simulate)",
                            c.kind));
}

std::unique_ptr<Clock> make_clock(const config::SchedulerConfig& c)
{
    if (c.clock == "wall")
        return std::make_unique<WallClock>();
    return std::make_unique<VirtualClock>(c.step_cost, c.eval_cost);
}

std::vector<AllocationEvent> allocation_events(const config::SchedulerConfig& c)
{
    std::vector<AllocationEvent> out;
    for (const auto& e : c.events)
        out.push_back({e.time, e.change == config::Change::Up ? Allocation::Up : Allocation::Down});
    return out;
}

model::ModelSpec job_model(const config::ExperimentConfig& c, const data::DatasetSplit& data)
{
    return model::load_model(c.job.model, data.train.shape(), data.train.classes, c.job.head);
}

RunResult run_experiment(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                         TrainObserver* observer, std::stop_token stop)
{
    const data::DatasetSplit data = load_dataset(c.dataset, c.job.seed);
    const model::ModelSpec spec = job_model(c, data);
    auto clock = make_clock(c.scheduler);
    Scheduler scheduler(c.scheduler.budget, allocation_events(c.scheduler), c.scheduler.start_time, *clock);
    ObserverList observers;
    auto agent = make_agent(c.agent, &observers);

    io::RunFolder folder(out, force); // only now: bad input never leaves an empty folder behind
    folder.write_text("config.toml", config::to_toml(c));
    observers.add(&folder);
    observers.add(observer);
    for (const auto& w : c.warnings)
        observers.on_message(w);

    TrainerSettings settings{c.job, c.trainer};
    if (c.trainer.warm_start_checkpoint)
        settings.warm_start_checkpoint = folder.file("warm_start.pt");
    Trainer trainer(settings, spec, data, scheduler, *clock, *agent, &observers);
    const std::int64_t samples = data.train.size();
    observers.on_start({folder.path().string(), model::summarize(spec), c.scheduler.budget, c.scheduler.start_time,
                        samples, (samples + c.job.batch_size - 1) / c.job.batch_size});
    const RunResult result = trainer.run(stop);
    trainer.save_model(folder.file("model.pt"));
    folder.write_text("architecture.json", io::summary_json(model::summarize(trainer.model_spec())) + "\n");
    return result;
}

config::ExperimentConfig without_adaptation(const config::ExperimentConfig& c)
{
    config::ExperimentConfig none = c;
    none.name = c.name + "-none";
    none.agent.kind = "none";
    return none;
}

std::filesystem::path baseline_folder(const std::filesystem::path& out)
{
    // "runs/x/" names the folder x too: the sibling is runs/x-none, not runs/x/-none.
    std::filesystem::path dir = out;
    while (dir.has_parent_path() && !dir.has_filename())
        dir = dir.parent_path();
    dir += "-none";
    return dir;
}

Comparison run_comparison(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                          TrainObserver* observer, std::stop_token stop)
{
    Comparison r;
    r.adapted_dir = out;
    r.baseline_dir = baseline_folder(out);
    // Refused before the first run rather than after minutes of training.
    std::error_code ec;
    if (!force && std::filesystem::exists(r.baseline_dir, ec) && !std::filesystem::is_empty(r.baseline_dir, ec))
        throw Error(fmt::format("{}: the run folder of the run without adaptation exists and is not empty; "
                                "choose another --out or pass --force to overwrite it",
                                r.baseline_dir.string()));
    const config::ExperimentConfig none = without_adaptation(c);
    r.adapted = run_experiment(c, r.adapted_dir, force, observer, stop);
    if (r.adapted.cancelled || stop.stop_requested())
        return r;
    r.baseline = run_experiment(none, r.baseline_dir, force, observer, stop);
    r.baseline_ran = true;
    return r;
}

} // namespace rlda::core::train
