// StructuralNet's forward and backward as plain loops over its own parameter storage: no autograd.
#pragma once

#include "core/policy/fast_kernels.h"
#include "core/policy/structural_policy.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rlda::core::agent {

// What the backward pass needs from the sequence part (layer rows -> embed Linear + ReLU -> BiLSTM
// -> decider LSTM) of one forward, and each block's mean of the BiLSTM outputs. It depends only on
// the input rows, so decisions of an episode that see the same architecture share one.
struct StructuralSequenceTape {
    std::vector<float> input; // [L, kLayerFeatures + 1]: the rows and blocks it was encoded from
    std::ptrdiff_t length = 0;
    std::ptrdiff_t blocks = 0;             // original blocks: the largest block + 1
    std::vector<std::int64_t> block;       // [L]: each layer's block, -1 for none
    std::vector<float> inverse_count;      // [blocks]: 1 / max(1, the block's layers)
    std::vector<std::ptrdiff_t> targets;   // [operations]: the blocks each operation's head scores
    std::vector<float> embedded;           // [L, E]: ReLU(embed(rows))
    kernels::RecurrentTape lstms;          // embedded -> BiLSTM -> decider
    std::vector<float> per_block;          // [blocks, 2H]: the means of lstms.encoded
};

// The MLPs of one decision: their inputs, the ReLU outputs and the logits. S and G: the state
// encoder's block and global columns (0 and 0 for the structural encoder).
struct StructuralHeadTape {
    std::vector<float> context;                // [D + T + G]: the decider's last h ++ the time encoding ++ globals
    std::vector<float> block_input;            // [blocks, 2H + S + D + T + G]: per_block ++ state row ++ context
    std::vector<float> block1, block2;         // [blocks, decider_linear_size]
    std::vector<float> stay1, stay2;           // [decider_linear_size]
    std::vector<float> logits;                 // StructuralNetImpl::forward's, in its order
};

struct StructuralTape {
    StructuralSequenceTape sequence;
    StructuralHeadTape head;
};

// Binds to a StructuralNet and reads its parameters in place at every call (they must be float32,
// contiguous, on the CPU: what StructuralNet creates), so optimizer steps and loads need no resync.
// Gradients go to the parameters' .grad() tensors, allocated here when undefined, and are
// accumulated: zero them once per update, as with autograd. Not thread-safe (scratch buffers).
class FastStructural {
public:
    // An architecture as structural_input() makes it: [L, kLayerFeatures + 1] floats, row-major.
    using Input = std::span<const float>;
    using Sequence = StructuralSequenceTape;
    using Head = StructuralHeadTape;
    using Tape = StructuralTape;

    explicit FastStructural(StructuralNet net);

    // Error when the input is not rows of kLayerFeatures + 1 values with blocks -1..n, n >= 0.
    void encode(Input input, Sequence& tape) const;
    // Logits land in head.logits. `state` as StructuralNetImpl::forward takes it (check_state).
    void head(const Sequence& sequence, double time_left, double time_budget, Head& head,
              const StateEncoding* state = nullptr) const;
    void forward(Input input, double time_left, double time_budget, Tape& tape,
                 const StateEncoding* state = nullptr) const
    {
        encode(input, tape.sequence);
        head(tape.sequence, time_left, time_budget, tape.head, state);
    }
    // Whether `sequence` was encoded from `input` (decisions that see the same share it).
    static bool reads(const Sequence& sequence, Input input);

    // What flows from the heads back into a sequence: dL/d(decider's last h) [D] ++ dL/d(per_block)
    // [blocks, 2H]; this many values.
    std::size_t sequence_gradient_size(const Sequence& sequence) const;
    // The heads' share of the gradients for dL/dlogits; adds to `d_sequence` (see above).
    void backward_head(const Sequence& sequence, const Head& head, std::span<const float> d_logits,
                       std::span<float> d_sequence);
    // The sequence part's share, embed layer included, for `d_sequence` summed over the decisions
    // that share `sequence`.
    void backward_sequence(const Sequence& sequence, std::span<const float> d_sequence);
    void backward(const Tape& tape, std::span<const float> d_logits);

private:
    struct Dims {
        std::ptrdiff_t embedding, hidden, decider, time, linear, block_state, globals;
    };

    StructuralNet net_;
    Dims dims_{};
    kernels::Linear embed_;
    kernels::Recurrent lstms_;
    kernels::Linear block1_, block2_, stay1_, stay2_, stay_out_;
    std::vector<kernels::Linear> block_out_; // one per operation, in the network's order
    // Scratch of the backward pass, reused so that an episode allocates nothing.
    kernels::RecurrentScratch scratch_;
    std::vector<float> d_encoded_, d_embedded_, d_block_, d_stay_, d_context_;
};

} // namespace rlda::core::agent
