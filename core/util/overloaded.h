// The std::visit helper: overloaded{[](A){}, [](B){}}.
#pragma once

namespace rlda::core {

template <class... Ts>
struct overloaded : Ts... {
    using Ts::operator()...;
};

} // namespace rlda::core
