// Layer strings in PyTorch's notation, parameter counts and shape inference.
#include "core/model/layer.h"

#include "core/util/checked.h"
#include "core/util/error.h"
#include "core/util/overloaded.h"

#include <array>
#include <charconv>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <utility>
#include <vector>
#include <fmt/format.h>

namespace rlda::core::model {
namespace {

std::string pair(std::int64_t v) { return fmt::format("({}, {})", v, v); }
std::string pair(std::int64_t a, std::int64_t b) { return fmt::format("({}, {})", a, b); }

[[noreturn]] void shape_error(const Layer& layer, const Shape& input, const std::string& why)
{
    throw ModelError(fmt::format("{} cannot take input {}: {}", pytorch_string(layer),
                                 shape_string(input), why));
}

// Positions of a window over `size` padded on both sides; 0 when the window does not fit (the
// division alone would round a negative span up to one position), -1 when the padded size does not
// fit in 64 bits. Stride is positive.
std::int64_t window_out(std::int64_t size, std::int64_t kernel, std::int64_t stride,
                        std::int64_t padding)
{
    const auto twice = checked::mul(padding, std::int64_t{2});
    const auto padded = twice ? checked::add(size, *twice) : std::nullopt;
    if (!padded)
        return -1;
    if (*padded < kernel)
        return 0;
    return (*padded - kernel) / stride + 1;
}

// The arguments between a layer string's parentheses, split at the commas outside inner
// parentheses and trimmed: "3, 32, kernel_size=(3, 3)" → {"3", "32", "kernel_size=(3, 3)"}.
std::vector<std::string_view> split_arguments(std::string_view s)
{
    std::vector<std::string_view> out;
    int depth = 0;
    std::size_t begin = 0;
    const auto push = [&](std::size_t end) {
        std::string_view part = s.substr(begin, end - begin);
        while (!part.empty() && part.front() == ' ')
            part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ')
            part.remove_suffix(1);
        if (!part.empty())
            out.push_back(part);
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
        if (s[i] == ',' && depth == 0) {
            push(i);
            begin = i + 1;
        }
    }
    push(s.size());
    return out;
}

std::optional<std::int64_t> whole(std::string_view s)
{
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<double> real(std::string_view s)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

// "(a, b)" → {a, b}; a plain number n → {n, n}.
std::optional<std::array<std::int64_t, 2>> whole_pair(std::string_view s)
{
    if (const auto n = whole(s))
        return std::array{*n, *n};
    if (s.size() < 2 || s.front() != '(' || s.back() != ')')
        return std::nullopt;
    const auto parts = split_arguments(s.substr(1, s.size() - 2));
    if (parts.size() != 2)
        return std::nullopt;
    const auto a = whole(parts[0]), b = whole(parts[1]);
    if (!a || !b)
        return std::nullopt;
    return std::array{*a, *b};
}

} // namespace

std::optional<Layer> parse_pytorch_string(std::string_view text)
{
    const auto open = text.find('(');
    if (open == std::string_view::npos || text.back() != ')')
        return std::nullopt;
    const std::string_view type = text.substr(0, open);
    std::vector<std::string_view> positional;
    std::vector<std::pair<std::string_view, std::string_view>> named;
    for (const auto arg : split_arguments(text.substr(open + 1, text.size() - open - 2))) {
        const auto eq = arg.find('=');
        if (eq == std::string_view::npos)
            positional.push_back(arg);
        else
            named.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
    }
    const auto value = [&](std::string_view key) -> std::optional<std::string_view> {
        for (const auto& [k, v] : named)
            if (k == key)
                return v;
        return std::nullopt;
    };
    // A square window's side; nullopt when missing or not square.
    const auto side = [&](std::string_view key, std::optional<std::int64_t> missing) -> std::optional<std::int64_t> {
        const auto v = value(key);
        if (!v)
            return missing;
        const auto p = whole_pair(*v);
        return p && (*p)[0] == (*p)[1] ? std::optional((*p)[0]) : std::nullopt;
    };
    const auto number = [&](std::size_t i) { return i < positional.size() ? whole(positional[i]) : std::nullopt; };

    std::optional<Layer> layer;
    if (type == "Conv2d") {
        const auto in = number(0), out = number(1);
        const auto k = side("kernel_size", std::nullopt), st = side("stride", 1), pad = side("padding", 0);
        if (in && out && k && st && pad)
            layer = Conv2d{*in, *out, *k, *st, *pad, value("bias") != "False"};
    } else if (type == "BatchNorm2d") {
        const auto n = number(0);
        const auto eps = real(value("eps").value_or("")), momentum = real(value("momentum").value_or(""));
        if (n && eps && momentum)
            layer = BatchNorm2d{*n, *eps, *momentum};
    } else if (type == "ReLU") {
        layer = ReLU{};
    } else if (type == "Tanh") {
        layer = Tanh{};
    } else if (type == "Sigmoid") {
        layer = Sigmoid{};
    } else if (type == "AvgPool2d") {
        const auto k = side("kernel_size", std::nullopt), st = side("stride", std::nullopt), pad = side("padding", 0);
        if (k && st && pad)
            layer = AvgPool2d{*k, *st, *pad};
    } else if (type == "AdaptiveAvgPool2d") {
        if (const auto size = whole_pair(value("output_size").value_or("")))
            layer = AdaptiveAvgPool2d{(*size)[0], (*size)[1]};
    } else if (type == "Flatten") {
        layer = Flatten{};
    } else if (type == "Linear") {
        const auto in = whole(value("in_features").value_or("")), out = whole(value("out_features").value_or(""));
        if (in && out)
            layer = Linear{*in, *out, value("bias") != "False"};
    }
    // Exactly what pytorch_string writes: any other spelling (extra arguments, other defaults) is
    // not a layer this version builds.
    if (layer && pytorch_string(*layer) != text)
        return std::nullopt;
    return layer;
}

std::string python_float_repr(double value)
{
    // Shortest round-trip digits, then Python's layout: fixed for 1e-4 <= |x| < 1e16, else exponent.
    std::array<char, 64> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value,
                                   std::chars_format::scientific);
    if (ec != std::errc{})
        return "nan";
    const std::string sci(buf.data(), end); // e.g. "1e-05", "1.5e+00", "-2.25e+03"
    const auto e_pos = sci.find('e');
    std::string mantissa = sci.substr(0, e_pos);
    const int exponent = std::atoi(sci.c_str() + e_pos + 1);
    const bool negative = !mantissa.empty() && mantissa[0] == '-';
    if (negative)
        mantissa.erase(0, 1);
    std::string digits;
    for (char c : mantissa)
        if (c != '.')
            digits += c;

