// A seeded, learnable synthetic image dataset for tests and quick experiments without downloads.
#pragma once

#include "core/data/dataset.h"

#include <cstdint>

namespace rlda::core::data {

// Each class has a fixed random prototype: a coarse grid (up to 4x4 cells per channel) of
// normal values, so classes differ both in colour and in layout and a convnet that pools
// globally can still tell them apart. A sample is its class prototype plus pixel noise,
// scaled to about unit variance. Classes are balanced and shuffled.
struct SyntheticOptions {
    model::Shape shape = model::kCifar10Input; // {C, H, W}
    std::int64_t classes = model::kCifar10Classes;
    std::int64_t train_size = 2000;
    std::int64_t test_size = 500;
    std::uint64_t seed = 0;
    double noise = 1.0; // standard deviation of the pixel noise, prototypes having 1
};

// Bit for bit the same for the same options. The prototypes depend only on (seed, shape,
// classes), and the test set does not depend on train_size. Throws DataError on bad options.
DatasetSplit make_synthetic(const SyntheticOptions& options = {});

} // namespace rlda::core::data
