// Datasets held in memory as whole tensors: value types, normalisation, subsets and batches.
#pragma once

#include "core/config/normalization.h"
#include "core/model/layer.h"

#include <torch/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::data {


struct LoadOptions {
    Normalization normalization = Normalization::Half;
    std::int64_t train_subset = 0; // 0 = all; otherwise exactly this many training samples
    std::int64_t test_subset = 0;  // 0 = all
    bool random_subset = false;    // false: the first N samples; true: N drawn with subset_seed
    // The training samples train_subset leaves out appended to the test set (after test_subset's).
    bool test_unused_train = false;
    std::uint64_t subset_seed = 0;
};

struct Dataset {
    torch::Tensor images; // float32 [N, C, H, W], normalised
    torch::Tensor labels; // int64 [N], 0 <= label < classes
    std::int64_t classes = 0;
    std::string name;
    // Per channel, images = (pixels/255 - mean) / stddev. Empty when the data are not pixels.
    std::vector<double> mean;
    std::vector<double> stddev;

    model::Shape shape() const;             // of one sample: {C, H, W}
    std::int64_t size() const;              // N
    Dataset to(torch::Device device) const; // both tensors moved, the rest kept
};

struct DatasetSplit {
    Dataset train;
    Dataset test;
};

// Undecoded samples as a reader produces them.
struct RawImages {
    torch::Tensor pixels; // uint8 [N, C, H, W]
    torch::Tensor labels; // int64 [N]
};

// Takes subsets and normalises, as LoadOptions say; the statistics of PerDataset come from the
// training samples kept (the data the model will see). Throws DataError naming `name` when a
// subset is larger than the data or the tensors do not fit together.
DatasetSplit make_split(RawImages train, RawImages test, std::int64_t classes, const std::string& name,
                        const LoadOptions& options);

// Row indices of a subset of `count` out of `available` (sorted, so that a subset keeps the
// data's order); `stream` keeps the train and test draws apart. count == 0 means all.
torch::Tensor subset_indices(std::int64_t available, std::int64_t count, bool random, std::uint64_t seed,
                             std::uint64_t stream);

struct Batch {
    torch::Tensor images; // [B, C, H, W] on the dataset's device
    torch::Tensor labels; // [B]
};

// The samples at `idx` (any integer tensor, on any device): one index_select per tensor.
Batch take(const Dataset& data, const torch::Tensor& idx);

} // namespace rlda::core::data
