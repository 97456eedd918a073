// The policy network's layers and the small formulas around it.
#include "core/agent/policy.h"

#include "core/util/checked.h"
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
    const auto times = [](std::int64_t a, std::int64_t b) {
        const auto r = checked::mul(a, b);
        if (a < 0 || b < 0 || !r)
            throw Error(fmt::format("policy: sizes {} x {} overflow", a, b));
        return *r;
    };
    const auto plus = [](std::int64_t a, std::int64_t b) {
        const auto r = checked::add(a, b);
        if (!r)
            throw Error(fmt::format("policy: sizes {} + {} overflow", a, b));
        return *r;
    };
    const std::int64_t h4 = times(4, s.hidden_size), d4 = times(4, s.decider_lstm_size);
    const std::int64_t l = s.decider_linear_size;
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> out{{"embeddings", {vocabulary_size, s.embedding_size}}};
    for (const std::string suffix : {"", "_reverse"}) {
        out.push_back({"encoder.weight_ih_l0" + suffix, {h4, s.embedding_size}});
        out.push_back({"encoder.weight_hh_l0" + suffix, {h4, s.hidden_size}});
        out.push_back({"encoder.bias_ih_l0" + suffix, {h4}});
        out.push_back({"encoder.bias_hh_l0" + suffix, {h4}});
    }
    out.push_back({"decider.weight_ih_l0", {d4, times(2, s.hidden_size)}});
    out.push_back({"decider.weight_hh_l0", {d4, s.decider_lstm_size}});
    out.push_back({"decider.bias_ih_l0", {d4}});
    out.push_back({"decider.bias_hh_l0", {d4}});
    out.push_back({"fc1.weight", {l, plus(s.decider_lstm_size, s.time_encoding_size)}});
    out.push_back({"fc1.bias", {l}});
    out.push_back({"fc2.weight", {l, l}});
    out.push_back({"fc2.bias", {l}});
    out.push_back({"out.weight", {actions, l}});
    out.push_back({"out.bias", {actions}});
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
