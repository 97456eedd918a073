// The structural policy network by hand: per-op dispatch and autograd cost far more than its flops.
#include "core/policy/fast_structural.h"

#include "core/model/actions.h"
#include "core/policy/policy.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlda::core::agent {

using namespace kernels;

namespace {

constexpr std::ptrdiff_t kFeatures = kLayerFeatures;
constexpr std::ptrdiff_t kRowWidth = kLayerFeatures + 1; // the features, then the block

} // namespace

FastStructural::FastStructural(StructuralNet net) : net_(std::move(net))
{
    const auto& s = net_->sizes();
    dims_ = {static_cast<std::ptrdiff_t>(s.embedding_size), static_cast<std::ptrdiff_t>(s.hidden_size),
             static_cast<std::ptrdiff_t>(s.decider_lstm_size), static_cast<std::ptrdiff_t>(s.time_encoding_size),
             static_cast<std::ptrdiff_t>(s.decider_linear_size), static_cast<std::ptrdiff_t>(block_state_width(s)),
             static_cast<std::ptrdiff_t>(global_state_width(s))};
    const auto params = net_->named_parameters();
    const std::ptrdiff_t e = dims_.embedding, h = dims_.hidden, d = dims_.decider, l = dims_.linear;
    const std::ptrdiff_t context = d + dims_.time + dims_.globals;
    embed_ = linear_parameters(params, "embed", kFeatures, e);
    lstms_ = recurrent_parameters(params, e, h, d);
    block1_ = linear_parameters(params, "block1", 2 * h + dims_.block_state + context, l);
    block2_ = linear_parameters(params, "block2", l, l);
    const auto& ops = net_->operations();
    for (std::size_t i = 0; i < ops.size(); ++i)
        block_out_.push_back(
            linear_parameters(params, i == 0 ? "block_out" : "block_out_" + model::to_string(ops[i]), l, 1));
    stay1_ = linear_parameters(params, "stay1", context, l);
    stay2_ = linear_parameters(params, "stay2", l, l);
    stay_out_ = linear_parameters(params, "stay_out", l, 1);
}

bool FastStructural::reads(const Sequence& sequence, Input input)
{
    return std::ranges::equal(sequence.input, input);
}

void FastStructural::encode(Input input, Sequence& tape) const
{
    if (input.empty() || input.size() % kRowWidth != 0)
        throw Error(fmt::format("fast policy: a structural input is rows of {} values (see structural_input())",
                                kRowWidth));
    const auto len = static_cast<std::ptrdiff_t>(input.size()) / kRowWidth;
    const auto n = static_cast<std::size_t>(len);
    // The blocks as StructuralNetImpl::forward reads them (max + 1); each one a layer's index at
    // most, as structural_input() makes them, which bounds what is allocated here.
    tape.block.resize(n);
    std::int64_t top = -1;
    for (std::ptrdiff_t t = 0; t < len; ++t) {
        const float b = input[static_cast<std::size_t>(t * kRowWidth + kFeatures)];
        if (!(b >= -1.0f && b < static_cast<float>(len)) || b != std::floor(b))
            throw Error(fmt::format("fast policy: layer {} has block {}, not one of -1..{}", t, b, len - 1));
        tape.block[static_cast<std::size_t>(t)] = static_cast<std::int64_t>(b);
        top = std::max(top, tape.block[static_cast<std::size_t>(t)]);
    }
    // ActionSpace refuses an architecture without blocks, as the reference path does.
    const model::ActionSpace space(static_cast<int>(top + 1), net_->operations());
    tape.input.assign(input.begin(), input.end());
    tape.length = len;
    tape.blocks = static_cast<std::ptrdiff_t>(top + 1);
    tape.targets.clear();
    for (const auto op : net_->operations())
        tape.targets.push_back(space.targets(op));
    tape.inverse_count.assign(static_cast<std::size_t>(tape.blocks), 0.0f);
    for (const auto b : tape.block)
        if (b >= 0)
            tape.inverse_count[static_cast<std::size_t>(b)] += 1.0f;
    for (float& c : tape.inverse_count)
        c = 1.0f / std::max(c, 1.0f); // clamp_min(1): a block without layers has a mean of 0

    const std::ptrdiff_t e = dims_.embedding, h = dims_.hidden;
    tape.embedded.resize(n * e);
    for (std::ptrdiff_t t = 0; t < len; ++t)
        linear_forward(embed_, tape.input.data() + t * kRowWidth, e, kFeatures, tape.embedded.data() + t * e, true);
    recurrent_forward(lstms_, len, tape.embedded.data(), e, nullptr, tape.lstms);
    tape.per_block.assign(static_cast<std::size_t>(tape.blocks * 2 * h), 0.0f);
    for (std::ptrdiff_t t = 0; t < len; ++t) {
        const auto b = tape.block[static_cast<std::size_t>(t)];
        if (b >= 0)
            axpy(tape.inverse_count[static_cast<std::size_t>(b)], tape.lstms.encoded.data() + t * 2 * h,
                 tape.per_block.data() + b * 2 * h, 2 * h);
    }
}

