// The policy network by hand: per-op dispatch and autograd cost far more than these tiny LSTMs' flops.
#include "core/agent/fast_policy.h"

#include "core/util/error.h"
#include "core/util/tensor_file.h"

#include <fmt/format.h>
#include <torch/serialize/input-archive.h>

#include <algorithm>
#include <cmath>

namespace rlda::core::agent {
namespace {

// Eight independent partial sums: GCC will not reorder a float reduction itself (no -ffast-math),
// but it vectorises these lanes, and they shorten the add latency chain.
inline float dot(const float* __restrict a, const float* __restrict b, std::ptrdiff_t n)
{
    float acc[8] = {};
    std::ptrdiff_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (std::ptrdiff_t k = 0; k < 8; ++k)
            acc[k] += a[j + k] * b[j + k];
    float tail = 0.0f;
    for (; j < n; ++j)
        tail += a[j] * b[j];
    return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail;
}

// y[r] += dot(row r of w, x), r < rows (w row-major with n columns). Row by row: GCC turned every
// multi-row blocking tried into shuffles and scalar sums, at half this speed or less.
inline void matvec_add(const float* __restrict w, const float* __restrict x, std::ptrdiff_t rows,
                       std::ptrdiff_t n, float* __restrict y)
{
    for (std::ptrdiff_t r = 0; r < rows; ++r)
        y[r] += dot(w + r * n, x, n);
}

inline void axpy(float a, const float* __restrict x, float* __restrict y, std::ptrdiff_t n)
{
    for (std::ptrdiff_t j = 0; j < n; ++j)
        y[j] += a * x[j];
}

// y += a0 x0 + a1 x1 + a2 x2 + a3 x3: a quarter of axpy's loads and stores of y.
inline void axpy4(const float* a, const float* __restrict x0, const float* __restrict x1,
                  const float* __restrict x2, const float* __restrict x3, float* __restrict y,
                  std::ptrdiff_t n)
{
    const float a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    for (std::ptrdiff_t j = 0; j < n; ++j)
        y[j] += (a0 * x0[j] + a1 * x1[j]) + (a2 * x2[j] + a3 * x3[j]);
}

// y += sum over rows r of a[r] * (row r of w): W^T a, row by row so that the loops stay contiguous.
inline void matvec_t_add(const float* __restrict w, const float* __restrict a, std::ptrdiff_t rows,
                         std::ptrdiff_t n, float* __restrict y)
{
    std::ptrdiff_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float* w0 = w + r * n;
        axpy4(a + r, w0, w0 + n, w0 + 2 * n, w0 + 3 * n, y, n);
    }
    for (; r < rows; ++r)
        axpy(a[r], w + r * n, y, n);
}

inline float sigmoid(float x)
{
    return 1.0f / (1.0f + std::exp(-x));
}

// glibc's tanhf (through expm1f) costs several expf; these LSTMs take ~30k tanh per episode. The
// absolute error stays ~1e-7, which is all the gates need.
inline float tanh_via_exp(float x)
{
    const float e = std::exp(-2.0f * std::fabs(x));
    return std::copysign((1.0f - e) / (1.0f + e), x);
}

const float* data(const torch::Tensor& t)
{
    return t.data_ptr<float>();
}

// The tensor's own storage after checking it is what the loops assume.
torch::Tensor checked(const torch::Tensor& t, const std::string& name, std::int64_t rows, std::int64_t cols)
{
    const std::int64_t numel = rows * cols;
    if (t.scalar_type() != torch::kFloat || !t.is_contiguous() || !t.device().is_cpu() || t.numel() != numel)
        throw Error(fmt::format(
            "fast policy: parameter {} must be a contiguous float32 CPU tensor of {} values", name, numel));
    return t;
}

float* grad_of(const torch::Tensor& p)
{
    auto& g = p.mutable_grad();
    if (!g.defined())
        g = torch::zeros_like(p);
    return g.data_ptr<float>();
}

// One LSTM over a sequence, as PyTorch's (gates i, f, g, o; both biases). `gates` receives the
// activations, `c`/`tanh_c` are [L, H], h_t goes to h + t * h_stride. Rows of `inputs` are
// `rows[t]` when given (embedding lookups), else t.
void lstm_forward(const float* w_ih, const float* w_hh, const float* b_ih, const float* b_hh,
                  std::ptrdiff_t in, std::ptrdiff_t hidden, std::ptrdiff_t length, const float* inputs,
                  std::int64_t input_stride, const std::int64_t* rows, bool reverse, float* gates, float* c,
                  float* tanh_c, float* h, std::int64_t h_stride)
{
    const std::ptrdiff_t g4 = 4 * hidden;
    // The input projections do not depend on the recurrence: all steps first.
    for (std::ptrdiff_t t = 0; t < length; ++t) {
        const float* x = inputs + (rows ? rows[t] : t) * input_stride;
        float* p = gates + t * g4;
        for (std::ptrdiff_t r = 0; r < g4; ++r)
            p[r] = b_ih[r] + b_hh[r];
        matvec_add(w_ih, x, g4, in, p);
    }
    for (std::ptrdiff_t s = 0; s < length; ++s) {
        const std::ptrdiff_t t = reverse ? length - 1 - s : s;
        const std::ptrdiff_t prev = reverse ? t + 1 : t - 1;
        float* p = gates + t * g4;
        float* ct = c + t * hidden;
        float* tct = tanh_c + t * hidden;
        float* ht = h + t * h_stride;
        if (s > 0)
            matvec_add(w_hh, h + prev * h_stride, g4, hidden, p);
        for (std::ptrdiff_t k = 0; k < hidden; ++k) {
            p[k] = sigmoid(p[k]);
            p[hidden + k] = sigmoid(p[hidden + k]);
            p[2 * hidden + k] = tanh_via_exp(p[2 * hidden + k]);
            p[3 * hidden + k] = sigmoid(p[3 * hidden + k]);
        }
        const float* cp = s > 0 ? c + prev * hidden : nullptr;
        for (std::ptrdiff_t k = 0; k < hidden; ++k) {
            const float fc = cp ? p[hidden + k] * cp[k] : 0.0f;
            ct[k] = fc + p[k] * p[2 * hidden + k];
            tct[k] = tanh_via_exp(ct[k]);
            ht[k] = p[3 * hidden + k] * tct[k];
        }
    }
}

} // namespace

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
    const auto param = [&](const std::string& name, std::int64_t rows, std::int64_t cols) {
        const auto* t = params.find(name);
        if (!t)
            throw Error(fmt::format("fast policy: the network has no parameter {}", name));
        return checked(*t, name, rows, cols);
    };
    const auto buffers = net_->named_buffers();
    const auto* emb = buffers.find("embeddings");
    if (!emb || emb->dim() != 2)
        throw Error("fast policy: the network has no embedding table");
    dims_.vocabulary = static_cast<std::ptrdiff_t>(emb->size(0));
    embeddings_ = checked(*emb, "embeddings", dims_.vocabulary, dims_.embedding);
    const std::ptrdiff_t h = dims_.hidden, d = dims_.decider;
    for (std::ptrdiff_t dir = 0; dir < 2; ++dir) {
        const std::string suffix = dir ? "_reverse" : "";
        encoder_[dir] = {param("encoder.weight_ih_l0" + suffix, 4 * h, dims_.embedding),
                         param("encoder.weight_hh_l0" + suffix, 4 * h, h),
                         param("encoder.bias_ih_l0" + suffix, 4 * h, 1),
                         param("encoder.bias_hh_l0" + suffix, 4 * h, 1)};
    }
    decider_ = {param("decider.weight_ih_l0", 4 * d, 2 * h), param("decider.weight_hh_l0", 4 * d, d),
                param("decider.bias_ih_l0", 4 * d, 1), param("decider.bias_hh_l0", 4 * d, 1)};
    fc1_ = {param("fc1.weight", dims_.linear, d + dims_.time), param("fc1.bias", dims_.linear, 1)};
    fc2_ = {param("fc2.weight", dims_.linear, dims_.linear), param("fc2.bias", dims_.linear, 1)};
    out_ = {param("out.weight", dims_.actions, dims_.linear), param("out.bias", dims_.actions, 1)};
}

