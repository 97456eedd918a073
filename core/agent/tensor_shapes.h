// The tensors a policy network holds, by name and shape, listed from its sizes without allocating
// anything: a policy file's tensors are checked against such a list before a network is made.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rlda::core::agent {

using TensorShapes = std::vector<std::pair<std::string, std::vector<std::int64_t>>>;

// a * b and a + b of sizes; Error ("policy: sizes ... overflow") when negative or too large.
std::int64_t size_product(std::int64_t a, std::int64_t b);
std::int64_t size_sum(std::int64_t a, std::int64_t b);

// torch::nn::LSTM's one layer (weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0, and the same
// with _reverse when bidirectional) and torch::nn::Linear's weight and bias, as `name`.<tensor>.
void add_lstm_shapes(TensorShapes& out, const std::string& name, std::int64_t in, std::int64_t hidden,
                     bool bidirectional);
void add_linear_shapes(TensorShapes& out, const std::string& name, std::int64_t in, std::int64_t features);

} // namespace rlda::core::agent
