// PolicyNet's forward and backward as plain loops over its own parameter storage: no autograd.
#pragma once

#include "core/policy/fast_kernels.h"
#include "core/policy/policy.h"

#include <algorithm>
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
    kernels::RecurrentTape lstms; // embeddings of the ids -> BiLSTM -> decider
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
    using Input = std::span<const std::int64_t>; // vocabulary ids of the leaf layers
    using Sequence = SequenceTape;
    using Head = HeadTape;
    using Tape = PolicyTape;

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

    // Whether `sequence` was encoded from `layers` (decisions that see the same share it).
    static bool reads(const SequenceTape& sequence, std::span<const std::int64_t> layers)
    {
        return std::ranges::equal(sequence.ids, layers);
    }

    // The head's share of the gradients for dL/dlogits; returns (adds to `d_last`) dL/d(decider's last h).
    void backward_head(const HeadTape& head, std::span<const float> d_logits, std::span<float> d_last);
    // The same in FastStructural's terms (fast_episode.h): what flows back into a sequence is d_last.
    std::size_t sequence_gradient_size(const SequenceTape&) const { return static_cast<std::size_t>(dims_.decider); }
    void backward_head(const SequenceTape&, const HeadTape& head, std::span<const float> d_logits,
                       std::span<float> d_last)
    {
        backward_head(head, d_logits, d_last);
    }
    // The LSTMs' share for dL/d(decider's last h), summed over the decisions that share `sequence`.
    void backward_sequence(const SequenceTape& sequence, std::span<const float> d_last);
    void backward(const PolicyTape& tape, std::span<const float> d_logits);

    std::int64_t decider_size() const { return dims_.decider; }
    std::int64_t actions() const { return dims_.actions; }

private:
    struct Dims {
        std::ptrdiff_t embedding, hidden, decider, time, linear, actions, vocabulary;
    };

    PolicyNet net_;
    Dims dims_{};
    torch::Tensor embeddings_;
    kernels::Recurrent lstms_;
    kernels::Linear fc1_, fc2_, out_;
    // Scratch of the backward pass, reused so that an episode allocates nothing.
    kernels::RecurrentScratch scratch_;
    std::vector<float> d_hidden_;
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