void FastPolicy::encode(std::span<const std::int64_t> layers, SequenceTape& tape) const
{
    if (layers.empty())
        throw Error("fast policy: an architecture without layers");
    for (const auto id : layers)
        if (id < 0 || id >= dims_.vocabulary)
            throw Error(fmt::format("fast policy: layer id {} is outside the vocabulary (0..{})", id,
                                    dims_.vocabulary - 1));
    const auto len = static_cast<std::ptrdiff_t>(layers.size());
    const auto n = static_cast<std::size_t>(len);
    const std::ptrdiff_t h = dims_.hidden, d = dims_.decider;
    tape.ids.assign(layers.begin(), layers.end());
    tape.length = len;
    tape.encoded.resize(n * 2 * h);
    for (std::ptrdiff_t dir = 0; dir < 2; ++dir) {
        tape.enc_gates[dir].resize(n * 4 * h);
        tape.enc_c[dir].resize(n * h);
        tape.enc_tanh_c[dir].resize(n * h);
        const Lstm& l = encoder_[dir];
        lstm_forward(data(l.w_ih), data(l.w_hh), data(l.b_ih), data(l.b_hh), dims_.embedding, h, len,
                     data(embeddings_), dims_.embedding, tape.ids.data(), dir == 1,
                     tape.enc_gates[dir].data(), tape.enc_c[dir].data(), tape.enc_tanh_c[dir].data(),
                     tape.encoded.data() + dir * h, 2 * h);
    }
    tape.dec_gates.resize(n * 4 * d);
    tape.dec_c.resize(n * d);
    tape.dec_tanh_c.resize(n * d);
    tape.dec_h.resize(n * d);
    lstm_forward(data(decider_.w_ih), data(decider_.w_hh), data(decider_.b_ih), data(decider_.b_hh), 2 * h, d,
                 len, tape.encoded.data(), 2 * h, nullptr, false, tape.dec_gates.data(), tape.dec_c.data(),
                 tape.dec_tanh_c.data(), tape.dec_h.data(), d);
}

