// job.device against this machine's LibTorch and GPUs.
#include "core/train/device.h"
#include "core/train/torch_device.h"

#include "core/util/error.h"

#include <ATen/Context.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include <fmt/format.h>

#include <cstdlib>
#include <mutex>

namespace rlda::core::train {
namespace {

// Once per process, before the first CUDA kernel: full float32 (no TF32, which rounds a
// convolution's inputs to 10 bits and would break Net2Net's 1e-5 preservation) and deterministic
// algorithms (cuDNN's deterministic convolutions, cuBLAS with a fixed workspace; an operation with
// no deterministic kernel warns instead of failing), so that a GPU repeats its own rows bit for bit.
void use_repeatable_cuda()
{
    static std::once_flag once;
    std::call_once(once, [] {
        ::setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", /*overwrite=*/0);
        auto& context = at::globalContext();
        context.setAllowTF32CuDNN(false);
        context.setAllowTF32CuBLAS(false);
        context.setBenchmarkCuDNN(false);
        context.setDeterministicCuDNN(true);
        context.setDeterministicAlgorithms(true, /*warn_only=*/true);
    });
}

} // namespace

int cuda_device_count()
{
    return torch::cuda::is_available() ? static_cast<int>(torch::cuda::device_count()) : 0;
}

std::string libtorch_version()
{
    return TORCH_VERSION;
}

std::string cuda_description()
{
    if (!torch::cuda::is_available())
        return fmt::format("CUDA: not available (LibTorch {})", TORCH_VERSION);
    return fmt::format("CUDA: {} device(s) (LibTorch {})", torch::cuda::device_count(), TORCH_VERSION);
}

void check_device(const std::string& name)
{
    (void)resolve_device(name);
}

torch::Device resolve_device(const std::string& name)
{
    if (name == "cpu")
        return torch::kCPU;
    if (!name.starts_with("cuda"))
        throw Error(fmt::format(R"(job.device: unknown device "{}" (allowed: "cpu", "cuda", "cuda:N"))", name));
    if (!torch::cuda::is_available())
        throw Error(fmt::format("job.device: \"{}\" needs a CUDA GPU, and this machine has none that LibTorch {} "
                                "can use; set job.device = \"cpu\"",
                                name, TORCH_VERSION));
    torch::Device device{torch::kCPU};
    try {
        device = torch::Device(name);
    } catch (const c10::Error&) {
        throw Error(fmt::format(R"(job.device: unknown device "{}" (allowed: "cpu", "cuda", "cuda:N"))", name));
    }
    const auto count = static_cast<std::int64_t>(torch::cuda::device_count());
    if (device.has_index() && device.index() >= count)
        throw Error(fmt::format("job.device: \"{}\" asks for GPU {}, and this machine has {} (cuda:0 to cuda:{})",
                                name, device.index(), count, count - 1));
    use_repeatable_cuda();
    return device;
}

} // namespace rlda::core::train
