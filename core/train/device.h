// Where a job's tensors live: job.device resolved against what this LibTorch build can reach.
#pragma once

#include <torch/types.h>

#include <string>

namespace rlda::core::train {

// The device `name` ("cpu", "cuda", "cuda:N") names, checked against this machine: Error
// "job.device: ..." in one line when it asks for a GPU this build cannot reach (no CUDA in this
// LibTorch, no GPU, or N past the last one). Called before a run, a table build or a sweep starts,
// so that nothing runs on a device the job did not ask for. A CUDA device is set up, once per
// process, for full float32 and deterministic kernels (device.cpp says which).
torch::Device resolve_device(const std::string& name);

// "CUDA: 1 device(s) (LibTorch 2.11.0)" or "CUDA: not available (LibTorch 1.13.1)": what
// About boxes and logs print.
std::string cuda_description();

} // namespace rlda::core::train
