// The fixed shapes of the dataset kinds the readers know (cifar10.cpp, idx.cpp check them on load).
#include "core/config/dataset_shape.h"

#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::config {

SampleShape sample_shape(const DatasetConfig& c)
{
    if (c.kind == "synthetic")
        return {c.shape, c.classes};
    if (c.kind == "cifar10")
        return {{3, 32, 32}, 10};
    if (c.kind == "fashion-mnist" || c.kind == "mnist")
        return {{1, 28, 28}, 10};
    throw Error(fmt::format("dataset.kind: unknown dataset \"{}\"", c.kind));
}

} // namespace rlda::core::config
