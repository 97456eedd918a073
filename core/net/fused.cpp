// Fused replicates: grouped convolutions, stacked BatchNorms and batched matrix products over R models.
#include "core/net/fused.h"

#include "core/util/error.h"
#include "core/util/overloaded.h"

#include <torch/nn/functional/batchnorm.h>
#include <torch/nn/functional/loss.h>
#include <torch/utils.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace rlda::core::model {
namespace {

// How a fused tensor is made of the replicas' ones, and taken apart again.
enum class Stack {
    Rows,       // concatenated along dim 0: conv weights and biases, BatchNorm's per-channel tensors
    Transposed, // a Linear weight [out, in] per replica -> [R, in, out]
    Row,        // a Linear bias [out] per replica -> [R, 1, out]
    Shared,     // one value for all: num_batches_tracked (replica 0's)
};

struct TensorRole {
    std::string name;
    bool buffer = false;
    Stack stack = Stack::Rows;
};

std::vector<TensorRole> roles(const Layer& layer)
{
    return std::visit(overloaded{
                          [](const Conv2d& c) {
                              std::vector<TensorRole> r{{"weight", false, Stack::Rows}};
                              if (c.bias)
                                  r.push_back({"bias", false, Stack::Rows});
                              return r;
                          },
                          [](const BatchNorm2d&) {
                              return std::vector<TensorRole>{{"weight", false, Stack::Rows},
                                                             {"bias", false, Stack::Rows},
                                                             {"running_mean", true, Stack::Rows},
                                                             {"running_var", true, Stack::Rows},
                                                             {"num_batches_tracked", true, Stack::Shared}};
                          },
                          [](const Linear& l) {
                              std::vector<TensorRole> r{{"weight", false, Stack::Transposed}};
                              if (l.bias)
                                  r.push_back({"bias", false, Stack::Row});
                              return r;
                          },
                          [](const auto&) { return std::vector<TensorRole>{}; },
                      },
                      layer);
}

torch::Tensor fuse(Stack stack, const std::vector<torch::Tensor>& parts)
{
    std::vector<torch::Tensor> ts;
    switch (stack) {
    case Stack::Rows:
        return torch::cat(parts, 0).contiguous();
    case Stack::Transposed:
        for (const auto& p : parts)
            ts.push_back(p.t());
        return torch::stack(ts, 0).contiguous();
    case Stack::Row:
        return torch::stack(parts, 0).unsqueeze(1).contiguous();
    case Stack::Shared:
        break;
    }
    return parts.front().clone();
}

// Replica r's part of a fused tensor (a view).
torch::Tensor part(Stack stack, const torch::Tensor& fused, int r, int replicas)
{
    switch (stack) {
    case Stack::Rows: {
        const auto n = fused.size(0) / replicas;
        return fused.narrow(0, r * n, n);
    }
    case Stack::Transposed:
        return fused[r].t();
    case Stack::Row:
        return fused[r][0];
    case Stack::Shared:
        break;
    }
    return fused;
}

using TensorDict = torch::OrderedDict<std::string, torch::Tensor>;

// A replica's parameters and buffers by their full names.
struct ReplicaTensors {
    TensorDict parameters, buffers;
    explicit ReplicaTensors(const Net& net)
        : parameters(net->named_parameters()), buffers(net->named_buffers())
    {
    }
    const torch::Tensor& at(const std::string& key, bool buffer) const
    {
        const torch::Tensor* t = (buffer ? buffers : parameters).find(key);
        if (!t)
            throw ModelError(fmt::format("FusedNet: a replica has no tensor {}", key));
        return *t;
    }
};

// One layer of all replicas: its fused tensors and its forward on the stacked layouts.
class FusedLayerImpl : public torch::nn::Module {
public:
    FusedLayerImpl(Layer layer, int replicas) : layer_(layer), replicas_(replicas) {}

    // Registers the fused tensors of the layer the replicas name `key`.
    void fuse_from(const std::string& key, const std::vector<ReplicaTensors>& replicas)
    {
        torch::NoGradGuard no_grad;
        for (const TensorRole& role : roles(layer_)) {
            std::vector<torch::Tensor> parts;
            parts.reserve(replicas.size());
            for (const auto& r : replicas)
                parts.push_back(r.at(key + "." + role.name, role.buffer));
            auto fused = fuse(role.stack, parts);
            auto& slot = role.buffer ? buffers_ : params_;
            slot[role.name] =
                role.buffer ? register_buffer(role.name, fused) : register_parameter(role.name, fused);
        }
    }

