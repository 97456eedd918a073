// Where a job's tensors live: job.device checked against what this LibTorch build can reach. No
// LibTorch type here, so that the workbench's pages and the About box ask without its headers; the
// code that places tensors takes the torch::Device from core/train/torch_device.h.
#pragma once

#include <string>

namespace rlda::core::train {

// Error "job.device: ..." in one line unless `name` ("cpu", "cuda", "cuda:N") names a device this
// machine has: a GPU this build cannot reach (no CUDA in this LibTorch, no GPU, or N past the last
// one) is refused. Called before a run, a table build or a sweep starts, so that nothing runs on a
// device the job did not ask for. A CUDA device is set up, once per process, for full float32 and
// deterministic kernels (device.cpp says which).
void check_device(const std::string& name);

// The GPUs LibTorch can use here; 0 without CUDA.
int cuda_device_count();
// The LibTorch this program was built with: "1.13.1".
std::string libtorch_version();
// "CUDA: 1 device(s) (LibTorch 2.11.0)" or "CUDA: not available (LibTorch 1.13.1)": what
// logs and skipped checks print.
std::string cuda_description();

} // namespace rlda::core::train
