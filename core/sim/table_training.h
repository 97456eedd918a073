// Internal to the table builder (build.cpp and table_training.cpp, nothing else): the job both
// share and the training of a table's rows from a warm start. Not part of core's API.
#pragma once

#include "core/config/experiment.h"
#include "core/data/dataset.h"
#include "core/model/spec.h"
#include "core/sim/build.h"
#include "core/table/table.h"
#include "core/table/table_features.h"
#include "core/util/line_appender.h"

#include <chrono>

#include <filesystem>
#include <functional>
#include <stop_token>
#include <vector>

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

// Appends finished rows to a table file and the table, counting them in `p` and reporting each.
class RowSink {
public:
    RowSink(const Job& j, const std::filesystem::path& file, SimulationTable& table, BuildProgress& p,
            const std::function<void()>& report);
    void add(TableRow row);

private:
    LineAppender appender_;
    SimulationTable& table_;
    BuildProgress& p_;
    const std::function<void()>& report_;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// Appends the decision features of one seed's nodes to a features file (table_features.h), each
// node once: a node `known` holds, or one added before, is not written again. A torn last line
// (a killed build's) is dropped before the first append, so that the file goes on whole.
class FeatureSink {
public:
    FeatureSink(const std::filesystem::path& file, TableFeatures known, std::uint64_t seed);
    bool has(const std::vector<int>& prefix) const { return known_.at(prefix, seed_) != nullptr; }
    void add(const std::vector<int>& prefix, const agent::DecisionFeatures& features);

private:
    LineAppender appender_;
    TableFeatures known_;
    std::uint64_t seed_;
};

// Trains from scratch up to the first allocation event, where the trainer writes `checkpoint`.
void warm_start(const Job& j, const std::filesystem::path& checkpoint, const std::stop_token& stop,
                train::TrainObserver* observer);

// Trains every sequence of part `part` of `parts` that `table` lacks, appending each row to `file`
// as one line and to `table`, counting it in `p` and reporting; ends early at a stop request.
// build_table trains part 0 of 1. With `features`, the decision features of every node the part
// trains through that the sink lacks are recorded there (Trainer::decision_features under the job's
// seed; per sequence, those its agent is given), once each.
// With `only` (indexed by sequence code), the sequences it marks and no other (a race's round).
void train_missing(const Job& j, const std::filesystem::path& checkpoint, SimulationTable& table, int part,
                   int parts, const std::filesystem::path& file, BuildProgress& p,
                   const std::function<void()>& report, const std::stop_token& stop,
                   train::TrainObserver* observer, BuildOrder order, FeatureSink* features = nullptr,
                   const std::vector<char>* only = nullptr);

// One seed of a replicated table trained fused (fused_table_training.cpp): its job, its warm start,
// the file its rows are appended to, and the rows it holds.
struct FusedSeed {
    const Job* job = nullptr;
    std::filesystem::path checkpoint;
    std::filesystem::path file;
    SimulationTable* table = nullptr;
};

// train_missing for R >= 2 seeds of one replicated table at once: every sequence of the part that
// any seed lacks is trained for all R seeds as one fused model (core/net/fused.h), depth first as
// TreeBuilder does, and its row appended to each seed that lacks it. Only for settings that build as
// a tree (tree_buildable). Rows agree with R separate builds to float rounding, not bit for bit.
// Progress counts the rows of every seed in `p`.
void train_missing_fused(const std::vector<FusedSeed>& seeds, int part, int parts, BuildProgress& p,
                         const std::function<void()>& report, const std::stop_token& stop);

} // namespace rlda::core::sim::detail
