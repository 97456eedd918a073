// The std::visit helper: overloaded{[](A){}, [](B){}}.
#pragma once

namespace rlda::core {

template <class... Ts>
struct overloaded : Ts... {
    using Ts::operator()...;
};
// C++20 deduces this for an aggregate by itself; Clang before 17 (the fuzz preset's) needs it said.
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

} // namespace rlda::core
