// Each call is the core entry point of its name, with `force` off: the workbench never replaces a
// folder (its run folders are new), and a policy is judged at seed 0, as `rlda evaluate` does.
#include "app/workbench/torch_engine.h"

#include "core/run/evaluate_policy.h"
#include "core/run/experiment_run.h"
#include "core/run/learn_run.h"
#include "core/train/device.h"

namespace rlda::app {
namespace {

class TorchEngine final : public Engine {
public:
    core::train::RunResult runExperiment(const core::config::ExperimentConfig& config,
                                         const std::filesystem::path& out,
                                         core::train::TrainObserver* observer,
                                         const std::stop_token& stop) const override
    {
        return core::run::run_experiment(config, out, false, observer, stop);
    }
    core::run::LearnRunResult runLearning(const core::run::LearnRunSettings& settings,
                                          const std::filesystem::path& out,
                                          core::run::LearnRunObserver* observer,
                                          const std::stop_token& stop) const override
    {
        return core::run::run_learning(settings, out, false, observer, stop);
    }
    core::run::Comparison runComparison(const core::config::ExperimentConfig& config,
                                        const std::filesystem::path& out,
                                        core::train::TrainObserver* observer,
                                        const std::stop_token& stop) const override
    {
        return core::run::run_comparison(config, out, false, observer, stop);
    }
    core::run::SeedComparisons runSeedComparisons(const core::config::ExperimentConfig& config,
                                                  const std::filesystem::path& out,
                                                  const std::vector<std::uint64_t>& seeds,
                                                  core::train::TrainObserver* observer,
                                                  const std::stop_token& stop) const override
    {
        return core::run::run_seed_comparisons(config, out, seeds, false, observer, stop);
    }
    std::vector<core::sim::Evaluation>
    evaluatePolicy(const std::filesystem::path& policy,
                   const std::vector<const core::sim::OpenedTable*>& tables,
                   const std::function<void(const std::string&)>& warn) const override
    {
        return core::run::evaluate_policy(policy, tables, 0, warn);
    }
    void checkDevice(const std::string& device) const override { core::train::check_device(device); }
    int cudaDeviceCount() const override { return core::train::cuda_device_count(); }
    std::string libtorchVersion() const override { return core::train::libtorch_version(); }
};

} // namespace

std::unique_ptr<const Engine> makeTorchEngine()
{
    return std::make_unique<TorchEngine>();
}

} // namespace rlda::app
