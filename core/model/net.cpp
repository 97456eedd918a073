// Building LibTorch modules from specs, and the weight half of Net2Net deepening.
#include "core/model/net.h"

#include "core/model/footprint.h"
#include "core/util/error.h"
#include "core/util/overloaded.h"

#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/modules/pooling.h>
#include <torch/optim/adam.h>
#include <torch/utils.h>
#include <torch/csrc/autograd/custom_function.h>

#include <ATen/CPUGeneratorImpl.h>

#include <fmt/format.h>

namespace rlda::core::model {
namespace {

torch::nn::AnyModule make_module(const Layer& layer)
{
    namespace nn = torch::nn;
    return std::visit(
        overloaded{
            [](const Conv2d& c) {
                return nn::AnyModule(nn::Conv2d(nn::Conv2dOptions(c.in_channels, c.out_channels, c.kernel_size)
                                                    .stride(c.stride)
                                                    .padding(c.padding)
                                                    .bias(c.bias)));
            },
            [](const BatchNorm2d& b) {
                return nn::AnyModule(
                    nn::BatchNorm2d(nn::BatchNorm2dOptions(b.num_features).eps(b.eps).momentum(b.momentum)));
            },
            [](const ReLU&) { return nn::AnyModule(nn::ReLU()); },
            [](const Tanh&) { return nn::AnyModule(nn::Tanh()); },
            [](const Sigmoid&) { return nn::AnyModule(nn::Sigmoid()); },
            [](const AvgPool2d& p) {
                return nn::AnyModule(nn::AvgPool2d(
                    nn::AvgPool2dOptions(p.kernel_size).stride(p.effective_stride()).padding(p.padding)));
            },
            [](const AdaptiveAvgPool2d& p) {
                return nn::AnyModule(nn::AdaptiveAvgPool2d(
                    nn::AdaptiveAvgPool2dOptions({p.output_h, p.output_w})));
            },
            [](const Flatten&) { return nn::AnyModule(nn::Flatten()); },
            [](const Linear& l) {
                return nn::AnyModule(nn::Linear(nn::LinearOptions(l.in_features, l.out_features).bias(l.bias)));
            },
        },
        layer);
}

// Turns freshly built modules of an added block into the identity.
void make_identity(torch::nn::Sequential& unit)
{
    torch::NoGradGuard no_grad;
    for (const auto& child : unit->children()) {
        if (auto conv = std::dynamic_pointer_cast<torch::nn::Conv2dImpl>(child)) {
            auto& w = conv->weight; // [out, in, k, k], out == in
            w.zero_();
            const auto k = w.size(2) / 2;
            for (std::int64_t c = 0; c < w.size(0); ++c)
                w[c][c][k][k].fill_(1.0);
            if (conv->bias.defined())
                conv->bias.zero_();
        } else if (auto lin = std::dynamic_pointer_cast<torch::nn::LinearImpl>(child)) {
            lin->weight.copy_(torch::eye(lin->weight.size(0), lin->weight.options()));
            if (lin->bias.defined())
                lin->bias.zero_();
        } else if (auto bn = std::dynamic_pointer_cast<torch::nn::BatchNorm2dImpl>(child)) {
            // A fresh BatchNorm divides by sqrt(1 + eps) in eval mode, a 5e-6 relative change per
            // added block; running_var = 1 - eps makes it exact. Parameters stay fresh (1, 0).
            bn->running_var.fill_(1.0 - bn->options.eps());
        }
    }
}

} // namespace

NetImpl::NetImpl(ModelSpec spec) : spec_(std::move(spec))
{
    finalize(spec_);
    check_parameters_fit(spec_); // before LibTorch allocates them
    for (const UnitRef& u : units(spec_))
        units_.push_back(make_unit(*u.node));
}

torch::nn::Sequential NetImpl::make_unit(const Node& node)
{
    torch::nn::Sequential seq;
    for (const Layer& l : node.layers)
        seq->push_back(make_module(l));
    return register_module("u" + std::to_string(node.uid), seq);
}

namespace {

torch::MemoryFormat layout(bool channels_last)
{
    return channels_last ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
}

// Identity forward; backward hands on the gradient in NHWC. Pooling and reshapes give their input
// gradients in NCHW, and ReLU's backward over mixed layouts runs about 10x slower than over one.
struct ChannelsLastGrad : torch::autograd::Function<ChannelsLastGrad> {
    static torch::Tensor forward(torch::autograd::AutogradContext*, const torch::Tensor& x) { return x; }
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext*,
                                                   torch::autograd::variable_list grads)
    {
        return {grads[0].contiguous(torch::MemoryFormat::ChannelsLast)};
    }
};

void relayout(torch::nn::Module& m, bool channels_last)
{
    torch::NoGradGuard no_grad;
    for (auto& p : m.parameters())
        if (p.dim() == 4)
            p.set_data(p.data().contiguous(layout(channels_last)));
}

} // namespace

