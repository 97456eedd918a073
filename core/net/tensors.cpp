// LibTorch tensors to and from tensor-file entries.
#include "core/net/tensors.h"

#include "core/util/checked.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <cstring>
#include <optional>

namespace rlda::core {

TensorDtype tensor_dtype(torch::ScalarType type)
{
    switch (type) {
    case torch::kFloat32:
        return TensorDtype::Float32;
    case torch::kFloat64:
        return TensorDtype::Float64;
    case torch::kInt64:
        return TensorDtype::Int64;
    default:
        break;
    }
    throw Error(
        fmt::format("a {} tensor cannot be saved (float32, float64 or int64 only)", c10::toString(type)));
}

torch::ScalarType scalar_type(TensorDtype dtype)
{
    switch (dtype) {
    case TensorDtype::Float32:
        return torch::kFloat32;
    case TensorDtype::Float64:
        return torch::kFloat64;
    case TensorDtype::Int64:
        break;
    }
    return torch::kInt64;
}

void add_tensor(TensorFileWriter& file, const std::string& name, const torch::Tensor& tensor)
{
    TensorDtype dtype{};
    try {
        dtype = tensor_dtype(tensor.scalar_type());
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}", name, e.what()));
    }
    const torch::Tensor cpu = tensor.detach().to(torch::kCPU).contiguous();
    // An empty tensor has no data pointer.
    const std::string_view data =
        cpu.nbytes() > 0 ? std::string_view(static_cast<const char*>(cpu.data_ptr()), cpu.nbytes())
                         : std::string_view();
    file.add(name, dtype, cpu.sizes().vec(), data);
}

torch::Tensor read_tensor(const TensorFile& file, std::string_view name, torch::ScalarType dtype,
                          std::span<const std::int64_t> shape, bool finite)
{
    const TensorEntry& e = file.checked(name, tensor_dtype(dtype), shape, finite);
    auto t = torch::empty(e.shape, torch::TensorOptions().dtype(dtype));
    if (e.bytes > 0) // an empty tensor has no data pointer to copy to
        std::memcpy(t.data_ptr(), file.data(e).data(), e.bytes);
    return t;
}

bool storage_covers(const torch::Tensor& t)
{
    if (!t.defined())
        return false;
    if (t.numel() == 0)
        return true;
    if (!t.has_storage())
        return false;
    std::optional<std::int64_t> last = t.storage_offset(); // the last element's index in the storage
    for (std::int64_t d = 0; d < t.dim() && last; ++d) {
        if (t.stride(d) < 0)
            return false;
        const auto step = checked::mul(t.size(d) - 1, t.stride(d));
        last = step ? checked::add(*last, *step) : std::nullopt;
    }
    const auto bytes = last && *last >= 0
                           ? checked::mul(*last + 1, static_cast<std::int64_t>(t.element_size()))
                           : std::nullopt;
    return bytes && static_cast<std::size_t>(*bytes) <= t.storage().nbytes();
}

} // namespace rlda::core
