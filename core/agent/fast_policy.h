// PolicyNet's forward and backward as plain loops over its own parameter storage: no autograd.
#pragma once

#include "core/agent/policy.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace torch::serialize {
class InputArchive;
} // namespace torch::serialize

namespace rlda::core {
class TensorFile;
class TensorFileWriter;
} // namespace rlda::core

namespace rlda::core::agent {

// What the backward pass needs from the sequence part (embeddings -> BiLSTM -> decider LSTM) of
// one forward. It depends only on the layers, so decisions of an episode that see the same
// architecture (Do Nothing leaves it unchanged) share one.
struct SequenceTape {
    std::vector<std::int64_t> ids;
    std::ptrdiff_t length = 0;
    // Per encoder direction (0 forward, 1 reverse), indexed by sequence position t:
    // gate activations [L, 4H] in PyTorch's order (i, f, g, o), cell states [L, H], tanh(c) [L, H].
    std::vector<float> enc_gates[2], enc_c[2], enc_tanh_c[2];
    std::vector<float> encoded; // [L, 2H]: forward h_t ++ reverse h_t, the decider's input
    std::vector<float> dec_gates, dec_c, dec_tanh_c, dec_h; // [L, 4D], [L, D] x3
};

// The MLP head of one decision: its input, the ReLU outputs and the logits.
struct HeadTape {
    std::vector<float> input; // [D + time encoding]: the decider's last h ++ the time encoding
    std::vector<float> hidden1, hidden2;
    std::vector<float> logits;
};

struct PolicyTape {
    SequenceTape sequence;
    HeadTape head;
};

// Binds to a PolicyNet and reads its parameters in place at every call (they must be float32,
// contiguous, on the CPU: what PolicyNet creates), so optimizer steps and loads need no resync.
// Gradients go to the parameters' .grad() tensors, allocated here when undefined, and are
// accumulated: zero them once per update, as with autograd. Not thread-safe (scratch buffers).
class FastPolicy {
public:
    explicit FastPolicy(PolicyNet net);

    void encode(std::span<const std::int64_t> layers, SequenceTape& tape) const;
    // Logits land in head.logits.
    void head(const SequenceTape& sequence, double time_left, double time_budget, HeadTape& head) const;
    void forward(std::span<const std::int64_t> layers, double time_left, double time_budget,
                 PolicyTape& tape) const
    {
        encode(layers, tape.sequence);
        head(tape.sequence, time_left, time_budget, tape.head);
    }

    // The head's share of the gradients for dL/dlogits; returns (adds to `d_last`) dL/d(decider's last h).
    void backward_head(const HeadTape& head, std::span<const float> d_logits, std::span<float> d_last);
    // The LSTMs' share for dL/d(decider's last h), summed over the decisions that share `sequence`.
    void backward_sequence(const SequenceTape& sequence, std::span<const float> d_last);
    void backward(const PolicyTape& tape, std::span<const float> d_logits);

    std::int64_t decider_size() const { return dims_.decider; }
    std::int64_t actions() const { return dims_.actions; }

private:
    struct Dims {
        std::ptrdiff_t embedding, hidden, decider, time, linear, actions, vocabulary;
    };
    struct Lstm {
        torch::Tensor w_ih, w_hh, b_ih, b_hh;
    };
    struct Linear {
        torch::Tensor w, b;
    };
    struct LstmGrad {
        float *w_ih, *w_hh, *b_ih, *b_hh;
    };

    static LstmGrad grads_of(const Lstm& l);
    void backward_lstm(const Lstm& l, std::ptrdiff_t in, std::ptrdiff_t hidden, std::ptrdiff_t length,
                       const float* inputs, std::int64_t input_stride, const std::int64_t* rows,
                       const float* gates, const float* c, const float* tanh_c, const float* h,
                       std::int64_t h_stride, bool reverse, const float* d_h, std::int64_t d_h_stride,
                       float* d_inputs);

    PolicyNet net_;
    Dims dims_{};
    torch::Tensor embeddings_;
    Lstm encoder_[2], decider_;
    Linear fc1_, fc2_, out_;
    // Scratch of the backward pass, reused so that an episode allocates nothing.
    std::vector<float> d_pre_, d_encoded_, d_dec_h_, d_h_, d_c_, d_hidden_;
};

// torch::optim::Adam 1.13 without weight decay or amsgrad, as plain loops over the parameters'
// .grad() (its ~8 ops per parameter tensor would cost as much as the policy's whole backward):
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
//   p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps).
// Every parameter takes part in every step (as torch's with grads zeroed, not set to none).
class FastAdam {
public:
    FastAdam(std::vector<torch::Tensor> parameters, double lr, double beta1 = 0.9, double beta2 = 0.999,
             double eps = 1e-8);
    // One step; the gradients are then zeroed, ready to accumulate the next update's.
    void step_and_zero_grad();
    double lr() const { return lr_; }
    void set_lr(double lr) { lr_ = lr; }
    std::int64_t steps() const { return steps_; }
    // The state as the tensors "adam/exp_avg/<name>" and "adam/exp_avg_sq/<name>" and the header
    // values "adam/step" and "adam/lr", names[i] naming the i-th parameter.
    void save(TensorFileWriter& file, const std::vector<std::string>& names) const;
    // Error naming the file when the state does not fit the parameters; nothing changes then.
    void load(const TensorFile& file, const std::vector<std::string>& names);
    // The format before tensor files (policy files of version 0). Error (or torch's c10::Error for
    // a missing key) when the state does not fit the parameters.
    void load(torch::serialize::InputArchive& archive);

private:
    std::vector<torch::Tensor> params_, exp_avg_, exp_avg_sq_;
    double lr_, beta1_, beta2_, eps_;
    std::int64_t steps_ = 0;
};

} // namespace rlda::core::agent
