// Shapes of LibTorch's LSTM and Linear parameters, with overflow checked.
#include "core/agent/tensor_shapes.h"

#include "core/util/checked.h"
#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::agent {

std::int64_t size_product(std::int64_t a, std::int64_t b)
{
    const auto r = checked::mul(a, b);
    if (a < 0 || b < 0 || !r)
        throw Error(fmt::format("policy: sizes {} x {} overflow", a, b));
    return *r;
}

std::int64_t size_sum(std::int64_t a, std::int64_t b)
{
    const auto r = checked::add(a, b);
    if (a < 0 || b < 0 || !r)
        throw Error(fmt::format("policy: sizes {} + {} overflow", a, b));
    return *r;
}

void add_lstm_shapes(TensorShapes& out, const std::string& name, std::int64_t in, std::int64_t hidden,
                     bool bidirectional)
{
    const std::int64_t gates = size_product(4, hidden);
    for (const std::string suffix : {"", "_reverse"}) {
        if (!bidirectional && !suffix.empty())
            break;
        out.push_back({name + ".weight_ih_l0" + suffix, {gates, in}});
        out.push_back({name + ".weight_hh_l0" + suffix, {gates, hidden}});
        out.push_back({name + ".bias_ih_l0" + suffix, {gates}});
        out.push_back({name + ".bias_hh_l0" + suffix, {gates}});
    }
}

void add_linear_shapes(TensorShapes& out, const std::string& name, std::int64_t in, std::int64_t features)
{
    out.push_back({name + ".weight", {features, in}});
    out.push_back({name + ".bias", {features}});
}

} // namespace rlda::core::agent
