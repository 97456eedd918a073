// A run from its config into a run folder: the trainer's pieces (core/train/setup.h), the trainer,
// and io::RunFolder as one of its observers.
#include "core/run/experiment_run.h"

#include "core/config/experiment_io.h"
#include "core/config/schema.h"
#include "core/io/run_folder.h"
#include "core/job/scheduler.h"
#include "core/train/device.h"
#include "core/train/setup.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "core/util/output_folder.h"

#include <fmt/format.h>

namespace rlda::core::run {

using namespace train;

RunResult run_experiment(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                         TrainObserver* observer, const std::stop_token& stop)
{
    check_device(c.job.device); // a GPU that is not there is refused before anything loads
    const data::DatasetSplit data = load_dataset(c.dataset, c.job.seed);
    const model::ModelSpec spec = job_model(c, data);
    auto clock = make_clock(c.scheduler);
    Scheduler scheduler(c.scheduler.budget, allocation_events(c.scheduler), c.scheduler.start_time, *clock);
    ObserverList observers;
    auto agent = make_agent(c.agent, &observers);

    // Only now: bad input never leaves an empty folder behind. --force never replaces a folder
    // that holds the config, the model, the dataset or the policy the run reads.
    const auto inputs = config::input_paths(c);
    io::RunFolder folder(out, force, InputPaths(inputs.begin(), inputs.end()));
    folder.write_text("config.toml", config::to_toml_at(c, folder.file("config.toml")));
    observers.add(&folder);
    observers.add(observer);
    for (const auto& w : c.warnings)
        observers.on_message(w);

    TrainerSettings settings;
    settings.job = c.job;
    settings.trainer = c.trainer;
    if (c.trainer.warm_start_checkpoint)
        settings.warm_start_checkpoint = folder.file("warm_start.pt");
    Trainer trainer(settings, spec, data, scheduler, *clock, *agent, &observers);
    const std::int64_t samples = data.train.size();
    observers.on_start({folder.path().string(), model::summarize(spec), c.scheduler.budget, c.scheduler.start_time,
                        samples, (samples + c.job.batch_size - 1) / c.job.batch_size});
    RunResult result = trainer.run(stop);
    trainer.save_model(folder.file("model.pt"));
    folder.write_text("architecture.json", io::summary_json(model::summarize(trainer.model_spec())) + "\n");
    return result;
}

config::ExperimentConfig without_adaptation(const config::ExperimentConfig& c)
{
    config::ExperimentConfig none = c;
    none.name = c.name + "-none";
    none.agent.kind = config::AgentKind::None;
    return none;
}

Comparison run_comparison(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                          TrainObserver* observer, const std::stop_token& stop)
{
    Comparison r;
    r.adapted_dir = out;
    r.baseline_dir = baseline_folder(out);
    // Refused before the first run rather than after minutes of training.
    const auto read = config::input_paths(c);
    const InputPaths inputs(read.begin(), read.end());
    check_output_folder(r.adapted_dir, force, inputs);
    check_output_folder(r.baseline_dir, force, inputs);
    const config::ExperimentConfig none = without_adaptation(c);
    r.adapted = run_experiment(c, r.adapted_dir, force, observer, stop);
    if (r.adapted.cancelled || stop.stop_requested())
        return r;
    r.baseline = run_experiment(none, r.baseline_dir, force, observer, stop);
    r.baseline_ran = true;
    return r;
}

SeedComparisons run_seed_comparisons(const config::ExperimentConfig& c, const std::filesystem::path& out,
                                     const std::vector<std::uint64_t>& seeds, bool force,
                                     TrainObserver* observer, const std::stop_token& stop)
{
    check_seed_comparisons(c, out, seeds, force);
    SeedComparisons r;
    r.seeds = seeds;
    for (const auto seed : seeds) {
        config::ExperimentConfig at = c;
        at.job.seed = seed;
        Comparison pair = run_comparison(at, seed_folder(out, seed), force, observer, stop);
        if (!pair.baseline_ran || pair.baseline.cancelled || stop.stop_requested()) {
            r.cancelled = true;
            break;
        }
        r.runs.push_back(std::move(pair));
    }
    return r;
}

} // namespace rlda::core::run