void FastStructural::head(const Sequence& sequence, double time_left, double time_budget, Head& head,
                          const StateEncoding* state) const
{
    const std::ptrdiff_t p = 2 * dims_.hidden, d = dims_.decider, c = d + dims_.time + dims_.globals,
                         sw = dims_.block_state, k = p + sw + c, l = dims_.linear;
    const std::ptrdiff_t blocks = sequence.blocks;
    check_state(net_->sizes(), state, blocks);
    head.context.resize(static_cast<std::size_t>(c));
    std::copy_n(sequence.lstms.dec_h.data() + (sequence.length - 1) * d, d, head.context.data());
    const auto te = time_encoding(time_left, time_budget, dims_.time);
    std::copy(te.begin(), te.end(), head.context.begin() + d);
    if (state)
        std::copy(state->globals.begin(), state->globals.end(), head.context.begin() + d + dims_.time);

    head.block_input.resize(static_cast<std::size_t>(blocks * k));
    head.block1.resize(static_cast<std::size_t>(blocks * l));
    head.block2.resize(static_cast<std::size_t>(blocks * l));
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
        float* x = head.block_input.data() + b * k;
        std::copy_n(sequence.per_block.data() + b * p, p, x);
        if (state)
            std::copy_n(state->blocks.data() + b * sw, sw, x + p);
        std::copy_n(head.context.data(), c, x + p + sw);
        linear_forward(block1_, x, l, k, head.block1.data() + b * l, true);
        linear_forward(block2_, head.block1.data() + b * l, l, l, head.block2.data() + b * l, true);
    }
    std::size_t actions = 1;
    for (const auto t : sequence.targets)
        actions += static_cast<std::size_t>(t);
    head.logits.resize(actions);
    float* logit = head.logits.data();
    for (std::size_t i = 0; i < block_out_.size(); ++i)
        for (std::ptrdiff_t b = 0; b < sequence.targets[i]; ++b)
            linear_forward(block_out_[i], head.block2.data() + b * l, 1, l, logit++, false);
    head.stay1.resize(static_cast<std::size_t>(l));
    head.stay2.resize(static_cast<std::size_t>(l));
    linear_forward(stay1_, head.context.data(), l, c, head.stay1.data(), true);
    linear_forward(stay2_, head.stay1.data(), l, l, head.stay2.data(), true);
    linear_forward(stay_out_, head.stay2.data(), 1, l, logit, false); // Do Nothing last
}

std::size_t FastStructural::sequence_gradient_size(const Sequence& sequence) const
{
    return static_cast<std::size_t>(dims_.decider + sequence.blocks * 2 * dims_.hidden);
}

