// Checked arithmetic for counts and sizes that come from files and the command line: a product or
// sum that does not fit its type is reported instead of wrapping (signed overflow is undefined, and
// a wrapped count is printed as a negative number or sizes an allocation wrongly).
#pragma once

#include <concepts>
#include <initializer_list>
#include <limits>
#include <optional>

namespace rlda::core::checked {

// a * b, or nothing when it does not fit in T.
template <std::integral T> constexpr std::optional<T> mul(T a, T b)
{
    T out{};
    if (__builtin_mul_overflow(a, b, &out))
        return std::nullopt;
    return out;
}

// a + b, or nothing when it does not fit in T.
template <std::integral T> constexpr std::optional<T> add(T a, T b)
{
    T out{};
    if (__builtin_add_overflow(a, b, &out))
        return std::nullopt;
    return out;
}

// The product of all factors (1 for none), or nothing when it does not fit in T.
template <std::integral T> constexpr std::optional<T> product(std::initializer_list<T> factors)
{
    T out = 1;
    for (const T f : factors)
        if (__builtin_mul_overflow(out, f, &out))
            return std::nullopt;
    return out;
}

// For byte estimates, where "more than T can hold" is as good an answer as the exact figure: the
// result saturates at T's maximum instead. Arguments are not negative.
template <std::integral T> constexpr T saturating_mul(T a, T b)
{
    return mul(a, b).value_or(std::numeric_limits<T>::max());
}
template <std::integral T> constexpr T saturating_add(T a, T b)
{
    return add(a, b).value_or(std::numeric_limits<T>::max());
}

} // namespace rlda::core::checked