    std::string out;
    if (exponent >= -5 + 1 && exponent < 16) { // -4 <= exponent < 16
        if (exponent < 0) {
            out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
        } else if (static_cast<int>(digits.size()) <= exponent + 1) {
            out = digits + std::string(static_cast<std::size_t>(exponent + 1) - digits.size(), '0') + ".0";
        } else {
            out = digits.substr(0, static_cast<std::size_t>(exponent + 1)) + "." +
                  digits.substr(static_cast<std::size_t>(exponent + 1));
        }
    } else {
        out = digits.substr(0, 1);
        if (digits.size() > 1)
            out += "." + digits.substr(1);
        out += fmt::format("e{}{:02}", exponent < 0 ? '-' : '+', std::abs(exponent));
    }
    return negative ? "-" + out : out;
}

std::string shape_string(const Shape& shape)
{
    std::string out;
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? "x" : "") + std::to_string(shape[i]);
    return out;
}

std::string pytorch_string(const Layer& layer)
{
    return std::visit(
        overloaded{
            [](const Conv2d& c) {
                std::string s = fmt::format("Conv2d({}, {}, kernel_size={}, stride={}", c.in_channels,
                                            c.out_channels, pair(c.kernel_size), pair(c.stride));
                if (c.padding != 0)
                    s += ", padding=" + pair(c.padding);
                if (!c.bias)
                    s += ", bias=False";
                return s + ")";
            },
            [](const BatchNorm2d& b) {
                return fmt::format("BatchNorm2d({}, eps={}, momentum={}, affine=True, "
                                   "track_running_stats=True)",
                                   b.num_features, python_float_repr(b.eps),
                                   python_float_repr(b.momentum));
            },
            [](const ReLU&) { return std::string("ReLU()"); },
            [](const Tanh&) { return std::string("Tanh()"); },
            [](const Sigmoid&) { return std::string("Sigmoid()"); },
            [](const AvgPool2d& p) {
                return fmt::format("AvgPool2d(kernel_size={}, stride={}, padding={})",
                                   pair(p.kernel_size), pair(p.effective_stride()), p.padding);
            },
            [](const AdaptiveAvgPool2d& p) {
                return fmt::format("AdaptiveAvgPool2d(output_size={})", pair(p.output_h, p.output_w));
            },
            [](const Flatten&) { return std::string("Flatten(start_dim=1, end_dim=-1)"); },
            [](const Linear& l) {
                return fmt::format("Linear(in_features={}, out_features={}, bias={})", l.in_features,
                                   l.out_features, l.bias ? "True" : "False");
            },
        },
        layer);
}