void NetImpl::set_channels_last(bool on)
{
    channels_last_ = on;
    relayout(*this, on);
}

torch::Tensor NetImpl::forward(torch::Tensor x)
{
    if (channels_last_ && x.dim() == 4)
        x = x.contiguous(torch::MemoryFormat::ChannelsLast);
    for (auto& unit : units_) {
        x = unit->forward(x);
        if (channels_last_ && x.dim() == 4 && x.requires_grad())
            x = ChannelsLastGrad::apply(x);
    }
    return x;
}

int NetImpl::original_block_count() const { return model::original_block_count(spec_); }

std::int64_t NetImpl::parameter_count() const
{
    std::int64_t n = 0;
    for (const auto& p : parameters())
        n += p.numel();
    return n;
}

DeepenResult NetImpl::deepen(int action)
{
    ModelSpec next = spec_;
    DeepenResult result = deepen_spec(next, action); // throws before anything changes
    if (result.did_nothing)
        return result;
    check_parameters_fit(next);

    const Node* added = nullptr;
    for (const UnitRef& u : units(next))
        if (u.node->uid == result.uid)
            added = u.node;
    torch::nn::Sequential unit = make_unit(*added);
    make_identity(unit);
    const auto params = parameters();
    if (!params.empty())
        unit->to(params.front().device(), params.front().scalar_type());
    unit->train(is_training());
    if (channels_last_)
        relayout(*unit, true);

    units_.insert(units_.begin() + result.position, unit);
    spec_ = std::move(next);
    return result;
}

void copy_state(const Net& from, Net& to)
{
    torch::NoGradGuard no_grad;
    const auto copy_all = [&](auto src, auto dst) {
        for (auto& t : dst) {
            const torch::Tensor* s = src.find(t.key());
            if (!s)
                throw ModelError(fmt::format("copy_state: {} has no tensor {}", from->spec().name, t.key()));
            t.value().copy_(*s);
        }
    };
    copy_all(from->named_parameters(), to->named_parameters());
    copy_all(from->named_buffers(), to->named_buffers());
}

Net clone_net(const Net& net)
{
    Net copy(net->spec());
    const auto params = net->parameters();
    if (!params.empty())
        copy->to(params.front().device(), params.front().scalar_type());
    copy->set_channels_last(net->channels_last());
    copy_state(net, copy);
    copy->train(net->is_training());
    return copy;
}

namespace {

torch::Tensor noise_batch(const Net& net, std::int64_t batch, torch::Generator& gen)
{
    std::vector<std::int64_t> sizes{batch};
    for (auto d : net->spec().input)
        sizes.push_back(d);
    const auto params = net->parameters();
    auto opts = torch::TensorOptions().dtype(torch::kFloat32);
    auto x = torch::randn(sizes, gen, opts);
    return params.empty() ? x : x.to(params.front().device());
}

} // namespace

void train_on_noise(Net& net, int steps, std::uint64_t seed, std::int64_t batch)
{
    check_forward_fits(net->spec(), batch);
    auto gen = torch::make_generator<torch::CPUGeneratorImpl>(seed);
    torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(0.01));
    net->train();
    for (int s = 0; s < steps; ++s) {
        auto x = noise_batch(net, batch, gen);
        auto y = torch::randint(net->spec().classes, {batch}, gen, torch::kLong).to(x.device());
        opt.zero_grad();
        auto loss = torch::nn::functional::cross_entropy(net->forward(x), y);
        loss.backward();
        opt.step();
    }
    net->eval();
}

double max_abs_output_diff(Net& a, Net& b, std::uint64_t seed, std::int64_t batch)
{
    check_forward_fits(a->spec(), batch);
    check_forward_fits(b->spec(), batch);
    torch::NoGradGuard no_grad;
    const bool ta = a->is_training(), tb = b->is_training();
    a->eval();
    b->eval();
    auto gen = torch::make_generator<torch::CPUGeneratorImpl>(seed);
    auto x = noise_batch(a, batch, gen);
    const double diff = (a->forward(x) - b->forward(x)).abs().max().item<double>();
    a->train(ta);
    b->train(tb);
    return diff;
}

} // namespace rlda::core::model
