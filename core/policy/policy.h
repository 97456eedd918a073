// The policy network: which block to deepen, given the model's layers and the time left.
#pragma once

#include "core/agent/vocabulary.h"
#include "core/config/experiment.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rlda::core::agent {

// v_i = 5 sin(2 pi i t_left / t_budget), i = 1..size: the original's encoding of the time left.
std::vector<float> time_encoding(double time_left, double time_budget, std::int64_t size);

// r(acc) = 100 tan(acc pi / 2): small differences near high accuracy weigh a lot.
double reward(double accuracy);

// Every tensor PolicyNet holds (parameters and the embeddings buffer, by their named_parameters /
// named_buffers names) and its shape, for these sizes, computed without allocating anything: a
// policy file's tensors are checked against it before a network is made. Error when a product
// overflows.
std::vector<std::pair<std::string, std::vector<std::int64_t>>>
policy_shapes(const config::PolicyConfig& sizes, std::int64_t vocabulary_size, std::int64_t actions);

// Fixed (never trained) random layer embeddings -> BiLSTM over the leaf layers -> LSTM, last
// state ++ time encoding -> Linear -> ReLU -> Linear -> ReLU -> Linear(actions): the logits.
// Sizes come from [policy]; the embeddings are a buffer, so they are saved with the policy.
class PolicyNetImpl : public torch::nn::Module {
public:
    PolicyNetImpl(const config::PolicyConfig& sizes, std::int64_t vocabulary_size, std::int64_t actions,
                  std::uint64_t embedding_seed);

    // Logits [actions] for one architecture (`layers`: vocabulary ids in execution order).
    torch::Tensor forward(const torch::Tensor& layers, double time_left, double time_budget);

    std::int64_t actions() const { return actions_; }
    const config::PolicyConfig& sizes() const { return sizes_; }

private:
    config::PolicyConfig sizes_;
    std::int64_t actions_;
    torch::Tensor embeddings_; // [vocabulary, embedding_size], fixed
    torch::nn::LSTM encoder_{nullptr};
    torch::nn::LSTM decider_{nullptr};
    torch::nn::Linear fc1_{nullptr}, fc2_{nullptr}, out_{nullptr};
};
TORCH_MODULE(PolicyNet);

// Softmax of logits / temperature. The original divided the probabilities instead (and then
// renormalised), which is a different, weaker sharpening; here T acts on the logits.
torch::Tensor action_probabilities(const torch::Tensor& logits, double temperature);

} // namespace rlda::core::agent
