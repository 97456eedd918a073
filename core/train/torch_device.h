// job.device as the torch::Device a job's tensors are placed on (core/train/device.h checks it
// without LibTorch).
#pragma once

#include <torch/types.h>

#include <string>

namespace rlda::core::train {

// check_device(name), then the device it names.
torch::Device resolve_device(const std::string& name);

} // namespace rlda::core::train
