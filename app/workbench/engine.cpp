// The installed engine, and the one that stands in when none is: every call refused, saying so.
#include "app/workbench/engine.h"

#include "core/util/error.h"

#include <utility>

namespace rlda::app {
namespace {

class NoEngine final : public Engine {
public:
    core::train::RunResult runExperiment(const core::config::ExperimentConfig&, const std::filesystem::path&,
                                         core::train::TrainObserver*, const std::stop_token&) const override
    {
        refuse();
    }
    core::run::LearnRunResult runLearning(const core::run::LearnRunSettings&, const std::filesystem::path&,
                                          core::run::LearnRunObserver*, const std::stop_token&) const override
    {
        refuse();
    }
    core::run::Comparison runComparison(const core::config::ExperimentConfig&, const std::filesystem::path&,
                                        core::train::TrainObserver*, const std::stop_token&) const override
    {
        refuse();
    }
    core::run::SeedComparisons runSeedComparisons(const core::config::ExperimentConfig&,
                                                  const std::filesystem::path&,
                                                  const std::vector<std::uint64_t>&,
                                                  core::train::TrainObserver*,
                                                  const std::stop_token&) const override
    {
        refuse();
    }
    std::vector<core::sim::Evaluation>
    evaluatePolicy(const std::filesystem::path&, const std::vector<const core::sim::OpenedTable*>&,
                   const std::function<void(const std::string&)>&) const override
    {
        refuse();
    }
    void checkDevice(const std::string&) const override { refuse(); }
    int cudaDeviceCount() const override { return 0; }
    std::string libtorchVersion() const override { return "not linked"; }

private:
    [[noreturn]] static void refuse()
    {
        throw core::Error(
            "this program was linked without the engine (app/workbench/torch_engine.h): it cannot "
            "train, learn or load a policy");
    }
};

std::unique_ptr<const Engine>& installed()
{
    static std::unique_ptr<const Engine> engine = std::make_unique<NoEngine>();
    return engine;
}

} // namespace

void installEngine(std::unique_ptr<const Engine> engine)
{
    installed() = std::move(engine);
}

const Engine& engine()
{
    return *installed();
}

} // namespace rlda::app
