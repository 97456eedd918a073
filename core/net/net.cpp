// Building LibTorch modules from specs, and the weight half of Net2Net deepening.
#include "core/net/net.h"

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

#include <algorithm>
#include <random>

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

// after(branch(x) + skip(x)), the skip path the identity when empty. A Sequential of one of these
// is a residual block's unit: its layers are "u<uid>.0.branch.<i>", ".0.skip.<i>", ".0.after.<i>".
class ResidualImpl : public torch::nn::Module {
public:
    ResidualImpl(torch::nn::Sequential branch, torch::nn::Sequential skip, torch::nn::Sequential after)
        : branch(register_module("branch", std::move(branch))), skip(register_module("skip", std::move(skip))),
          after(register_module("after", std::move(after)))
    {
    }
    torch::Tensor forward(const torch::Tensor& x)
    {
        auto y = branch->forward(x) + (skip->is_empty() ? x : skip->forward(x));
        return after->is_empty() ? y : after->forward(y);
    }
    torch::nn::Sequential branch, skip, after;
};
TORCH_MODULE(Residual);

// The module of layer `l` of `node` (of its skip path with `skip`) inside its unit.
std::shared_ptr<torch::nn::Module> layer_module(const torch::nn::Sequential& unit, const Node& node, std::size_t l,
                                                bool skip)
{
    if (!node.is_residual())
        return unit->ptr(l);
    const auto r = std::dynamic_pointer_cast<ResidualImpl>(unit->ptr(0));
    if (skip)
        return r->skip->ptr(l);
    const auto branch = static_cast<std::size_t>(node.residual);
    return l < branch ? r->branch->ptr(l) : r->after->ptr(l - branch);
}

