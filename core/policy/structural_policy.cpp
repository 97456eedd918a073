// The structural policy network: a logit per original block from its own layers, and Do Nothing's.
#include "core/policy/structural_policy.h"

#include "core/agent/tensor_shapes.h"
#include "core/policy/policy.h"
#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::agent {

torch::Tensor structural_input(const ArchitectureFeatures& f)
{
    const std::int64_t width = kLayerFeatures + 1;
    auto input = torch::empty({f.layers, width}, torch::kFloat32);
    auto* out = input.data_ptr<float>();
    for (std::int64_t i = 0; i < f.layers; ++i) {
        std::copy_n(f.rows.data() + i * kLayerFeatures, kLayerFeatures, out + i * width);
        out[i * width + kLayerFeatures] = static_cast<float>(f.block[static_cast<std::size_t>(i)]);
    }
    return input;
}

std::int64_t structural_blocks(const torch::Tensor& input)
{
    if (input.dim() != 2 || input.size(1) != kLayerFeatures + 1 || input.size(0) < 1 ||
        input.scalar_type() != torch::kFloat32)
        throw Error(fmt::format("policy: a structural input is float [layers, {}] (see structural_input())",
                                kLayerFeatures + 1));
    return static_cast<std::int64_t>(input.select(1, kLayerFeatures).max().item<float>()) + 1;
}

std::int64_t block_state_width(const config::PolicyConfig& s)
{
    return config::reads_state(s.encoder) ? std::int64_t{kBlockStateFeatures} : 0;
}

std::int64_t global_state_width(const config::PolicyConfig& s)
{
    return config::reads_state(s.encoder) ? std::int64_t{kGlobalStateFeatures} : 0;
}

void check_no_state(config::PolicyEncoder encoder, const StateEncoding* state)
{
    if (state != nullptr && !config::reads_state(encoder))
        throw Error(fmt::format("policy: the {} encoder reads no training state", config::to_string(encoder)));
}

void check_state(const config::PolicyConfig& s, const StateEncoding* state, std::int64_t blocks)
{
    if (!config::reads_state(s.encoder)) {
        check_no_state(s.encoder, state);
        return;
    }
    if (state == nullptr)
        throw Error("policy: the state encoder needs the training state (decision features) at every decision");
    if (state->blocks.size() != static_cast<std::size_t>(blocks * kBlockStateFeatures) ||
        state->globals.size() != static_cast<std::size_t>(kGlobalStateFeatures))
        throw Error(fmt::format("policy: a training state of {} block values and {} globals does not fit an "
                                "architecture of {} blocks ({} and {})",
                                state->blocks.size(), state->globals.size(), blocks, blocks * kBlockStateFeatures,
                                kGlobalStateFeatures));
}

std::vector<std::pair<std::string, std::vector<std::int64_t>>> structural_shapes(const config::PolicyConfig& s,
                                                                                 const std::vector<model::Operation>& ops)
{
    TensorShapes out;
    const std::int64_t context = size_sum(size_sum(s.decider_lstm_size, s.time_encoding_size), global_state_width(s));
    const std::int64_t l = s.decider_linear_size;
    add_linear_shapes(out, "embed", kLayerFeatures, s.embedding_size);
    add_lstm_shapes(out, "encoder", s.embedding_size, s.hidden_size, /*bidirectional=*/true);
    add_lstm_shapes(out, "decider", size_product(2, s.hidden_size), s.decider_lstm_size, false);
    add_linear_shapes(out, "block1", size_sum(size_sum(size_product(2, s.hidden_size), block_state_width(s)), context),
                      l);
    add_linear_shapes(out, "block2", l, l);
    add_linear_shapes(out, "block_out", l, 1);
    for (std::size_t i = 1; i < ops.size(); ++i)
        add_linear_shapes(out, "block_out_" + model::to_string(ops[i]), l, 1);
    add_linear_shapes(out, "stay1", context, l);
    add_linear_shapes(out, "stay2", l, l);
    add_linear_shapes(out, "stay_out", l, 1);
    return out;
}

