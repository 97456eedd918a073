// The warm-start checkpoint's file format: every tensor and counter by name, with a version, and a
// reader that still takes the positional layout files were written in before (version 1).
#pragma once

#include "core/job/clock.h"
#include "core/job/events.h"
#include "core/model/layer.h"
#include "core/net/net.h"
#include "core/util/tensor_file.h"

#include <torch/optim/optimizer.h>
#include <torch/serialize/input-archive.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::train {

// Layouts:
//  1  a LibTorch archive (torch::serialize): "model" and "optimizer" as LibTorch's own module and
//     optimizer archives (the optimizer's state matched to parameters by position),
//     "meta/counters" and "meta/clock_counts" as int64 vectors and "meta/history" as a 10-column
//     matrix, the meaning of each entry given only by its position. No "version" entry: that
//     absence, with "meta/counters" present, is how a version-1 file is recognised.
//  2  a LibTorch archive: "version" = 2; "model/<name>" for every parameter and buffer of the Net
//     (its named_parameters/named_buffers names); "optimizer/kind" ("sgd" or "adam") and
//     "optimizer/<param name>/<field>" for each field of a parameter's state (SGD momentum_buffer;
//     Adam step, exp_avg, exp_avg_sq, max_exp_avg_sq); each counter under its own name
//     ("clock/seconds", "progress/steps", ...); "history/<column>" one vector per EpochMetrics field.
//  3  the names of version 2 in a tensor file (core/util/tensor_file.h) of kind "checkpoint":
//     tensors as tensors, counters, names and Adam's step as header values. Verified before use.
// Versions 1 and 2 still load, unverified, with a warning. A field added later is written under
// a new name and read with a default when absent; the version goes up only when an existing name
// changes meaning.
inline constexpr int kCheckpointVersion = 3;
inline constexpr const char* kCheckpointKind = "checkpoint"; // the tensor file's kind
inline constexpr std::int64_t kMaxCheckpointAction = 1 << 20; // an action a checkpoint may list

// Everything a checkpoint holds besides the tensors of the model and the optimizer.
struct CheckpointMeta {
    std::string model_name; // the job's starting model, checked against the job that resumes
    model::Shape input;
    std::int64_t classes = 0;
    // Growth actions (deepenings, widenings) applied and not undone: the model is the base changed by
    // these. The file keeps them under meta/deepened, its first name, so every checkpoint written loads.
    std::vector<int> grown;
    // The operations those actions number (core/model/actions.h), comma-separated, "deepen" in
    // checkpoints from before widening.
    std::string operations = "deepen";
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
    // The last completed epoch's mean squared gradient per original block (core/train/probe.h),
    // "features/grad_sq_mean"; empty when the run did not gather them (and in older files).
    std::vector<double> grad_sq_mean;
};

// Writes the current layout (kCheckpointVersion) atomically. `opt` must be an SGD or Adam optimizer
// over `net`'s parameters; any other is an Error.
void save_checkpoint(const std::filesystem::path& file, const CheckpointMeta& meta, model::NetImpl& net,
                     const torch::optim::Optimizer& opt);

// Opens a checkpoint of any layout; `warn` hears that one of versions 1 and 2 is unverified. Every
// failure, LibTorch's included (not a zip archive, truncated, a missing or mistyped entry), is an
// Error of one line naming the file.
class CheckpointReader {
public:
    explicit CheckpointReader(const std::filesystem::path& file, const Warn& warn = {}); // reads the meta
    explicit CheckpointReader(TensorFile file); // version 3, already verified
    int version() const { return version_; }
    const CheckpointMeta& meta() const { return meta_; }
    // `net` must have the checkpoint's architecture (the base grown by meta().grown).
    void load_model(model::NetImpl& net);
    // `opt` must be a fresh optimizer of the job's kind over `net`'s parameters.
    void load_optimizer(torch::optim::Optimizer& opt, model::NetImpl& net);

private:
    std::filesystem::path file_;
    std::optional<TensorFile> tensors_; // version 3
    torch::serialize::InputArchive archive_; // versions 1 and 2
    int version_ = 0;
    CheckpointMeta meta_;
};

} // namespace rlda::core::train