// A new residual block's branch adds exactly zero: its last BatchNorm after the last convolution
// scales by 0 and shifts by 0 (train and eval mode alike), or without one the convolution is zero.
void zero_branch(torch::nn::Sequential& unit)
{
    torch::NoGradGuard no_grad;
    const auto r = std::dynamic_pointer_cast<ResidualImpl>(unit->ptr(0));
    const auto children = r->branch->children();
    std::shared_ptr<torch::nn::Conv2dImpl> last_conv;
    std::shared_ptr<torch::nn::BatchNorm2dImpl> last_bn;
    for (const auto& child : children) {
        if (auto conv = std::dynamic_pointer_cast<torch::nn::Conv2dImpl>(child)) {
            last_conv = conv;
            last_bn = nullptr;
        } else if (auto bn = std::dynamic_pointer_cast<torch::nn::BatchNorm2dImpl>(child)) {
            last_bn = bn;
        }
    }
    if (last_bn) {
        last_bn->weight.zero_();
        last_bn->bias.zero_();
    } else if (last_conv) {
        last_conv->weight.zero_();
        if (last_conv->bias.defined())
            last_conv->bias.zero_();
    }
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

torch::nn::Sequential NetImpl::build_unit(const Node& node) const
{
    const auto stack = [](auto first, auto last) {
        torch::nn::Sequential seq;
        for (auto it = first; it != last; ++it)
            seq->push_back(make_module(*it));
        return seq;
    };
    if (!node.is_residual())
        return stack(node.layers.begin(), node.layers.end());
    const auto split = node.layers.begin() + node.residual;
    torch::nn::Sequential seq;
    seq->push_back(Residual(stack(node.layers.begin(), split), stack(node.skip.begin(), node.skip.end()),
                            stack(split, node.layers.end())));
    return seq;
}

torch::nn::Sequential NetImpl::make_unit(const Node& node)
{
    return register_module("u" + std::to_string(node.uid), build_unit(node));
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

namespace {

// The units in order, channels-last kept when asked; each unit's output into `outputs` when given.
torch::Tensor run_units(std::vector<torch::nn::Sequential>& units, bool channels_last, torch::Tensor x,
                        std::vector<torch::Tensor>* outputs)
{
    if (channels_last && x.dim() == 4)
        x = x.contiguous(torch::MemoryFormat::ChannelsLast);
    for (auto& unit : units) {
        x = unit->forward(x);
        if (channels_last && x.dim() == 4 && x.requires_grad())
            x = ChannelsLastGrad::apply(x);
        if (outputs)
            outputs->push_back(x);
    }
    return x;
}

} // namespace

torch::Tensor NetImpl::forward(torch::Tensor x)
{
    return run_units(units_, channels_last_, std::move(x), nullptr);
}

torch::Tensor NetImpl::forward(torch::Tensor x, std::vector<torch::Tensor>& unit_outputs)
{
    unit_outputs.clear();
    unit_outputs.reserve(units_.size());
    return run_units(units_, channels_last_, std::move(x), &unit_outputs);
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
    if (added->is_residual())
        zero_branch(unit);
    else
        make_identity(unit);
    adopt(unit);

    units_.insert(units_.begin() + result.position, unit);
    spec_ = std::move(next);
    return result;
}

void NetImpl::adopt(torch::nn::Sequential& unit) const
{
    const auto params = parameters();
    if (!params.empty())
        unit->to(params.front().device(), params.front().scalar_type());
    unit->train(is_training());
    if (channels_last_)
        relayout(*unit, true);
}

namespace {

// Net2WiderNet's mapping: unit j of the wider layer copies unit source[j] of the old one (the old
// units first, in place), and the next layer's weights from it are multiplied by share[j].
struct WidenMapping {
    std::vector<std::int64_t> source;
    std::vector<float> share;
};

WidenMapping widen_mapping(std::int64_t old_width, std::int64_t new_width, double noise, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> pick(0, old_width - 1);
    WidenMapping m;
    m.source.resize(static_cast<std::size_t>(new_width));
    std::vector<std::int64_t> copies(static_cast<std::size_t>(old_width), 1);
    for (std::int64_t j = 0; j < new_width; ++j) {
        m.source[j] = j < old_width ? j : pick(rng);
        if (j >= old_width)
            ++copies[m.source[j]];
    }
    // Each copy's share is 1/copies, perturbed by up to `noise` of it; the perturbations of one
    // unit's copies sum to zero, so the shares still sum to one and the function is kept.
    std::uniform_real_distribution<double> jitter(-1.0, 1.0);
    std::vector<double> z(static_cast<std::size_t>(new_width), 0.0), mean(static_cast<std::size_t>(old_width), 0.0);
    if (noise > 0.0)
        for (std::int64_t j = 0; j < new_width; ++j) {
            z[j] = jitter(rng);
            mean[m.source[j]] += z[j] / static_cast<double>(copies[m.source[j]]);
        }
    m.share.resize(static_cast<std::size_t>(new_width));
    for (std::int64_t j = 0; j < new_width; ++j) {
        const auto k = m.source[j];
        m.share[j] = static_cast<float>((1.0 + noise * (z[j] - mean[k])) / static_cast<double>(copies[k]));
    }
    return m;
}

// The new tensor of a widened layer from the old one: rows (Outputs) or columns (Inputs) mapped.
torch::Tensor widened_tensor(const torch::Tensor& old, const torch::Tensor& fresh, const WidenedLayer& w,
                             const WidenMapping& m, bool weight)
{
    const auto long_opts = torch::TensorOptions().dtype(torch::kLong).device(old.device());
    if (w.role == WidenedLayer::Role::Outputs) {
        if (old.dim() == 0 || old.size(0) == fresh.size(0))
            return old; // num_batches_tracked, or a tensor the widening does not touch
        return old.index_select(0, torch::tensor(m.source, long_opts));
    }
    if (!weight)
        return old; // the next layer's bias: its outputs do not change
    std::vector<std::int64_t> columns;
    std::vector<float> shares;
    for (std::size_t j = 0; j < m.source.size(); ++j)
        for (std::int64_t s = 0; s < w.spatial; ++s) {
            columns.push_back(m.source[j] * w.spatial + s);
            shares.push_back(m.share[j]);
        }
    auto scale = torch::tensor(shares, torch::TensorOptions().dtype(old.scalar_type()).device(old.device()));
    std::vector<std::int64_t> view(static_cast<std::size_t>(old.dim()), 1);
    view[1] = -1;
    return old.index_select(1, torch::tensor(columns, long_opts)) * scale.view(view);
}

} // namespace

WidenResult NetImpl::widen(int block, double factor, double noise, std::uint64_t seed)
{
    if (!(noise >= 0.0 && noise < 0.5))
        throw ModelError(fmt::format("widen: the noise must be from 0 to below 0.5, got {}", noise));
    ModelSpec next = spec_;
    WidenResult result = widen_spec(next, block, factor); // throws before anything changes
    check_parameters_fit(next);
    const WidenMapping mapping = widen_mapping(result.old_width, result.new_width, noise, seed);

    torch::NoGradGuard no_grad;
    const auto refs = units(next);
    for (std::size_t p = 0; p < refs.size(); ++p) {
        const Node& node = *refs[p].node;
        const auto role = [&](std::size_t l, bool skip) -> const WidenedLayer* {
            for (const WidenedLayer& w : result.changed)
                if (w.uid == node.uid && w.layer == l && w.skip == skip)
                    return &w;
            return nullptr;
        };
        if (std::none_of(result.changed.begin(), result.changed.end(),
                         [&](const WidenedLayer& w) { return w.uid == node.uid; }))
            continue;
        torch::nn::Sequential unit = build_unit(node);
        adopt(unit);
        const auto copy_layer = [&](std::size_t l, bool skip) {
            const auto fresh = layer_module(unit, node, l, skip);
            const auto old = layer_module(units_[p], node, l, skip);
            const WidenedLayer* w = role(l, skip);
            const auto copy_all = [&](auto to, auto from) {
                for (auto& t : to) {
                    const torch::Tensor& o = *from.find(t.key());
                    t.value().copy_(w ? widened_tensor(o, t.value(), *w, mapping, t.key() == "weight") : o);
                }
            };
            copy_all(fresh->named_parameters(false), old->named_parameters(false));
            copy_all(fresh->named_buffers(false), old->named_buffers(false));
        };
        for (std::size_t l = 0; l < node.layers.size(); ++l)
            copy_layer(l, false);
        for (std::size_t l = 0; l < node.skip.size(); ++l)
            copy_layer(l, true);
        units_[p] = replace_module("u" + std::to_string(node.uid), unit);
    }
    spec_ = std::move(next);
    return result;
}

ActionResult NetImpl::apply(const ActionSpace& space, int action, double noise, std::uint64_t seed)
{
    ActionResult r;
    r.action = action;
    r.what = action_of(spec_, space, action); // checks the space and the action
    if (r.what.nothing)
        return apply_action(spec_, space, action); // changes nothing
    if (r.what.op == Operation::Deepen)
        r.deepen = deepen(r.what.block);
    else
        r.widen = widen(r.what.block, space.widen_factor(), noise, seed);
    return r;
}

namespace {

// Every parameter and buffer of `to` from the same-named one of `from`; with `narrowing`, a larger
// one gives its leading slice along each dimension.
void copy_tensors(const Net& from, Net& to, bool narrowing)
{
    torch::NoGradGuard no_grad;
    const auto copy_all = [&](auto src, auto dst) {
        for (auto& t : dst) {
            const torch::Tensor* s = src.find(t.key());
            if (!s)
                throw ModelError(fmt::format("copy_state: {} has no tensor {}", from->spec().name, t.key()));
            torch::Tensor v = *s;
            if (narrowing) {
                if (v.dim() != t.value().dim())
                    throw ModelError(fmt::format("copy_state: {} of {} has another rank", t.key(), from->spec().name));
                for (std::int64_t d = 0; d < v.dim(); ++d) {
                    if (v.size(d) < t.value().size(d))
                        throw ModelError(fmt::format("copy_state: {} of {} is smaller", t.key(), from->spec().name));
                    v = v.narrow(d, 0, t.value().size(d));
                }
            }
            t.value().copy_(v);
        }
    };
    copy_all(from->named_parameters(), to->named_parameters());
    copy_all(from->named_buffers(), to->named_buffers());
}

} // namespace

void copy_state_narrowing(const Net& from, Net& to) { copy_tensors(from, to, /*narrowing=*/true); }

void copy_state(const Net& from, Net& to) { copy_tensors(from, to, /*narrowing=*/false); }

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
    const auto diff = (a->forward(x) - b->forward(x)).abs().max().item<double>();
    a->train(ta);
    b->train(tb);
    return diff;
}

} // namespace rlda::core::model
