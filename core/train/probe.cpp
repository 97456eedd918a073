// The decision features of a model at a decision: gradient statistics per block over an epoch, and
// a probe batch through the model for its activations and Firefly's first-order loss drop.
#include "core/train/probe.h"

#include "core/data/dataset.h"
#include "core/net/net.h"
#include "core/util/error.h"

#include <torch/autograd.h>
#include <torch/nn/functional/loss.h>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>

namespace rlda::core::train {
namespace {

// The uid of the unit a parameter named "u<uid>.<...>" belongs to; -1 for any other name.
int uid_of(std::string_view name)
{
    if (name.size() < 2 || name[0] != 'u')
        return -1;
    int uid = -1;
    const auto [end, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), uid);
    if (ec != std::errc{} || end == name.data() + name.size() || *end != '.')
        return -1;
    return uid;
}

// The original block of every parameter of `net`, by the parameter's position in parameters().
std::vector<int> parameter_blocks(const model::NetImpl& net)
{
    const auto refs = model::units(net.spec());
    const auto blocks = unit_blocks(net.spec());
    std::map<int, int> block_of_uid;
    for (std::size_t u = 0; u < refs.size(); ++u)
        block_of_uid[refs[u].node->uid] = blocks[u];
    std::vector<int> out;
    for (const auto& p : net.named_parameters()) {
        const auto it = block_of_uid.find(uid_of(p.key()));
        out.push_back(it == block_of_uid.end() ? -1 : it->second);
    }
    return out;
}

// Least-squares slope of y over x.
double slope(std::span<const double> x, std::span<const double> y)
{
    const auto n = static_cast<double>(x.size());
    if (x.size() < 2)
        return 0.0;
    double mx = 0.0, my = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0.0, sxx = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
    }
    return sxx > 0.0 ? sxy / sxx : 0.0;
}

// ||sum over samples and positions of g y^T||_F^2: the squared norm of the gradient of a 1x1
// identity layer's weight taking y to the next layer, whose output gradient is g.
double centre_tap_grad_sq(const torch::Tensor& g, const torch::Tensor& y)
{
    torch::Tensor gm, ym; // [values per channel, channels]
    if (y.dim() == 4) {
        const auto c = y.size(1);
        gm = g.permute({0, 2, 3, 1}).reshape({-1, c});
        ym = y.permute({0, 2, 3, 1}).reshape({-1, c});
    } else {
        gm = g.reshape({g.size(0), -1});
        ym = y.reshape({y.size(0), -1});
    }
    const auto w = gm.to(torch::kFloat64).t().matmul(ym.to(torch::kFloat64));
    return w.square().sum().item<double>();
}

} // namespace

std::vector<int> unit_blocks(const model::ModelSpec& spec)
{
    const auto refs = model::units(spec);
    std::vector<int> out(refs.size(), -1);
    int current = -1; // the last original block seen
    for (std::size_t u = 0; u < refs.size(); ++u) {
        const model::Node& node = *refs[u].node;
        if (node.kind != model::NodeKind::Block)
            continue; // a plain layer belongs to no block, and does not end the block before it
        if (node.original)
            current = refs[u].original_index;
        out[u] = current;
    }
    return out;
}

void GradientStats::start(const model::NetImpl& net)
{
    params_.clear();
    steps_ = 0;
    const auto blocks = parameter_blocks(net);
    const int n = net.original_block_count();
    values_.assign(static_cast<std::size_t>(n), 0);
    std::vector<std::int64_t> index;
    const auto params = net.parameters();
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (blocks[i] < 0 || !params[i].requires_grad())
            continue;
        params_.push_back(params[i]);
        index.push_back(blocks[i]);
        values_[static_cast<std::size_t>(blocks[i])] += params[i].numel();
    }
    const auto device = params.empty() ? torch::Device(torch::kCPU) : params.front().device();
    index_ = torch::tensor(index, torch::TensorOptions().dtype(torch::kLong)).to(device);
    sum_ = torch::zeros({n}, torch::TensorOptions().dtype(torch::kFloat64).device(device));
}

void GradientStats::add_step()
{
    if (!sum_.defined())
        return;
    ++steps_;
    if (params_.empty())
        return;
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> squares;
    squares.reserve(params_.size());
    for (const auto& p : params_) {
        const auto& g = p.grad();
        squares.push_back(g.defined() ? g.square().sum() : torch::zeros({}, p.options()));
    }
    // Kept on the device: no synchronisation per step.
    sum_.index_add_(0, index_, torch::stack(squares).to(torch::kFloat64));
}

std::vector<double> GradientStats::finish() const
{
    std::vector<double> out(values_.size(), 0.0);
    if (!sum_.defined() || steps_ == 0)
        return out;
    const auto sums = sum_.cpu();
    const double* s = sums.data_ptr<double>();
    for (std::size_t b = 0; b < out.size(); ++b)
        if (values_[b] > 0)
            out[b] = s[b] / static_cast<double>(steps_) / static_cast<double>(values_[b]);
    return out;
}