    void unfuse_into(const std::string& key, const std::vector<ReplicaTensors>& replicas) const
    {
        torch::NoGradGuard no_grad;
        for (const TensorRole& role : roles(layer_)) {
            const auto& fused = (role.buffer ? buffers_ : params_).at(role.name);
            for (int r = 0; r < replicas_; ++r) {
                auto dst = replicas[static_cast<std::size_t>(r)].at(key + "." + role.name, role.buffer);
                dst.copy_(part(role.stack, fused, r, replicas_));
            }
        }
    }

    torch::Tensor forward(torch::Tensor x)
    {
        return std::visit(
            overloaded{
                [&](const Conv2d& c) {
                    return torch::conv2d(x, param("weight"), param("bias"), {c.stride, c.stride},
                                         {c.padding, c.padding}, {1, 1}, replicas_);
                },
                [&](const BatchNorm2d& b) {
                    if (is_training()) {
                        torch::NoGradGuard no_grad;
                        buffers_.at("num_batches_tracked").add_(1);
                    }
                    namespace F = torch::nn::functional;
                    return F::batch_norm(x, buffers_.at("running_mean"), buffers_.at("running_var"),
                                         F::BatchNormFuncOptions()
                                             .weight(param("weight"))
                                             .bias(param("bias"))
                                             .training(is_training())
                                             .momentum(b.momentum)
                                             .eps(b.eps));
                },
                [&](const ReLU&) { return torch::relu(x); },
                [&](const Tanh&) { return torch::tanh(x); },
                [&](const Sigmoid&) { return torch::sigmoid(x); },
                [&](const AvgPool2d& p) {
                    return torch::avg_pool2d(x, {p.kernel_size, p.kernel_size},
                                             {p.effective_stride(), p.effective_stride()},
                                             {p.padding, p.padding});
                },
                [&](const AdaptiveAvgPool2d& p) {
                    return torch::adaptive_avg_pool2d(x, {p.output_h, p.output_w});
                },
                [&](const Flatten&) {
                    if (x.dim() != 4)
                        return x; // already [R, B, F]
                    return x.reshape({x.size(0), replicas_, -1}).permute({1, 0, 2}).contiguous();
                },
                [&](const Linear&) {
                    const auto& b = param("bias");
                    return b.defined() ? torch::baddbmm(b, x, param("weight"))
                                       : torch::bmm(x, param("weight"));
                },
            },
            layer_);
    }

private:
    torch::Tensor param(const std::string& name) const
    {
        const auto it = params_.find(name);
        return it == params_.end() ? torch::Tensor() : it->second;
    }

    Layer layer_;
    int replicas_ = 1;
    std::map<std::string, torch::Tensor> params_, buffers_;
};
TORCH_MODULE(FusedLayer);

// after(branch(x) + skip(x)) on fused layers, named as the replicas' residual blocks name theirs.
class FusedResidualImpl : public torch::nn::Module {
public:
    FusedResidualImpl(torch::nn::Sequential branch, torch::nn::Sequential skip, torch::nn::Sequential after)
        : branch(register_module("branch", std::move(branch))),
          skip(register_module("skip", std::move(skip))), after(register_module("after", std::move(after)))
    {
    }
    torch::Tensor forward(const torch::Tensor& x)
    {
        auto y = branch->forward(x) + (skip->is_empty() ? x : skip->forward(x));
        return after->is_empty() ? y : after->forward(y);
    }
    torch::nn::Sequential branch, skip, after;
};
TORCH_MODULE(FusedResidual);

torch::nn::Sequential fused_unit(const Node& node, int replicas)
{
    const auto stack = [&](auto first, auto last) {
        torch::nn::Sequential seq;
        for (auto it = first; it != last; ++it)
            seq->push_back(FusedLayer(*it, replicas));
        return seq;
    };
    if (!node.is_residual())
        return stack(node.layers.begin(), node.layers.end());
    const auto split = node.layers.begin() + node.residual;
    torch::nn::Sequential seq;
    seq->push_back(FusedResidual(stack(node.layers.begin(), split), stack(node.skip.begin(), node.skip.end()),
                                 stack(split, node.layers.end())));
    return seq;
}

std::string joined(const std::vector<std::string>& layers)
{
    return fmt::format("[{}]", fmt::join(layers, ", "));
}

// What differs between two specs, in a few words.
std::string difference(const ModelSpec& a, const ModelSpec& b)
{
    if (a.name != b.name)
        return fmt::format("model {} vs {}", a.name, b.name);
    if (a.input != b.input)
        return fmt::format("input {} vs {}", shape_string(a.input), shape_string(b.input));
    if (a.classes != b.classes)
        return fmt::format("{} vs {} classes", a.classes, b.classes);
    const auto ua = summarize(a).units, ub = summarize(b).units;
    for (std::size_t p = 0; p < std::min(ua.size(), ub.size()); ++p)
        if (ua[p].layers != ub[p].layers || ua[p].skip != ub[p].skip || ua[p].residual != ub[p].residual)
            return fmt::format("unit {} is {} vs {}", p, joined(ua[p].layers), joined(ub[p].layers));
    if (ua.size() != ub.size())
        return fmt::format("{} vs {} units", ua.size(), ub.size());
    return "the same layers but other module ids or block kinds";
}

// `what` names the caller, `reference` the owner of `spec`.
void check_specs(const ModelSpec& spec, const std::vector<Net>& replicas, const char* what,
                 const char* reference)
{
    for (std::size_t r = 0; r < replicas.size(); ++r)
        if (replicas[r]->spec() != spec)
            throw ModelError(fmt::format("{}: replica {} is another model than {}: {}", what, r, reference,
                                         difference(spec, replicas[r]->spec())));
}

} // namespace

