// What a model costs in memory before it is built: float32 parameters and buffers, and the
// activations a training forward keeps for its backward pass. Estimated from the spec alone, so
// that a model or batch too large for this machine is refused (core/util/memory.h) instead of
// failing inside the allocator.
#pragma once

#include "core/model/spec.h"

#include <cstdint>
#include <string>

namespace rlda::core::model {

// Parameters and BatchNorm running statistics, 4 bytes each. Saturates instead of overflowing.
std::uint64_t parameter_bytes(const ModelSpec& spec);

// The input and every layer's output for `batch` samples, 4 bytes each: what a training forward
// keeps for backward. Saturates instead of overflowing.
std::uint64_t forward_bytes(const ModelSpec& spec, std::int64_t batch);

// Throws Error "NAME at SHAPE: a model of N parameters needs 1.1 TiB, more than this machine's
// 23.4 GiB of memory" when the parameters do not fit in physical memory.
void check_parameters_fit(const ModelSpec& spec);

// Throws Error "[CONTEXT: ]NAME at SHAPE: a forward of 16 samples needs 1.1 TiB, more than this
// machine's 23.4 GiB of memory" when the activations do not fit in physical memory.
void check_forward_fits(const ModelSpec& spec, std::int64_t batch, const std::string& context = "");

} // namespace rlda::core::model
