// The policy network by hand: per-op dispatch and autograd cost far more than these tiny LSTMs' flops.
#include "core/policy/fast_policy.h"

#include "core/net/tensors.h"
#include "core/util/error.h"

#include <fmt/format.h>
#include <torch/serialize/input-archive.h>

#include <algorithm>
#include <cmath>

namespace rlda::core::agent {

using namespace kernels;

FastPolicy::FastPolicy(PolicyNet net) : net_(std::move(net))
{
    const auto& s = net_->sizes();
    dims_ = {static_cast<std::ptrdiff_t>(s.embedding_size),
             static_cast<std::ptrdiff_t>(s.hidden_size),
             static_cast<std::ptrdiff_t>(s.decider_lstm_size),
             static_cast<std::ptrdiff_t>(s.time_encoding_size),
             static_cast<std::ptrdiff_t>(s.decider_linear_size),
             static_cast<std::ptrdiff_t>(net_->actions()),
             0};
    const auto params = net_->named_parameters();
    const auto buffers = net_->named_buffers();
    const auto* emb = buffers.find("embeddings");
    if (!emb || emb->dim() != 2)
        throw Error("fast policy: the network has no embedding table");
    dims_.vocabulary = static_cast<std::ptrdiff_t>(emb->size(0));
    embeddings_ = checked(*emb, "embeddings", dims_.vocabulary, dims_.embedding);
    const std::ptrdiff_t d = dims_.decider;
    lstms_ = recurrent_parameters(params, dims_.embedding, dims_.hidden, d);
    fc1_ = linear_parameters(params, "fc1", d + dims_.time, dims_.linear);
    fc2_ = linear_parameters(params, "fc2", dims_.linear, dims_.linear);
    out_ = linear_parameters(params, "out", dims_.linear, dims_.actions);
}

void FastPolicy::encode(std::span<const std::int64_t> layers, SequenceTape& tape) const
{
    if (layers.empty())
        throw Error("fast policy: an architecture without layers");
    for (const auto id : layers)
        if (id < 0 || id >= dims_.vocabulary)
            throw Error(fmt::format("fast policy: layer id {} is outside the vocabulary (0..{})", id,
                                    dims_.vocabulary - 1));
    tape.ids.assign(layers.begin(), layers.end());
    recurrent_forward(lstms_, static_cast<std::ptrdiff_t>(layers.size()), data(embeddings_), dims_.embedding,
                      tape.ids.data(), tape.lstms);
}

void FastPolicy::head(const SequenceTape& sequence, double time_left, double time_budget,
                      HeadTape& head) const
{
    const std::ptrdiff_t d = dims_.decider, f = dims_.linear, in = d + dims_.time;
    head.input.resize(static_cast<std::size_t>(in));
    std::copy_n(sequence.lstms.dec_h.data() + (sequence.lstms.length - 1) * d, d, head.input.data());
    const auto te = time_encoding(time_left, time_budget, dims_.time);
    std::copy(te.begin(), te.end(), head.input.begin() + d);
    head.hidden1.resize(static_cast<std::size_t>(f));
    head.hidden2.resize(static_cast<std::size_t>(f));
    head.logits.resize(static_cast<std::size_t>(dims_.actions));
    linear_forward(fc1_, head.input.data(), f, in, head.hidden1.data(), true);
    linear_forward(fc2_, head.hidden1.data(), f, f, head.hidden2.data(), true);
    linear_forward(out_, head.hidden2.data(), dims_.actions, f, head.logits.data(), false);
}

void FastPolicy::backward_head(const HeadTape& head, std::span<const float> d_logits, std::span<float> d_last)
{
    const std::ptrdiff_t d = dims_.decider, f = dims_.linear, in = d + dims_.time, a = dims_.actions;
    if (static_cast<std::ptrdiff_t>(d_logits.size()) != a || static_cast<std::ptrdiff_t>(d_last.size()) != d)
        throw Error("fast policy: backward_head: gradient sizes do not fit the network");
    d_hidden_.assign(static_cast<std::size_t>(2 * f + in), 0.0f);
    float* d2 = d_hidden_.data();
    float* d1 = d2 + f;
    float* d_in = d1 + f;
    linear_backward(out_, head.hidden2.data(), a, f, d_logits.data(), d2);
    relu_backward(head.hidden2.data(), f, d2);
    linear_backward(fc2_, head.hidden1.data(), f, f, d2, d1);
    relu_backward(head.hidden1.data(), f, d1);
    linear_backward(fc1_, head.input.data(), f, in, d1, d_in);
    for (std::ptrdiff_t k = 0; k < d; ++k)
        d_last[static_cast<std::size_t>(k)] += d_in[k];
}

void FastPolicy::backward_sequence(const SequenceTape& sequence, std::span<const float> d_last)
{
    if (static_cast<std::ptrdiff_t>(d_last.size()) != dims_.decider || sequence.lstms.length < 1)
        throw Error("fast policy: backward_sequence: gradient sizes do not fit the network");
    // The embeddings are a fixed buffer: no gradient for the inputs.
    recurrent_backward(lstms_, sequence.lstms, data(embeddings_), dims_.embedding, sequence.ids.data(), d_last.data(),
                       nullptr, nullptr, scratch_);
}

void FastPolicy::backward(const PolicyTape& tape, std::span<const float> d_logits)
{
    std::vector<float> d_last(static_cast<std::size_t>(dims_.decider), 0.0f);
    backward_head(tape.head, d_logits, d_last);
    backward_sequence(tape.sequence, d_last);
}

FastAdam::FastAdam(std::vector<torch::Tensor> parameters, double lr, double beta1, double beta2, double eps)
    : params_(std::move(parameters)), lr_(lr), beta1_(beta1), beta2_(beta2), eps_(eps)
{
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const auto& p = params_[i];
        checked(p, fmt::format("#{}", i), p.numel(), 1);
        exp_avg_.push_back(torch::zeros_like(p));
        exp_avg_sq_.push_back(torch::zeros_like(p));
        grad_of(p);
    }
}