FusedNetImpl::FusedNetImpl(const std::vector<Net>& replicas)
{
    if (replicas.empty())
        throw ModelError("FusedNet: no replicas to fuse");
    spec_ = replicas.front()->spec();
    check_specs(spec_, replicas, "FusedNet", "replica 0");
    const auto first = replicas.front()->parameters();
    for (std::size_t r = 1; r < replicas.size() && !first.empty(); ++r) {
        const auto p = replicas[r]->parameters().front();
        if (p.device() != first.front().device() || p.scalar_type() != first.front().scalar_type())
            throw ModelError(fmt::format("FusedNet: replica {} is on {} ({}), replica 0 on {} ({})", r,
                                         p.device().str(), c10::toString(p.scalar_type()),
                                         first.front().device().str(),
                                         c10::toString(first.front().scalar_type())));
    }
    replicas_ = static_cast<int>(replicas.size());

    const auto spec_units = units(spec_);
    units_.reserve(spec_units.size());
    for (const UnitRef& u : spec_units)
        units_.emplace_back(register_module(fmt::format("u{}", u.node->uid), fused_unit(*u.node, replicas_)));
    std::vector<ReplicaTensors> tensors;
    tensors.reserve(replicas.size());
    for (const auto& net : replicas)
        tensors.emplace_back(net);
    for (const auto& m : named_modules("", /*include_self=*/false))
        if (auto layer = std::dynamic_pointer_cast<FusedLayerImpl>(m.value()))
            layer->fuse_from(m.key(), tensors);
    train(replicas.front()->is_training());
}

torch::Tensor FusedNetImpl::forward(torch::Tensor x)
{
    const auto sample = static_cast<std::int64_t>(spec_.input.size());
    if (x.dim() != sample + 2 || x.size(0) != replicas_)
        throw ModelError(fmt::format("FusedNet: the input must be [{}, batch, {}], got {}", replicas_,
                                     shape_string(spec_.input), shape_string(x.sizes().vec())));
    if (sample == 3) // [R, B, C, H, W] -> [B, R*C, H, W]
        x = x.transpose(0, 1).reshape({x.size(1), replicas_ * x.size(2), x.size(3), x.size(4)});
    for (auto& unit : units_)
        x = unit->forward(x);
    return x;
}

void FusedNetImpl::unfuse_into(std::vector<Net>& replicas) const
{
    if (static_cast<int>(replicas.size()) != replicas_)
        throw ModelError(
            fmt::format("FusedNet::unfuse_into: {} replicas for {} fused", replicas.size(), replicas_));
    check_specs(spec_, replicas, "FusedNet::unfuse_into", "the fused net");
    std::vector<ReplicaTensors> tensors;
    tensors.reserve(replicas.size());
    for (const auto& net : replicas)
        tensors.emplace_back(net);
    for (const auto& m : named_modules("", /*include_self=*/false))
        if (auto layer = std::dynamic_pointer_cast<FusedLayerImpl>(m.value()))
            layer->unfuse_into(m.key(), tensors);
}

torch::Tensor fused_cross_entropy(const torch::Tensor& out, const torch::Tensor& y)
{
    namespace F = torch::nn::functional;
    const auto r = out.size(0), b = out.size(1);
    return F::cross_entropy(out.reshape({r * b, out.size(2)}), y.reshape({r * b}),
                            F::CrossEntropyFuncOptions().reduction(torch::kNone))
        .view({r, b})
        .mean(1)
        .sum();
}

} // namespace rlda::core::model