void FastPolicy::head(const SequenceTape& sequence, double time_left, double time_budget,
                      HeadTape& head) const
{
    const std::ptrdiff_t d = dims_.decider, f = dims_.linear, in = d + dims_.time;
    head.input.resize(static_cast<std::size_t>(in));
    std::copy_n(sequence.dec_h.data() + (sequence.length - 1) * d, d, head.input.data());
    const auto te = time_encoding(time_left, time_budget, dims_.time);
    std::copy(te.begin(), te.end(), head.input.begin() + d);
    head.hidden1.resize(static_cast<std::size_t>(f));
    head.hidden2.resize(static_cast<std::size_t>(f));
    head.logits.resize(static_cast<std::size_t>(dims_.actions));
    const auto layer = [](const Linear& l, const float* x, std::ptrdiff_t rows, std::ptrdiff_t cols, float* y,
                          bool relu) {
        const float* w = data(l.w);
        const float* b = data(l.b);
        std::copy_n(b, rows, y);
        matvec_add(w, x, rows, cols, y);
        if (relu)
            for (std::ptrdiff_t r = 0; r < rows; ++r)
                y[r] = std::max(y[r], 0.0f);
    };
    layer(fc1_, head.input.data(), f, in, head.hidden1.data(), true);
    layer(fc2_, head.hidden1.data(), f, f, head.hidden2.data(), true);
    layer(out_, head.hidden2.data(), dims_.actions, f, head.logits.data(), false);
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
    // Linear y = W x + b: dW += dy x^T, db += dy, dx = W^T dy (rows of W, so the loops stay contiguous).
    // Rows whose dy is 0 (a ReLU that was off) add nothing and are skipped.
    const auto linear_back = [](const Linear& l, const float* x, std::ptrdiff_t rows, std::ptrdiff_t cols,
                                const float* dy, float* dx) {
        const float* w = data(l.w);
        float* dw = grad_of(l.w);
        float* db = grad_of(l.b);
        for (std::ptrdiff_t r = 0; r < rows; ++r) {
            const float g = dy[r];
            if (g == 0.0f)
                continue;
            db[r] += g;
            axpy(g, x, dw + r * cols, cols);
            axpy(g, w + r * cols, dx, cols);
        }
    };
    linear_back(out_, head.hidden2.data(), a, f, d_logits.data(), d2);
    for (std::ptrdiff_t k = 0; k < f; ++k)
        if (!(head.hidden2[static_cast<std::size_t>(k)] > 0.0f))
            d2[k] = 0.0f;
    linear_back(fc2_, head.hidden1.data(), f, f, d2, d1);
    for (std::ptrdiff_t k = 0; k < f; ++k)
        if (!(head.hidden1[static_cast<std::size_t>(k)] > 0.0f))
            d1[k] = 0.0f;
    linear_back(fc1_, head.input.data(), f, in, d1, d_in);
    for (std::ptrdiff_t k = 0; k < d; ++k)
        d_last[static_cast<std::size_t>(k)] += d_in[k];
}

