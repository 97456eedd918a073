// The LSTM and Linear loops both hand-written policy kernels run (fast_policy.cpp, fast_structural.cpp).
#include "core/policy/fast_kernels.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>

namespace rlda::core::agent::kernels {

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

torch::Tensor parameter(const Parameters& params, const std::string& name, std::int64_t rows, std::int64_t cols)
{
    const auto* t = params.find(name);
    if (!t)
        throw Error(fmt::format("fast policy: the network has no parameter {}", name));
    return checked(*t, name, rows, cols);
}

Lstm lstm_parameters(const Parameters& params, const std::string& name, const std::string& suffix, std::int64_t in,
                     std::int64_t hidden)
{
    return {parameter(params, name + ".weight_ih_l0" + suffix, 4 * hidden, in),
            parameter(params, name + ".weight_hh_l0" + suffix, 4 * hidden, hidden),
            parameter(params, name + ".bias_ih_l0" + suffix, 4 * hidden, 1),
            parameter(params, name + ".bias_hh_l0" + suffix, 4 * hidden, 1)};
}

Linear linear_parameters(const Parameters& params, const std::string& name, std::int64_t in, std::int64_t out)
{
    return {parameter(params, name + ".weight", out, in), parameter(params, name + ".bias", out, 1)};
}

void lstm_forward(const Lstm& l, std::ptrdiff_t in, std::ptrdiff_t hidden, std::ptrdiff_t length, const float* inputs,
                  std::int64_t input_stride, const std::int64_t* rows, bool reverse, float* gates, float* c,
                  float* tanh_c, float* h, std::int64_t h_stride)
{
    const float* w_ih = data(l.w_ih);
    const float* w_hh = data(l.w_hh);
    const float* b_ih = data(l.b_ih);
    const float* b_hh = data(l.b_hh);
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

void lstm_backward(const Lstm& l, std::ptrdiff_t in, std::ptrdiff_t hidden, std::ptrdiff_t length,
                   const float* inputs, std::int64_t input_stride, const std::int64_t* rows, const float* gates,
                   const float* c, const float* tanh_c, const float* h, std::int64_t h_stride, bool reverse,
                   const float* d_h, std::int64_t d_h_stride, float* d_inputs, LstmScratch& scratch)
{
    const std::ptrdiff_t g4 = 4 * hidden;
    const auto n = static_cast<std::size_t>(length);
    std::vector<float>& d_pre = scratch.d_pre;
    d_pre.resize(n * g4);
    scratch.d_h.assign(static_cast<std::size_t>(hidden), 0.0f);
    scratch.d_c.assign(static_cast<std::size_t>(hidden), 0.0f);
    const float* w_ih = data(l.w_ih);
    const float* w_hh = data(l.w_hh);
    float* dh = scratch.d_h.data();
    float* dc = scratch.d_c.data();
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
        float* dp = d_pre.data() + t * g4;
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
    float* gw_ih = grad_of(l.w_ih);
    float* gw_hh = grad_of(l.w_hh);
    float* gb_ih = grad_of(l.b_ih);
    float* gb_hh = grad_of(l.b_hh);
    for (std::ptrdiff_t t = 0; t < length; ++t) {
        const float* dp = d_pre.data() + t * g4;
        for (std::ptrdiff_t r = 0; r < g4; ++r) {
            gb_ih[r] += dp[r];
            gb_hh[r] += dp[r];
        }
    }
    // dW_ih row r += sum_t dP[t][r] x_t, four steps at a time; dW_hh likewise over the steps that
    // had a previous state (all but the first in processing order).
    const auto x_of = [&](std::ptrdiff_t t) { return inputs + (rows ? rows[t] : t) * input_stride; };
    const auto h_prev_of = [&](std::ptrdiff_t t) { return h + (reverse ? t + 1 : t - 1) * h_stride; };
    const std::ptrdiff_t first_with_prev = reverse ? 0 : 1, end_with_prev = reverse ? length - 1 : length;
    for (std::ptrdiff_t r = 0; r < g4; ++r) {
        float* dw_ih = gw_ih + r * in;
        float* dw_hh = gw_hh + r * hidden;
        const auto g = [&](std::ptrdiff_t t) { return d_pre[static_cast<std::size_t>(t) * g4 + r]; };
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
    if (d_inputs)
        for (std::ptrdiff_t t = 0; t < length; ++t) {
            const float* dp = d_pre.data() + t * g4;
            matvec_t_add(w_ih, dp, g4, in, d_inputs + t * in);
        }
}

Recurrent recurrent_parameters(const Parameters& params, std::int64_t in, std::int64_t hidden, std::int64_t decider)
{
    return {{{lstm_parameters(params, "encoder", "", in, hidden), lstm_parameters(params, "encoder", "_reverse", in, hidden)}},
            lstm_parameters(params, "decider", "", 2 * hidden, decider),
            static_cast<std::ptrdiff_t>(in),
            static_cast<std::ptrdiff_t>(hidden),
            static_cast<std::ptrdiff_t>(decider)};
}

void recurrent_forward(const Recurrent& r, std::ptrdiff_t length, const float* inputs, std::int64_t input_stride,
                       const std::int64_t* rows, RecurrentTape& tape)
{
    const auto n = static_cast<std::size_t>(length);
    const std::ptrdiff_t h = r.hidden, d = r.decider_size;
    tape.length = length;
    tape.encoded.resize(n * 2 * h);
    for (std::ptrdiff_t dir = 0; dir < 2; ++dir) {
        tape.enc_gates[dir].resize(n * 4 * h);
        tape.enc_c[dir].resize(n * h);
        tape.enc_tanh_c[dir].resize(n * h);
        lstm_forward(r.encoder[dir], r.in, h, length, inputs, input_stride, rows, dir == 1, tape.enc_gates[dir].data(),
                     tape.enc_c[dir].data(), tape.enc_tanh_c[dir].data(), tape.encoded.data() + dir * h, 2 * h);
    }
    tape.dec_gates.resize(n * 4 * d);
    tape.dec_c.resize(n * d);
    tape.dec_tanh_c.resize(n * d);
    tape.dec_h.resize(n * d);
    lstm_forward(r.decider, 2 * h, d, length, tape.encoded.data(), 2 * h, nullptr, false, tape.dec_gates.data(),
                 tape.dec_c.data(), tape.dec_tanh_c.data(), tape.dec_h.data(), d);
}

void recurrent_backward(const Recurrent& r, const RecurrentTape& tape, const float* inputs, std::int64_t input_stride,
                        const std::int64_t* rows, const float* d_last, const float* d_encoded, float* d_inputs,
                        RecurrentScratch& scratch)
{
    const std::ptrdiff_t h = r.hidden, d = r.decider_size, len = tape.length;
    const auto n = static_cast<std::size_t>(len);
    // The decider sees an incoming gradient only at its last step.
    scratch.d_dec_h.assign(n * d, 0.0f);
    std::copy_n(d_last, d, scratch.d_dec_h.data() + (len - 1) * d);
    if (d_encoded)
        scratch.d_encoded.assign(d_encoded, d_encoded + n * 2 * h);
    else
        scratch.d_encoded.assign(n * 2 * h, 0.0f);
    lstm_backward(r.decider, 2 * h, d, len, tape.encoded.data(), 2 * h, nullptr, tape.dec_gates.data(),
                  tape.dec_c.data(), tape.dec_tanh_c.data(), tape.dec_h.data(), d, false, scratch.d_dec_h.data(), d,
                  scratch.d_encoded.data(), scratch.lstm);
    for (std::ptrdiff_t dir = 0; dir < 2; ++dir)
        lstm_backward(r.encoder[dir], r.in, h, len, inputs, input_stride, rows, tape.enc_gates[dir].data(),
                      tape.enc_c[dir].data(), tape.enc_tanh_c[dir].data(), tape.encoded.data() + dir * h, 2 * h,
                      dir == 1, scratch.d_encoded.data() + dir * h, 2 * h, d_inputs, scratch.lstm);
}

void linear_forward(const Linear& l, const float* x, std::ptrdiff_t rows, std::ptrdiff_t cols, float* y, bool relu)
{
    std::copy_n(data(l.b), rows, y);
    matvec_add(data(l.w), x, rows, cols, y);
    if (relu)
        for (std::ptrdiff_t r = 0; r < rows; ++r)
            y[r] = std::max(y[r], 0.0f);
}

void linear_backward(const Linear& l, const float* x, std::ptrdiff_t rows, std::ptrdiff_t cols, const float* dy,
                     float* dx)
{
    const float* w = data(l.w);
    float* dw = grad_of(l.w);
    float* db = grad_of(l.b);
    for (std::ptrdiff_t r = 0; r < rows; ++r) {
        const float g = dy[r];
        if (g == 0.0f)
            continue;
        db[r] += g;
        axpy(g, x, dw + r * cols, cols);
        if (dx)
            axpy(g, w + r * cols, dx, cols);
    }
}

} // namespace rlda::core::agent::kernels
