// Building a run from its config. Each piece is a small function so that the workbench can reuse it.
#include "core/train/setup.h"

#include "core/config/operations.h"

#include "core/agent/from_config.h"
#include "core/config/names.h"
#include "core/data/cifar10.h"
#include "core/data/idx.h"
#include "core/data/synthetic.h"
#include "core/model/footprint.h"
#include "core/model/zoo.h"
#include "core/policy/reinforce.h"
#include "core/util/checked.h"
#include "core/util/error.h"
#include "core/util/memory.h"

#include <c10/util/Exception.h>
#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <string_view>

namespace rlda::core::train {

data::DatasetSplit load_dataset(const config::DatasetConfig& c, std::uint64_t seed)
{
    if (c.kind == config::DatasetKind::Synthetic) {
        data::SyntheticOptions o;
        o.shape = c.shape;
        o.classes = c.classes;
        o.train_size = c.train_size;
        o.test_size = c.test_size;
        o.noise = c.noise;
        o.seed = seed;
        // Checked before make_synthetic allocates: float32 images and int64 labels of both sets.
        if (c.shape.size() == 3) {
            const std::int64_t samples = checked::saturating_add(c.train_size, c.test_size);
            check_fits(fmt::format("dataset.train_size = {}, test_size = {}: {} samples of {}", c.train_size,
                                   c.test_size, samples, model::shape_string(c.shape)),
                       checked::saturating_add(array_bytes({samples, c.shape[0], c.shape[1], c.shape[2]}, 4),
                                               array_bytes({samples}, 8)));
        }
        return data::make_synthetic(o);
    }
    data::LoadOptions o;
    o.normalization = c.normalization;
    o.train_subset = c.train_subset;
    o.test_subset = c.test_subset;
    o.random_subset = c.random_subset;
    o.test_unused_train = c.test_unused_train;
    o.subset_seed = seed;
    const std::string folder = !c.path.empty()                                 ? c.path
                               : c.kind == config::DatasetKind::Cifar10      ? std::string("data/cifar-10-batches-bin")
                               : c.kind == config::DatasetKind::FashionMnist ? data::default_fashion_mnist_dir()
                                                                             : std::string("data/mnist");
    // Running out of memory while the images are converted or normalised names the dataset.
    try {
        switch (c.kind) {
        case config::DatasetKind::Cifar10:
            return data::load_cifar10(folder, o);
        case config::DatasetKind::FashionMnist:
            return c.path.empty() ? data::load_fashion_mnist(o) : data::load_idx(folder, o);
        case config::DatasetKind::Mnist:
            return data::load_idx(folder, o);
        case config::DatasetKind::Synthetic:
            break;
        }
    } catch (const std::bad_alloc&) {
        throw DataError(fmt::format("{}: out of memory loading the dataset", folder));
    } catch (const c10::Error& e) {
        if (std::string_view(e.what()).find("can't allocate memory") == std::string_view::npos)
            throw;
        throw DataError(fmt::format("{}: out of memory loading the dataset", folder));
    }
    throw Error(fmt::format("dataset.kind: unknown dataset \"{}\"", config::to_string(c.kind)));
}

std::unique_ptr<agent::Agent> make_agent(const config::AgentConfig& c, TrainObserver* observer)
{
    if (c.kind != config::AgentKind::Policy)
        return agent::make_rule_agent(c);
    const auto warn = [observer](const std::string& warning) {
        if (observer)
            observer->on_message(warning);
    };
    auto learner = std::make_shared<agent::PolicyLearner>(agent::PolicyLearner::load(c.policy, warn));
    learner->set_temperature(c.temperature);
    return std::make_unique<agent::PolicyAgent>(learner, c.greedy, warn);
}

std::unique_ptr<Clock> make_clock(const config::SchedulerConfig& c)
{
    switch (c.clock) {
    case config::ClockKind::Wall:
        return std::make_unique<WallClock>();
    case config::ClockKind::Virtual:
        break;
    }
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
    model::ModelSpec spec =
        model::load_model(c.job.model, data.train.shape(), data.train.classes, c.job.head);
    // The dataset's size is known only now for a dataset.path of any size (validate.cpp checks the
    // synthetic data's before anything loads).
    if (c.job.batch_size > data.train.size())
        throw ConfigError(fmt::format("{}job.batch_size: {} is more than the {} training samples of {}",
                                      c.source.empty() ? std::string() : c.source + ": ", c.job.batch_size,
                                      data.train.size(), data.train.name));
    model::check_forward_fits(spec, c.job.batch_size, fmt::format("job.batch_size = {}", c.job.batch_size));
    config::check_model_actions(c, spec);
    return spec;
}

} // namespace rlda::core::train