void FastPolicy::backward_lstm(const Lstm& l, std::ptrdiff_t in, std::ptrdiff_t hidden, std::ptrdiff_t length,
                               const float* inputs, std::int64_t input_stride, const std::int64_t* rows,
                               const float* gates, const float* c, const float* tanh_c, const float* h,
                               std::int64_t h_stride, bool reverse, const float* d_h, std::int64_t d_h_stride,
                               float* d_inputs)
{
    const std::ptrdiff_t g4 = 4 * hidden;
    const auto n = static_cast<std::size_t>(length);
    d_pre_.resize(n * g4);
    d_h_.assign(static_cast<std::size_t>(hidden), 0.0f);
    d_c_.assign(static_cast<std::size_t>(hidden), 0.0f);
    const float* w_ih = data(l.w_ih);
    const float* w_hh = data(l.w_hh);
    float* dh = d_h_.data();
    float* dc = d_c_.data();
    // Back through time: the processing order reversed.
    for (std::ptrdiff_t s = length - 1; s >= 0; --s) {
        const std::ptrdiff_t t = reverse ? length - 1 - s : s;
        const std::ptrdiff_t prev = reverse ? t + 1 : t - 1;
        if (d_h)
            for (std::ptrdiff_t k = 0; k < hidden; ++k)
                dh[k] += d_h[t * d_h_stride + k];
        const float* a = gates + t * g4;
        const float* tc = tanh_c + t * hidden;
        const float* cp = s > 0 ? c + prev * hidden : nullptr;
        float* dp = d_pre_.data() + t * g4;
        for (std::ptrdiff_t k = 0; k < hidden; ++k) {
            const float i = a[k], f = a[hidden + k], g = a[2 * hidden + k], o = a[3 * hidden + k];
            const float dck = dc[k] + dh[k] * o * (1.0f - tc[k] * tc[k]);
            dp[k] = dck * g * i * (1.0f - i);
            dp[hidden + k] = cp ? dck * cp[k] * f * (1.0f - f) : 0.0f;
            dp[2 * hidden + k] = dck * i * (1.0f - g * g);
            dp[3 * hidden + k] = dh[k] * tc[k] * o * (1.0f - o);
            dc[k] = dck * f;
        }
        std::fill_n(dh, hidden, 0.0f);
        if (s > 0)
            matvec_t_add(w_hh, dp, g4, hidden, dh);
    }
    // Weight gradients after the recurrence, over all steps at once: each row of dW then takes
    // every step's share while it is in cache.
    LstmGrad gr = grads_of(l);
    for (std::ptrdiff_t t = 0; t < length; ++t) {
        const float* dp = d_pre_.data() + t * g4;
        for (std::ptrdiff_t r = 0; r < g4; ++r) {
            gr.b_ih[r] += dp[r];
            gr.b_hh[r] += dp[r];
        }
    }
    // dW_ih row r += sum_t dP[t][r] x_t, four steps at a time; dW_hh likewise over the steps that
    // had a previous state (all but the first in processing order).
    const auto x_of = [&](std::ptrdiff_t t) { return inputs + (rows ? rows[t] : t) * input_stride; };
    const auto h_prev_of = [&](std::ptrdiff_t t) { return h + (reverse ? t + 1 : t - 1) * h_stride; };
    const std::ptrdiff_t first_with_prev = reverse ? 0 : 1, end_with_prev = reverse ? length - 1 : length;
    for (std::ptrdiff_t r = 0; r < g4; ++r) {
        float* dw_ih = gr.w_ih + r * in;
        float* dw_hh = gr.w_hh + r * hidden;
        const auto g = [&](std::ptrdiff_t t) { return d_pre_[static_cast<std::size_t>(t) * g4 + r]; };
        std::ptrdiff_t t = 0;
        for (; t + 4 <= length; t += 4) {
            const float a[4] = {g(t), g(t + 1), g(t + 2), g(t + 3)};
            axpy4(a, x_of(t), x_of(t + 1), x_of(t + 2), x_of(t + 3), dw_ih, in);
        }
        for (; t < length; ++t)
            axpy(g(t), x_of(t), dw_ih, in);
        t = first_with_prev;
        for (; t + 4 <= end_with_prev; t += 4) {
            const float a[4] = {g(t), g(t + 1), g(t + 2), g(t + 3)};
            axpy4(a, h_prev_of(t), h_prev_of(t + 1), h_prev_of(t + 2), h_prev_of(t + 3), dw_hh, hidden);
        }
        for (; t < end_with_prev; ++t)
            axpy(g(t), h_prev_of(t), dw_hh, hidden);
    }
    if (d_inputs) {
        std::fill_n(d_inputs, n * in, 0.0f);
        for (std::ptrdiff_t t = 0; t < length; ++t) {
            const float* dp = d_pre_.data() + t * g4;
            matvec_t_add(w_ih, dp, g4, in, d_inputs + t * in);
        }
    }
}