void FastStructural::backward_head(const Sequence& sequence, const Head& head, std::span<const float> d_logits,
                                   std::span<float> d_sequence)
{
    const std::ptrdiff_t p = 2 * dims_.hidden, d = dims_.decider, c = d + dims_.time + dims_.globals,
                         sw = dims_.block_state, k = p + sw + c, l = dims_.linear;
    const std::ptrdiff_t blocks = sequence.blocks;
    if (d_logits.size() != head.logits.size() || d_sequence.size() != sequence_gradient_size(sequence))
        throw Error("fast policy: backward_head: gradient sizes do not fit the network");
    // [blocks, l] dL/d(block2 out), [blocks, l] dL/d(block1 out), [blocks, k] dL/d(block input).
    d_block_.assign(static_cast<std::size_t>(blocks * (2 * l + k)), 0.0f);
    float* d2 = d_block_.data();
    float* d1 = d2 + blocks * l;
    float* d_in = d1 + blocks * l;
    // Each operation's head reads only the blocks it keeps: the others get nothing from it.
    const float* g = d_logits.data();
    for (std::size_t i = 0; i < block_out_.size(); ++i)
        for (std::ptrdiff_t b = 0; b < sequence.targets[i]; ++b)
            linear_backward(block_out_[i], head.block2.data() + b * l, 1, l, g++, d2 + b * l);
    d_context_.assign(static_cast<std::size_t>(c), 0.0f);
    float* d_per_block = d_sequence.data() + d;
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
        relu_backward(head.block2.data() + b * l, l, d2 + b * l);
        linear_backward(block2_, head.block1.data() + b * l, l, l, d2 + b * l, d1 + b * l);
        relu_backward(head.block1.data() + b * l, l, d1 + b * l);
        float* dx = d_in + b * k;
        linear_backward(block1_, head.block_input.data() + b * k, l, k, d1 + b * l, dx);
        axpy(1.0f, dx, d_per_block + b * p, p);
        axpy(1.0f, dx + p + sw, d_context_.data(), c); // the state row is data: its gradient stops here
    }
    d_stay_.assign(static_cast<std::size_t>(2 * l), 0.0f);
    float* ds2 = d_stay_.data();
    float* ds1 = ds2 + l;
    linear_backward(stay_out_, head.stay2.data(), 1, l, g, ds2);
    relu_backward(head.stay2.data(), l, ds2);
    linear_backward(stay2_, head.stay1.data(), l, l, ds2, ds1);
    relu_backward(head.stay1.data(), l, ds1);
    linear_backward(stay1_, head.context.data(), l, c, ds1, d_context_.data());
    // The time encoding and the globals are data: only the decider's part goes on.
    axpy(1.0f, d_context_.data(), d_sequence.data(), d);
}

void FastStructural::backward_sequence(const Sequence& sequence, std::span<const float> d_sequence)
{
    const std::ptrdiff_t e = dims_.embedding, h = dims_.hidden, d = dims_.decider, len = sequence.length;
    if (d_sequence.size() != sequence_gradient_size(sequence) || len < 1)
        throw Error("fast policy: backward_sequence: gradient sizes do not fit the network");
    const auto n = static_cast<std::size_t>(len);
    // The per-block means: each layer of block b gets dL/d(mean b) / (b's layers); the decider's
    // share is added to this in recurrent_backward.
    d_encoded_.assign(n * 2 * h, 0.0f);
    const float* d_per_block = d_sequence.data() + d;
    for (std::ptrdiff_t t = 0; t < len; ++t) {
        const auto b = sequence.block[static_cast<std::size_t>(t)];
        if (b >= 0)
            axpy(sequence.inverse_count[static_cast<std::size_t>(b)], d_per_block + b * 2 * h,
                 d_encoded_.data() + t * 2 * h, 2 * h);
    }
    d_embedded_.assign(n * e, 0.0f);
    recurrent_backward(lstms_, sequence.lstms, sequence.embedded.data(), e, nullptr, d_sequence.data(),
                       d_encoded_.data(), d_embedded_.data(), scratch_);
    // The embed layer's ReLU and weights; the rows themselves are data.
    for (std::ptrdiff_t t = 0; t < len; ++t) {
        float* dy = d_embedded_.data() + t * e;
        relu_backward(sequence.embedded.data() + t * e, e, dy);
        linear_backward(embed_, sequence.input.data() + t * kRowWidth, e, kFeatures, dy, nullptr);
    }
}

void FastStructural::backward(const Tape& tape, std::span<const float> d_logits)
{
    std::vector<float> d_sequence(sequence_gradient_size(tape.sequence), 0.0f);
    backward_head(tape.sequence, tape.head, d_logits, d_sequence);
    backward_sequence(tape.sequence, d_sequence);
}

} // namespace rlda::core::agent