StructuralNetImpl::StructuralNetImpl(const config::PolicyConfig& s, std::vector<model::Operation> ops)
    : sizes_(s), ops_(std::move(ops))
{
    using torch::nn::Linear;
    using torch::nn::LSTM;
    using torch::nn::LSTMOptions;
    const std::int64_t context = s.decider_lstm_size + s.time_encoding_size + global_state_width(s);
    const std::int64_t l = s.decider_linear_size;
    embed_ = register_module("embed", Linear(kLayerFeatures, s.embedding_size));
    encoder_ = register_module("encoder", LSTM(LSTMOptions(s.embedding_size, s.hidden_size).bidirectional(true)));
    decider_ = register_module("decider", LSTM(LSTMOptions(2 * s.hidden_size, s.decider_lstm_size)));
    block1_ = register_module("block1", Linear(2 * s.hidden_size + block_state_width(s) + context, l));
    block2_ = register_module("block2", Linear(l, l));
    block_out_ = register_module("block_out", Linear(l, 1));
    for (std::size_t i = 1; i < ops_.size(); ++i)
        extra_out_.emplace_back(register_module("block_out_" + model::to_string(ops_[i]), Linear(l, 1)));
    stay1_ = register_module("stay1", Linear(context, l));
    stay2_ = register_module("stay2", Linear(l, l));
    stay_out_ = register_module("stay_out", Linear(l, 1));
}

torch::Tensor StructuralNetImpl::forward(const torch::Tensor& input, double time_left, double time_budget,
                                         const StateEncoding* state)
{
    const std::int64_t blocks = structural_blocks(input);
    check_state(sizes_, state, blocks);
    const auto rows = input.narrow(1, 0, kLayerFeatures);
    const auto block = input.select(1, kLayerFeatures).to(torch::kLong);
    const auto x = torch::relu(embed_->forward(rows)).unsqueeze(1);        // [L, 1, E]
    const auto encoded = std::get<0>(encoder_->forward(x));                 // [L, 1, 2H]
    const auto last = std::get<0>(std::get<1>(decider_->forward(encoded))); // h_n: [1, 1, D]
    const auto t = torch::tensor(time_encoding(time_left, time_budget, sizes_.time_encoding_size));
    auto context = torch::cat({last.reshape({-1}), t}); // [D + T]
    if (state)
        context = torch::cat({context, torch::tensor(state->globals)}); // [D + T + G]

    // Each block's layers averaged: a [blocks, L] matrix of 1/count where a layer is the block's.
    const auto members = block.unsqueeze(0).eq(torch::arange(blocks, torch::kLong).unsqueeze(1)).to(torch::kFloat32);
    const auto mean = members / members.sum(1, /*keepdim=*/true).clamp_min(1.0);
    const auto per_block = mean.mm(encoded.squeeze(1)); // [blocks, 2H]
    std::vector<torch::Tensor> parts{per_block};
    if (state)
        parts.push_back(torch::tensor(state->blocks).reshape({blocks, kBlockStateFeatures})); // [blocks, S]
    parts.push_back(context.unsqueeze(0).expand({blocks, context.size(0)}));
    auto h = torch::cat(parts, 1);
    h = torch::relu(block1_->forward(h));
    h = torch::relu(block2_->forward(h));
    const model::ActionSpace space(static_cast<int>(blocks), ops_);
    std::vector<torch::Tensor> logits;
    for (std::size_t i = 0; i < ops_.size(); ++i) {
        const auto all = (i == 0 ? block_out_ : extra_out_[i - 1])->forward(h).reshape({-1}); // [blocks]
        logits.push_back(all.narrow(0, 0, space.targets(ops_[i])));
    }
    auto s = torch::relu(stay1_->forward(context));
    s = torch::relu(stay2_->forward(s));
    logits.push_back(stay_out_->forward(s)); // Do Nothing last
    return torch::cat(logits);
}

} // namespace rlda::core::agent
