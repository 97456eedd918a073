// The workbench's one door to the LibTorch engine: every call that trains, learns, loads a policy or
// asks LibTorch about devices goes through the Engine installed at start. rlda_workbench itself links
// only the libraries without LibTorch (rlda_core), so that its suites which train nothing link no
// LibTorch; the programs (and the suites that train) install the engine of rlda_workbench_engine
// (app/workbench/torch_engine.h) before they build a window. No LibTorch type here.
#pragma once

#include "core/config/experiment.h"
#include "core/io/comparison.h"
#include "core/run/learn_run.h"
#include "core/table/open_table.h"
#include "core/table/results.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace rlda::app {

// What the workbench asks of the engine, each the core entry point of the same name (core/run/,
// core/train/device.h). The runs are called on the worker's thread and evaluatePolicy in a job,
// never on the GUI thread; the three device questions answer at once and may be asked anywhere.
class Engine {
public:
    virtual ~Engine() = default;

    virtual core::train::RunResult runExperiment(const core::config::ExperimentConfig& config,
                                                 const std::filesystem::path& out,
                                                 core::train::TrainObserver* observer,
                                                 const std::stop_token& stop) const = 0;
    virtual core::run::LearnRunResult runLearning(const core::run::LearnRunSettings& settings,
                                                  const std::filesystem::path& out,
                                                  core::run::LearnRunObserver* observer,
                                                  const std::stop_token& stop) const = 0;
    virtual core::run::Comparison runComparison(const core::config::ExperimentConfig& config,
                                                const std::filesystem::path& out,
                                                core::train::TrainObserver* observer,
                                                const std::stop_token& stop) const = 0;
    virtual core::run::SeedComparisons runSeedComparisons(const core::config::ExperimentConfig& config,
                                                          const std::filesystem::path& out,
                                                          const std::vector<std::uint64_t>& seeds,
                                                          core::train::TrainObserver* observer,
                                                          const std::stop_token& stop) const = 0;
    virtual std::vector<core::sim::Evaluation>
    evaluatePolicy(const std::filesystem::path& policy,
                   const std::vector<const core::sim::OpenedTable*>& tables,
                   const std::function<void(const std::string&)>& warn) const = 0;
    // core::train::check_device: throws Error "job.device: ..." unless this machine has `device`.
    virtual void checkDevice(const std::string& device) const = 0;
    virtual int cudaDeviceCount() const = 0;
    virtual std::string libtorchVersion() const = 0;
};

// Makes `engine` the one every later engine() call returns; call before the first window, on the
// GUI thread, once per process (a second call replaces it, for tests).
void installEngine(std::unique_ptr<const Engine> engine);
// The installed engine. Without one (a build or suite that linked none), every call throws
// core::Error saying so, and the About box says "not linked": nothing trains by accident.
const Engine& engine();

} // namespace rlda::app