std::int64_t parameter_count(const Layer& layer)
{
    // Checked: a layer's sizes come from files and the command line, and a count that wrapped
    // would be printed as a negative number.
    const auto checked = [&](std::initializer_list<std::int64_t> factors, std::int64_t plus) {
        const auto n = checked::product(factors);
        const auto total = n ? checked::add(*n, plus) : std::nullopt;
        if (!total)
            throw ModelError(fmt::format("{}: more than {} parameters", pytorch_string(layer),
                                         std::numeric_limits<std::int64_t>::max()));
        return *total;
    };
    return std::visit(overloaded{
                          [&](const Conv2d& c) {
                              return checked({c.out_channels, c.in_channels, c.kernel_size, c.kernel_size},
                                             c.bias ? c.out_channels : 0);
                          },
                          [&](const BatchNorm2d& b) { return checked({2, b.num_features}, 0); },
                          [&](const Linear& l) {
                              return checked({l.out_features, l.in_features}, l.bias ? l.out_features : 0);
                          },
                          [](const auto&) { return std::int64_t{0}; },
                      },
                      layer);
}

bool is_activation(const Layer& layer)
{
    return std::holds_alternative<ReLU>(layer) || std::holds_alternative<Tanh>(layer) ||
           std::holds_alternative<Sigmoid>(layer);
}

bool is_idempotent_activation(const Layer& layer) { return std::holds_alternative<ReLU>(layer); }

bool is_module(const Layer& layer) { return !std::holds_alternative<Flatten>(layer); }

Shape output_shape(const Layer& layer, const Shape& in)
{
    const auto need_image = [&] {
        if (in.size() != 3)
            shape_error(layer, in, "expects an image input CxHxW");
    };
    return std::visit(
        overloaded{
            [&](const Conv2d& c) -> Shape {
                need_image();
                if (c.in_channels != in[0])
                    shape_error(layer, in, fmt::format("expects {} input channels", c.in_channels));
                if (c.kernel_size < 1 || c.stride < 1 || c.padding < 0 || c.out_channels < 1)
                    shape_error(layer, in, "kernel, stride and channels must be positive");
                const auto h = window_out(in[1], c.kernel_size, c.stride, c.padding);
                const auto w = window_out(in[2], c.kernel_size, c.stride, c.padding);
                if (h < 0 || w < 0)
                    shape_error(layer, in, "the padded input is too large to count");
                if (h < 1 || w < 1)
                    shape_error(layer, in, "the input is smaller than the kernel");
                return {c.out_channels, h, w};
            },
            [&](const BatchNorm2d& b) -> Shape {
                need_image();
                if (b.num_features != in[0])
                    shape_error(layer, in, fmt::format("expects {} channels", b.num_features));
                return in;
            },
            [&](const AvgPool2d& p) -> Shape {
                need_image();
                if (p.kernel_size < 1 || p.effective_stride() < 1 || p.padding < 0 ||
                    p.padding > p.kernel_size / 2) // 2 * padding > kernel, without overflow
                    shape_error(layer, in, "bad kernel, stride or padding");
                const auto h = window_out(in[1], p.kernel_size, p.effective_stride(), p.padding);
                const auto w = window_out(in[2], p.kernel_size, p.effective_stride(), p.padding);
                if (h < 0 || w < 0)
                    shape_error(layer, in, "the padded input is too large to count");
                if (h < 1 || w < 1)
                    shape_error(layer, in, "the input is smaller than the pooling window");
                return {in[0], h, w};
            },
            [&](const AdaptiveAvgPool2d& p) -> Shape {
                need_image();
                if (p.output_h < 1 || p.output_w < 1)
                    shape_error(layer, in, "output size must be positive");
                return {in[0], p.output_h, p.output_w};
            },
            [&](const Flatten&) -> Shape {
                std::int64_t n = 1;
                for (auto d : in)
                    if (const auto next = checked::mul(n, d))
                        n = *next;
                    else
                        shape_error(
                            layer, in,
                            fmt::format("more than {} features", std::numeric_limits<std::int64_t>::max()));
                return {n};
            },
            [&](const Linear& l) -> Shape {
                if (in.size() != 1)
                    shape_error(layer, in, "expects flat features; put a Flatten before it");
                if (l.in_features != in[0])
                    shape_error(layer, in, fmt::format("expects {} input features", l.in_features));
                if (l.out_features < 1)
                    shape_error(layer, in, "out_features must be positive");
                return {l.out_features};
            },
            [&](const auto&) -> Shape { return in; }, // activations keep the shape
        },
        layer);
}

} // namespace rlda::core::model
