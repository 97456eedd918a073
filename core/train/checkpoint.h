// The warm-start checkpoint's file format: every tensor and counter by name, with a version, and a
// reader that still takes the positional layout files were written in before (version 1).
#pragma once

#include "core/model/layer.h"
#include "core/model/net.h"
#include "core/train/clock.h"
#include "core/train/events.h"

#include <torch/optim/optimizer.h>
#include <torch/serialize/input-archive.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace rlda::core::train {

// Layouts (torch::serialize archives):
//  1  before names: "model" and "optimizer" as LibTorch's own module and optimizer archives (the
//     optimizer's state matched to parameters by position), "meta/counters" and
//     "meta/clock_counts" as int64 vectors and "meta/history" as a 10-column matrix, the meaning of
//     each entry given only by its position. No "version" entry: that absence, with
//     "meta/counters" present, is how a version-1 file is recognised.
//  2  "version" = 2; "model/<name>" for every parameter and buffer of the Net (its
//     named_parameters/named_buffers names); "optimizer/kind" ("sgd" or "adam") and
//     "optimizer/<param name>/<field>" for each field of a parameter's state (SGD momentum_buffer;
//     Adam step, exp_avg, exp_avg_sq, max_exp_avg_sq); each counter under its own name
//     ("clock/seconds", "progress/steps", ...); "history/<column>" one vector per EpochMetrics field.
// A field added later is written under a new name and read with a default when absent, so files of
// version 2 keep loading; the version goes up only when an existing name changes meaning.
inline constexpr int kCheckpointVersion = 2;

// Everything a checkpoint holds besides the tensors of the model and the optimizer.
struct CheckpointMeta {
    std::string model_name; // the job's starting model, checked against the job that resumes
    model::Shape input;
    std::int64_t classes = 0;
    std::vector<int> deepened; // applied and not undone: the model is the base deepened by these
    std::vector<int> chosen;   // every action the agent chose so far
    ClockState clock;
    std::int64_t scheduler_reported = 0; // allocation events already reported
    int epochs_started = 0;
    int epochs_completed = 0;
    std::int64_t steps = 0;
    bool adapting = false;
    int decisions = 0;
    double lr = 0.0;
    std::vector<EpochMetrics> history; // every completed epoch so far
};

// Writes the current layout (kCheckpointVersion) atomically. `opt` must be an SGD or Adam optimizer
// over `net`'s parameters; any other is an Error.
void save_checkpoint(const std::filesystem::path& file, const CheckpointMeta& meta, model::NetImpl& net,
                     const torch::optim::Optimizer& opt);

// Opens a checkpoint of either layout. Every failure, LibTorch's included (not a zip archive,
// truncated, a missing or mistyped entry), is an Error of one line naming the file.
class CheckpointReader {
public:
    explicit CheckpointReader(const std::filesystem::path& file); // reads the meta
    int version() const { return version_; }
    const CheckpointMeta& meta() const { return meta_; }
    // `net` must have the checkpoint's architecture (the base deepened by meta().deepened).
    void load_model(model::NetImpl& net);
    // `opt` must be a fresh optimizer of the job's kind over `net`'s parameters.
    void load_optimizer(torch::optim::Optimizer& opt, model::NetImpl& net);

private:
    std::filesystem::path file_;
    torch::serialize::InputArchive archive_;
    int version_ = 0;
    CheckpointMeta meta_;
};

} // namespace rlda::core::train
