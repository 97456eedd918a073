// The one difference between LibTorch 1.13 and 2.x that this code meets: how an optimizer keys its
// per-parameter state. 1.13 keys it by the parameter's TensorImpl address printed as text ("0x55..."),
// 2.x by the address itself. Both are derived from the map's own key type, so no version test is needed.
#pragma once

#include <torch/optim/optimizer.h>

#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace rlda::core::train {

using OptimizerStateKey =
    typename std::remove_cvref_t<decltype(std::declval<torch::optim::Optimizer&>().state())>::key_type;

// The key under which `opt.state()` holds parameter `p`'s state (momentum buffer, Adam averages).
template <class Key = OptimizerStateKey>
Key optimizer_state_key(const torch::Tensor& p)
{
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text; // as LibTorch 1.13's optimizers print it (c10::guts::to_string)
        text << static_cast<const void*>(p.unsafeGetTensorImpl());
        return text.str();
    } else {
        return static_cast<Key>(p.unsafeGetTensorImpl());
    }
}

} // namespace rlda::core::train
