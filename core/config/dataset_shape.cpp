// The fixed shapes of the dataset kinds the readers know (cifar10.cpp, idx.cpp check them on load).
#include "core/config/dataset_shape.h"

#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::config {

SampleShape sample_shape(const DatasetConfig& c)
{
    switch (c.kind) {
    case DatasetKind::Synthetic:
        return {c.shape, c.classes};
    case DatasetKind::Cifar10:
        return {model::kCifar10Input, model::kCifar10Classes};
    case DatasetKind::FashionMnist:
    case DatasetKind::Mnist:
        return {{1, 28, 28}, 10};
    }
    throw Error(fmt::format("dataset.kind: unknown dataset {}", static_cast<int>(c.kind)));
}

} // namespace rlda::core::config
