// Internal to the table builder (build.cpp and table_training.cpp, nothing else): the job both
// share and the training of a table's rows from a warm start. Not part of core's API.
#pragma once

#include "core/config/experiment.h"
#include "core/data/dataset.h"
#include "core/model/spec.h"
#include "core/sim/build.h"
#include "core/sim/table.h"

#include <filesystem>
#include <functional>
#include <stop_token>

namespace rlda::core::train {
class TrainObserver;
}

namespace rlda::core::sim::detail {

// Everything the trunk and the branches share; built once per call.
struct Job {
    const config::ExperimentConfig& c;
    data::DatasetSplit data;
    model::ModelSpec spec;
    int decisions = 0;
    int num_actions = 0;
};

// Trains from scratch up to the first allocation event, where the trainer writes `checkpoint`.
void warm_start(const Job& j, const std::filesystem::path& checkpoint, const std::stop_token& stop,
                train::TrainObserver* observer);

// Trains every sequence of part `part` of `parts` that `table` lacks, appending each row to `file`
// as one line and to `table`, counting it in `p` and reporting; ends early at a stop request.
// build_table trains part 0 of 1.
void train_missing(const Job& j, const std::filesystem::path& checkpoint, SimulationTable& table, int part,
                   int parts, const std::filesystem::path& file, BuildProgress& p,
                   const std::function<void()>& report, const std::stop_token& stop,
                   train::TrainObserver* observer, BuildOrder order);

} // namespace rlda::core::sim::detail