agent::DecisionFeatures measure_features(model::NetImpl& net, const data::Dataset& test, const ProbeContext& c)
{
    const model::ModelSpec& spec = net.spec();
    const int n_blocks = net.original_block_count();
    agent::DecisionFeatures f;
    f.blocks.resize(static_cast<std::size_t>(n_blocks));
    if (!c.grad_sq_mean.empty()) {
        if (c.grad_sq_mean.size() != f.blocks.size())
            throw Error(fmt::format("decision features: gradient statistics of {} blocks for a model of {}",
                                    c.grad_sq_mean.size(), f.blocks.size()));
        for (std::size_t b = 0; b < f.blocks.size(); ++b)
            f.blocks[b].grad_sq_mean = c.grad_sq_mean[b];
    }

    torch::NoGradGuard no_grad;
    // Parameters and their norms, per block.
    {
        const auto blocks = parameter_blocks(net);
        const auto params = net.parameters();
        std::vector<double> sq(f.blocks.size(), 0.0);
        for (std::size_t i = 0; i < params.size(); ++i) {
            if (blocks[i] < 0 || !params[i].requires_grad())
                continue;
            const auto b = static_cast<std::size_t>(blocks[i]);
            f.blocks[b].parameters += params[i].numel();
            sq[b] += params[i].detach().to(torch::kFloat64).square().sum().item<double>();
        }
        for (std::size_t b = 0; b < f.blocks.size(); ++b)
            f.blocks[b].weight_norm = std::sqrt(sq[b]);
    }

    // The probe batch through the model in eval mode, with gradients to the block outputs only.
    const std::int64_t n = std::min(kProbeBatch, test.size());
    if (n > 0) {
        const bool training = net.is_training();
        net.eval();
        try {
            torch::AutoGradMode grad_on(true);
            std::vector<torch::Tensor> outputs;
            const auto x = test.images.narrow(0, 0, n);
            const auto y = test.labels.narrow(0, 0, n);
            const auto logits = net.forward(x, outputs);
            const auto loss = torch::nn::functional::cross_entropy(logits, y);
            const auto refs = model::units(spec);
            const auto owner = unit_blocks(spec);
            std::vector<torch::Tensor> inserted(f.blocks.size()), last(f.blocks.size());
            for (std::size_t u = 0; u < refs.size(); ++u) {
                if (owner[u] < 0)
                    continue;
                const auto b = static_cast<std::size_t>(owner[u]);
                if (refs[u].original_index >= 0)
                    inserted[b] = outputs[u];
                last[b] = outputs[u];
            }
            std::vector<torch::Tensor> taps;
            std::vector<std::size_t> tapped;
            for (std::size_t b = 0; b < inserted.size(); ++b)
                if (inserted[b].defined() && inserted[b].requires_grad()) {
                    taps.push_back(inserted[b]);
                    tapped.push_back(b);
                }
            // torch::autograd::grad: gradients of the taps only, nothing accumulated into .grad.
            const auto grads = taps.empty() ? std::vector<torch::Tensor>{}
                                            : torch::autograd::grad({loss}, taps, {}, /*retain_graph=*/false,
                                                                    /*create_graph=*/false, /*allow_unused=*/true);
            torch::NoGradGuard off;
            for (std::size_t t = 0; t < taps.size(); ++t)
                if (grads[t].defined())
                    f.blocks[tapped[t]].loss_drop = c.lr * centre_tap_grad_sq(grads[t], taps[t].detach());
            for (std::size_t b = 0; b < last.size(); ++b) {
                if (!last[b].defined())
                    continue;
                const auto a = last[b].detach().to(torch::kFloat64);
                f.blocks[b].activation_mean = a.mean().item<double>();
                f.blocks[b].activation_var = a.var(/*unbiased=*/false).item<double>();
            }
        } catch (...) {
            net.train(training);
            throw;
        }
        net.train(training);
    }

    // The run's own numbers.
    const auto& h = c.history;
    if (!h.empty()) {
        const EpochMetrics& e = h.back();
        f.train_loss = e.train_loss;
        f.test_accuracy = e.test_acc;
        f.epoch = static_cast<double>(e.epoch);
        if (h.size() >= 2)
            f.test_accuracy_change = e.test_acc - h[h.size() - 2].test_acc;
        const std::size_t k = std::min(kSlopeEpochs, h.size());
        std::vector<double> xs, ys;
        for (std::size_t i = h.size() - k; i < h.size(); ++i) {
            xs.push_back(static_cast<double>(h[i].epoch));
            ys.push_back(h[i].train_loss);
        }
        f.train_loss_slope = slope(xs, ys);
    }
    f.time_left = c.time_left;
    f.time_budget = c.time_budget;
    return f;
}

} // namespace rlda::core::train
