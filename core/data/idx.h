// Reader of the IDX format of MNIST and Fashion-MNIST, plain or gzip-compressed.
#pragma once

#include "core/data/dataset.h"

#include <string>

namespace rlda::core::data {

// An IDX image file (magic 2051): uint8 [N, 1, rows, cols]. Reads plain or gzip files alike.
// Throws DataError naming the file on a bad magic number, bad dimensions, a size that differs
// from what the header promises, or a gzip error (including a truncated stream).
torch::Tensor read_idx_images(const std::string& path);
// An IDX label file (magic 2049): int64 [N]; also throws when a label is above 9.
torch::Tensor read_idx_labels(const std::string& path);

// train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and
// t10k-labels-idx1-ubyte in `dir`, each plain or with ".gz" (the plain name first). 10 classes;
// the dataset is named after the folder. Throws DataError naming every missing file.
DatasetSplit load_idx(const std::string& dir, const LoadOptions& options = {});

// Where Debian's dataset-fashion-mnist package puts the files.
std::string default_fashion_mnist_dir();
// load_idx(default_fashion_mnist_dir()), named "fashion-mnist".
DatasetSplit load_fashion_mnist(const LoadOptions& options = {});

} // namespace rlda::core::data
