// What each dataset kind hands a model, known without loading a single file: a rule of the
// config (the validator checks a fixed sequence against the model at this shape), kept beside it.
#pragma once

#include "core/config/experiment.h"
#include "core/model/layer.h"

#include <cstdint>

namespace rlda::core::config {

struct SampleShape {
    model::Shape input; // of one sample: {C, H, W}
    std::int64_t classes = 0;
    bool operator==(const SampleShape&) const = default;
};

// The sample shape and class count of a configured dataset: CIFAR-10 model::kCifar10Input, MNIST and
// Fashion-MNIST 1x28x28 (10 classes each), synthetic data as configured.
SampleShape sample_shape(const DatasetConfig& c);

} // namespace rlda::core::config
