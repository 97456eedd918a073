// Layer specifications: plain values describing one PyTorch layer, printable as PyTorch prints it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rlda::core::model {

struct Conv2d {
    std::int64_t in_channels = 0;
    std::int64_t out_channels = 0;
    std::int64_t kernel_size = 3; // square kernels only
    std::int64_t stride = 1;
    std::int64_t padding = 0;
    bool bias = true;
    bool operator==(const Conv2d&) const = default;
};

struct BatchNorm2d {
    std::int64_t num_features = 0;
    double eps = 1e-5;
    double momentum = 0.1;
    bool operator==(const BatchNorm2d&) const = default;
};

struct ReLU {
    bool operator==(const ReLU&) const = default;
};
struct Tanh {
    bool operator==(const Tanh&) const = default;
};
struct Sigmoid {
    bool operator==(const Sigmoid&) const = default;
};

// Printed with tuple kernel and stride, as the original models constructed it: AvgPool2d((2, 2)).
struct AvgPool2d {
    std::int64_t kernel_size = 2;
    std::int64_t stride = 0; // 0 = same as kernel_size, PyTorch's default
    std::int64_t padding = 0;
    std::int64_t effective_stride() const { return stride > 0 ? stride : kernel_size; }
    bool operator==(const AvgPool2d&) const = default;
};

struct AdaptiveAvgPool2d {
    std::int64_t output_h = 1;
    std::int64_t output_w = 1;
    bool operator==(const AdaptiveAvgPool2d&) const = default;
};

// A reshape to (batch, features). The original models flatten with x.view() inside forward(),
// so Flatten is not a module there and is not listed among the leaf layers (see leaf_layers()).
struct Flatten {
    bool operator==(const Flatten&) const = default;
};

struct Linear {
    std::int64_t in_features = 0;
    std::int64_t out_features = 0;
    bool bias = true;
    bool operator==(const Linear&) const = default;
};

using Layer = std::variant<Conv2d, BatchNorm2d, ReLU, Tanh, Sigmoid, AvgPool2d, AdaptiveAvgPool2d,
                           Flatten, Linear>;

// Shape of one sample (no batch dimension): {C, H, W} for images, {F} for flat features.
using Shape = std::vector<std::int64_t>;

// CIFAR-10's sample, 3 channels of 32x32 pixels in 10 classes: the input of the original system's
// models, tables and policies, and so the default wherever an input or a class count is not given.
inline const Shape kCifar10Input{3, 32, 32};
inline constexpr std::int64_t kCifar10Classes = 10;

// The layer exactly as PyTorch 1.13 prints it, e.g. "Conv2d(3, 32, kernel_size=(3, 3), stride=(1, 1))".
std::string pytorch_string(const Layer& layer);

// The inverse of pytorch_string: the layer a string it wrote describes, nullopt for any other text.
// Summaries, and the run folders they are read from, carry layers as these strings only.
std::optional<Layer> parse_pytorch_string(std::string_view text);

// Trainable parameters (running statistics of BatchNorm are buffers, not parameters).
std::int64_t parameter_count(const Layer& layer);

bool is_activation(const Layer& layer);
// f(f(x)) == f(x): the activations a Net2Net identity block can repeat without changing the function.
bool is_idempotent_activation(const Layer& layer);
// Whether the layer is an nn.Module in the original models (everything but Flatten).
bool is_module(const Layer& layer);

// Shape of the output for one sample; throws ModelError naming the layer when the input does not fit.
Shape output_shape(const Layer& layer, const Shape& input);

std::string shape_string(const Shape& shape); // "CxHxW", e.g. "1x28x28"

// Python's repr() of a float: 1e-05, 0.1, 2.0. Exposed for tests.
std::string python_float_repr(double value);

} // namespace rlda::core::model