FastPolicy::LstmGrad FastPolicy::grads_of(const Lstm& l)
{
    return {grad_of(l.w_ih), grad_of(l.w_hh), grad_of(l.b_ih), grad_of(l.b_hh)};
}

void FastPolicy::backward_sequence(const SequenceTape& sequence, std::span<const float> d_last)
{
    const std::ptrdiff_t h = dims_.hidden, d = dims_.decider, len = sequence.length;
    if (static_cast<std::ptrdiff_t>(d_last.size()) != d || len < 1)
        throw Error("fast policy: backward_sequence: gradient sizes do not fit the network");
    // The decider sees an incoming gradient only at its last step.
    d_encoded_.resize(static_cast<std::size_t>(len) * 2 * h);
    std::vector<float>& d_dec_h = d_dec_h_;
    d_dec_h.assign(static_cast<std::size_t>(len) * d, 0.0f);
    std::copy(d_last.begin(), d_last.end(), d_dec_h.begin() + (len - 1) * d);
    backward_lstm(decider_, 2 * h, d, len, sequence.encoded.data(), 2 * h, nullptr, sequence.dec_gates.data(),
                  sequence.dec_c.data(), sequence.dec_tanh_c.data(), sequence.dec_h.data(), d, false,
                  d_dec_h.data(), d, d_encoded_.data());
    for (std::ptrdiff_t dir = 0; dir < 2; ++dir)
        backward_lstm(encoder_[dir], dims_.embedding, h, len, data(embeddings_), dims_.embedding,
                      sequence.ids.data(), sequence.enc_gates[dir].data(), sequence.enc_c[dir].data(),
                      sequence.enc_tanh_c[dir].data(), sequence.encoded.data() + dir * h, 2 * h, dir == 1,
                      d_encoded_.data() + dir * h, 2 * h, nullptr);
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
        file.add("adam/exp_avg/" + names.at(i), exp_avg_[i]);
        file.add("adam/exp_avg_sq/" + names.at(i), exp_avg_sq_[i]);
    }
}

void FastAdam::load(const TensorFile& file, const std::vector<std::string>& names)
{
    std::vector<torch::Tensor> m, v;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const auto shape = params_[i].sizes();
        m.push_back(file.tensor("adam/exp_avg/" + names.at(i), torch::kFloat32, shape));
        v.push_back(file.tensor("adam/exp_avg_sq/" + names.at(i), torch::kFloat32, shape));
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
