// Reader of CIFAR-10's binary version (data_batch_1..5.bin, test_batch.bin).
#pragma once

#include "core/data/dataset.h"

#include <string>

namespace rlda::core::data {

// One batch file: records of 1 label byte and an image (model::kCifar10Input) stored channel by channel.
// Any whole number of records is accepted; throws DataError naming the file when it is
// missing, empty, not a whole number of records, or holds a label above 9.
RawImages read_cifar10_batch(const std::string& path);

// Training set = data_batch_1..5 in order, test set = test_batch. `dir` is the extracted
// cifar-10-batches-bin folder or the folder that holds it. Throws DataError naming every
// missing file and where to get them.
DatasetSplit load_cifar10(const std::string& dir, const LoadOptions& options = {});

} // namespace rlda::core::data
