// LibTorch tensors in and out of a tensor file (core/util/tensor_file.h, which reads and checks the
// file as bytes): the one bridge between the two.
#pragma once

#include "core/util/tensor_file.h"

#include <torch/types.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

namespace rlda::core {

// kFloat32, kFloat64 and kInt64 and their TensorDtype; Error naming the type for any other.
TensorDtype tensor_dtype(torch::ScalarType type);
torch::ScalarType scalar_type(TensorDtype dtype);

// `tensor` (float32, float64 or int64, on any device) added to `file` as its contiguous CPU copy.
// Error naming the tensor for another type, and as TensorFileWriter::add.
void add_tensor(TensorFileWriter& file, const std::string& name, const torch::Tensor& tensor);

// The tensor `name` of `file`, a fresh CPU tensor, once TensorFile::checked has checked its dtype,
// shape (-1: any extent) and, with `finite`, its values.
torch::Tensor read_tensor(const TensorFile& file, std::string_view name, torch::ScalarType dtype,
                          std::span<const std::int64_t> shape, bool finite = true);
inline torch::Tensor read_tensor(const TensorFile& file, std::string_view name, torch::ScalarType dtype,
                                 std::initializer_list<std::int64_t> shape, bool finite = true)
{
    return read_tensor(file, name, dtype, std::span<const std::int64_t>(shape.begin(), shape.size()), finite);
}

// Whether a tensor's storage holds every element its sizes and strides address. LibTorch's own
// archives (rlda's format before tensor files) do not check it: a tensor read from a damaged one
// can point past its storage.
bool storage_covers(const torch::Tensor& t);

} // namespace rlda::core
