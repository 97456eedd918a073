// The policy network's layers and the small formulas around it.
#include "core/policy/policy.h"

#include "core/agent/tensor_shapes.h"
#include "core/util/error.h"

#include <ATen/CPUGeneratorImpl.h>
#include <fmt/format.h>
#include <torch/nn/functional/activation.h>

#include <cmath>
#include <numbers>

namespace rlda::core::agent {

std::vector<float> time_encoding(double time_left, double time_budget, std::int64_t size)
{
    std::vector<float> v(static_cast<std::size_t>(size));
    const double fraction = time_budget > 0 ? time_left / time_budget : 0.0;
    for (std::int64_t i = 1; i <= size; ++i)
        v[static_cast<std::size_t>(i - 1)] =
            static_cast<float>(5.0 * std::sin(2.0 * std::numbers::pi * static_cast<double>(i) * fraction));
    return v;
}

double reward(double accuracy) { return 100.0 * std::tan(accuracy * std::numbers::pi / 2.0); }

std::vector<std::pair<std::string, std::vector<std::int64_t>>>
policy_shapes(const config::PolicyConfig& s, std::int64_t vocabulary_size, std::int64_t actions)
{
    TensorShapes out{{"embeddings", {vocabulary_size, s.embedding_size}}};
    add_lstm_shapes(out, "encoder", s.embedding_size, s.hidden_size, /*bidirectional=*/true);
    add_lstm_shapes(out, "decider", size_product(2, s.hidden_size), s.decider_lstm_size, false);
    add_linear_shapes(out, "fc1", size_sum(s.decider_lstm_size, s.time_encoding_size), s.decider_linear_size);
    add_linear_shapes(out, "fc2", s.decider_linear_size, s.decider_linear_size);
    add_linear_shapes(out, "out", s.decider_linear_size, actions);
    return out;
}

PolicyNetImpl::PolicyNetImpl(const config::PolicyConfig& sizes, std::int64_t vocabulary_size,
                             std::int64_t actions, std::uint64_t embedding_seed)
    : sizes_(sizes), actions_(actions)
{
    if (actions < 2)
        throw Error(fmt::format("policy: needs at least 2 actions, got {}", actions));
    auto gen = at::make_generator<at::CPUGeneratorImpl>(embedding_seed);
    embeddings_ = register_buffer("embeddings", torch::randn({vocabulary_size, sizes.embedding_size}, gen));
    encoder_ = register_module(
        "encoder", torch::nn::LSTM(torch::nn::LSTMOptions(sizes.embedding_size, sizes.hidden_size).bidirectional(true)));
    decider_ = register_module("decider",
                               torch::nn::LSTM(torch::nn::LSTMOptions(2 * sizes.hidden_size, sizes.decider_lstm_size)));
    fc1_ = register_module("fc1", torch::nn::Linear(sizes.decider_lstm_size + sizes.time_encoding_size,
                                                    sizes.decider_linear_size));
    fc2_ = register_module("fc2", torch::nn::Linear(sizes.decider_linear_size, sizes.decider_linear_size));
    out_ = register_module("out", torch::nn::Linear(sizes.decider_linear_size, actions));
}

torch::Tensor PolicyNetImpl::forward(const torch::Tensor& layers, double time_left, double time_budget)
{
    // [L] ids -> [L, 1, E]: sequence first, batch of one, as the original's LSTMs.
    const auto x = embeddings_.index_select(0, layers).unsqueeze(1);
    const auto encoded = std::get<0>(encoder_->forward(x));        // [L, 1, 2H]
    const auto last = std::get<0>(std::get<1>(decider_->forward(encoded))); // h_n: [1, 1, D]
    const auto t = torch::tensor(time_encoding(time_left, time_budget, sizes_.time_encoding_size));
    auto h = torch::cat({last.reshape({-1}), t});
    h = torch::relu(fc1_->forward(h));
    h = torch::relu(fc2_->forward(h));
    return out_->forward(h);
}

torch::Tensor action_probabilities(const torch::Tensor& logits, double temperature)
{
    return torch::softmax(logits / temperature, -1);
}

} // namespace rlda::core::agent
