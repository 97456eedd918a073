// The loops the hand-written policy kernels share (FastPolicy, FastStructural): dot products, LSTM
// and Linear layers forward and backward, over the parameters' own storage. Internal to core/policy/.
#pragma once

#include <torch/nn/module.h>
#include <torch/types.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rlda::core::agent::kernels {

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

inline const float* data(const torch::Tensor& t)
{
    return t.data_ptr<float>();
}

// The tensor's own storage after checking it is what the loops assume: float32, contiguous, on the
// CPU, rows x cols values. Error naming the parameter otherwise.
torch::Tensor checked(const torch::Tensor& t, const std::string& name, std::int64_t rows, std::int64_t cols);

// The parameter's .grad() storage, allocated (zeros) when undefined; gradients accumulate there.
float* grad_of(const torch::Tensor& p);

struct Lstm {
    torch::Tensor w_ih, w_hh, b_ih, b_hh;
};
struct Linear {
    torch::Tensor w, b;
};

using Parameters = torch::OrderedDict<std::string, torch::Tensor>;
// A parameter of a module by its named_parameters name, checked(); Error when it has none.
torch::Tensor parameter(const Parameters& params, const std::string& name, std::int64_t rows, std::int64_t cols);
// torch::nn::LSTM's one layer `name` (direction `suffix`: "" or "_reverse"), in inputs, hidden units.
Lstm lstm_parameters(const Parameters& params, const std::string& name, const std::string& suffix, std::int64_t in,
                     std::int64_t hidden);
// torch::nn::Linear `name`, in -> out.
Linear linear_parameters(const Parameters& params, const std::string& name, std::int64_t in, std::int64_t out);

// One LSTM over a sequence, as PyTorch's (gates i, f, g, o; both biases). `gates` receives the
// activations [L, 4H], `c`/`tanh_c` are [L, H], h_t goes to h + t * h_stride. Rows of `inputs`
// are `rows[t]` when given (embedding lookups), else t.
void lstm_forward(const Lstm& l, std::ptrdiff_t in, std::ptrdiff_t hidden, std::ptrdiff_t length, const float* inputs,
                  std::int64_t input_stride, const std::int64_t* rows, bool reverse, float* gates, float* c,
                  float* tanh_c, float* h, std::int64_t h_stride);

// What lstm_backward reuses between calls, so that an episode allocates nothing.
struct LstmScratch {
    std::vector<float> d_pre, d_h, d_c;
};

// The backward of lstm_forward (same arguments, its outputs as read back): dL/dh_t arrives at
// d_h + t * d_h_stride (none when d_h is null, but through the recurrence); the weights' share is
// added to their .grad(), and dL/d(input row t) is added to d_inputs + t * in when d_inputs is
// given (the two directions of a BiLSTM read the same rows).
void lstm_backward(const Lstm& l, std::ptrdiff_t in, std::ptrdiff_t hidden, std::ptrdiff_t length,
                   const float* inputs, std::int64_t input_stride, const std::int64_t* rows, const float* gates,
                   const float* c, const float* tanh_c, const float* h, std::int64_t h_stride, bool reverse,
                   const float* d_h, std::int64_t d_h_stride, float* d_inputs, LstmScratch& scratch);

// The recurrent part both networks share: a BiLSTM (`hidden` units a direction) over the layers'
// inputs, then the decider LSTM (`decider` units) over its outputs, whose last state is the context.
struct Recurrent {
    std::array<Lstm, 2> encoder; // encoder[1] runs in reverse
    Lstm decider;
    std::ptrdiff_t in = 0, hidden = 0, decider_size = 0;
};
// The LSTMs "encoder" (bidirectional, in -> hidden) and "decider" (2 hidden -> decider) of a module.
Recurrent recurrent_parameters(const Parameters& params, std::int64_t in, std::int64_t hidden, std::int64_t decider);

// What the backward pass needs from one forward of Recurrent, indexed by sequence position t.
struct RecurrentTape {
    std::ptrdiff_t length = 0;
    // Per encoder direction (0 forward, 1 reverse): gate activations [L, 4H] in PyTorch's order
    // (i, f, g, o), cell states [L, H], tanh(c) [L, H].
    std::vector<float> enc_gates[2], enc_c[2], enc_tanh_c[2];
    std::vector<float> encoded;                             // [L, 2H]: forward h_t ++ reverse h_t
    std::vector<float> dec_gates, dec_c, dec_tanh_c, dec_h; // [L, 4D], [L, D] x3
};

// Over `length` input rows (as lstm_forward reads them: `rows[t]` when given, else t).
void recurrent_forward(const Recurrent& r, std::ptrdiff_t length, const float* inputs, std::int64_t input_stride,
                       const std::int64_t* rows, RecurrentTape& tape);

// What recurrent_backward reuses between calls.
struct RecurrentScratch {
    LstmScratch lstm;
    std::vector<float> d_encoded, d_dec_h;
};

// The LSTMs' share of the gradients for dL/d(decider's last h) `d_last` [D] and, when given,
// dL/d(encoded) reaching the encoder's outputs by another way `d_encoded` [L, 2H]; dL/d(input
// row t) is added to d_inputs + t * in when d_inputs is given.
void recurrent_backward(const Recurrent& r, const RecurrentTape& tape, const float* inputs, std::int64_t input_stride,
                        const std::int64_t* rows, const float* d_last, const float* d_encoded, float* d_inputs,
                        RecurrentScratch& scratch);

// y = W x + b, ReLU'd when `relu` (W [rows, cols]).
void linear_forward(const Linear& l, const float* x, std::ptrdiff_t rows, std::ptrdiff_t cols, float* y, bool relu);
// Its backward for dL/dy: dW += dy x^T, db += dy, dx += W^T dy unless dx is null (rows of W, so
// that the loops stay contiguous). Rows whose dy is 0 (a ReLU that was off) add nothing and are skipped.
void linear_backward(const Linear& l, const float* x, std::ptrdiff_t rows, std::ptrdiff_t cols, const float* dy,
                     float* dx);
// dL/dy of a ReLU's output y becomes dL/d(its input): zero where it was off.
inline void relu_backward(const float* __restrict y, std::ptrdiff_t n, float* __restrict d)
{
    for (std::ptrdiff_t k = 0; k < n; ++k)
        if (!(y[k] > 0.0f))
            d[k] = 0.0f;
}

} // namespace rlda::core::agent::kernels