void FastAdam::step_and_zero_grad()
{
    ++steps_;
    const auto t = static_cast<double>(steps_);
    const double bias_correction1 = 1.0 - std::pow(beta1_, t);
    const double bias_correction2 = 1.0 - std::pow(beta2_, t);
    // The scalars as torch passes them to its float kernels.
    const auto b1 = static_cast<float>(beta1_), b2 = static_cast<float>(beta2_);
    const auto one_minus_b1 = static_cast<float>(1.0 - beta1_),
               one_minus_b2 = static_cast<float>(1.0 - beta2_);
    const auto sqrt_bc2 = static_cast<float>(std::sqrt(bias_correction2));
    const auto eps = static_cast<float>(eps_);
    const auto step_size = static_cast<float>(lr_ / bias_correction1);
    for (std::size_t i = 0; i < params_.size(); ++i) {
        auto* __restrict p = params_[i].data_ptr<float>();
        auto* __restrict g = grad_of(params_[i]);
        auto* __restrict m = exp_avg_[i].data_ptr<float>();
        auto* __restrict v = exp_avg_sq_[i].data_ptr<float>();
        const auto n = params_[i].numel();
        for (std::int64_t j = 0; j < n; ++j) {
            m[j] = m[j] * b1 + one_minus_b1 * g[j];
            v[j] = v[j] * b2 + one_minus_b2 * (g[j] * g[j]);
            p[j] = p[j] - step_size * (m[j] / (std::sqrt(v[j]) / sqrt_bc2 + eps));
            g[j] = 0.0f;
        }
    }
}

void FastAdam::save(TensorFileWriter& file, const std::vector<std::string>& names) const
{
    file.set("adam/step", steps_);
    file.set("adam/lr", lr_);
    for (std::size_t i = 0; i < params_.size(); ++i) {
        add_tensor(file, "adam/exp_avg/" + names.at(i), exp_avg_[i]);
        add_tensor(file, "adam/exp_avg_sq/" + names.at(i), exp_avg_sq_[i]);
    }
}

void FastAdam::load(const TensorFile& file, const std::vector<std::string>& names)
{
    std::vector<torch::Tensor> m, v;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const auto shape = params_[i].sizes();
        m.push_back(read_tensor(file, "adam/exp_avg/" + names.at(i), torch::kFloat32, shape));
        v.push_back(read_tensor(file, "adam/exp_avg_sq/" + names.at(i), torch::kFloat32, shape));
    }
    const std::int64_t steps = file.integer("adam/step");
    const double lr = file.real("adam/lr");
    if (steps < 0)
        throw Error(fmt::format("{}: adam/step is {}, not a count", file.label(), steps));
    if (!(lr > 0.0) || !std::isfinite(lr))
        throw Error(fmt::format("{}: adam/lr is {}, not a positive learning rate", file.label(), lr));
    for (std::size_t i = 0; i < params_.size(); ++i) {
        exp_avg_[i] = m[i];
        exp_avg_sq_[i] = v[i];
    }
    steps_ = steps;
    lr_ = lr;
}

void FastAdam::load(torch::serialize::InputArchive& archive)
{
    torch::Tensor step, lr;
    archive.read("step", step);
    archive.read("lr", lr);
    std::vector<torch::Tensor> m(params_.size()), v(params_.size());
    for (std::size_t i = 0; i < params_.size(); ++i) {
        archive.read(fmt::format("exp_avg_{}", i), m[i]);
        archive.read(fmt::format("exp_avg_sq_{}", i), v[i]);
        if (!m[i].sizes().equals(params_[i].sizes()) || !v[i].sizes().equals(params_[i].sizes()) ||
            !storage_covers(m[i]) || !storage_covers(v[i]) || m[i].scalar_type() != torch::kFloat32 ||
            v[i].scalar_type() != torch::kFloat32)
            throw Error(fmt::format("adam: the state of parameter #{} does not fit its shape", i));
    }
    // Nothing changes until everything has been read.
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        exp_avg_[i].copy_(m[i]);
        exp_avg_sq_[i].copy_(v[i]);
    }
    steps_ = step.item<std::int64_t>();
    lr_ = lr.item<double>();
}

} // namespace rlda::core::agent
