// The structural policy network ([policy] encoder = "structural"): scores each original block from
// its own layers' numbers (core/agent/structure.h), so that one policy serves models of any width
// and any number of blocks, and block i always means "this block". The state-aware policy
// (encoder = "state") is the same network reading the training state beside them.
#pragma once

#include "core/agent/state_encoding.h"
#include "core/agent/structure.h"
#include "core/config/experiment.h"
#include "core/model/actions.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rlda::core::agent {

// An architecture as the structural network reads it: float [L, kLayerFeatures + 1], each layer's
// row followed by its block (structure.h's `block`, -1 for a layer between blocks). The blocks are
// 0..max: every original block has at least one layer.
torch::Tensor structural_input(const ArchitectureFeatures& features);
// The original blocks an input of structural_input() holds: the decision's actions are this + 1.
std::int64_t structural_blocks(const torch::Tensor& input);

// The state columns a StructuralNet of these sizes reads: per block (kBlockStateFeatures) and
// global (kGlobalStateFeatures) for the state encoder, none for the structural one.
std::int64_t block_state_width(const config::PolicyConfig& sizes);
std::int64_t global_state_width(const config::PolicyConfig& sizes);
// Error unless `state` is what a network of these sizes reads at a decision over `blocks` original
// blocks: present, with a row per block and the globals, for the state encoder; absent otherwise.
void check_state(const config::PolicyConfig& sizes, const StateEncoding* state, std::int64_t blocks);
// Error when `state` is given to an encoder that reads none (config::reads_state): check_state's
// rule for those, also for the original encoder's network and kernel, which have no sizes to check.
void check_no_state(config::PolicyEncoder encoder, const StateEncoding* state);

// Every parameter of StructuralNet by its named_parameters name, and its shape, for these sizes
// and operations, computed without allocating (policy files are checked against it). Error on overflow.
std::vector<std::pair<std::string, std::vector<std::int64_t>>>
structural_shapes(const config::PolicyConfig& sizes, const std::vector<model::Operation>& ops = {model::Operation::Deepen});

// layer rows -> Linear(embedding_size) -> ReLU -> BiLSTM(hidden_size) over the layers:
//   context = [the last state of an LSTM(decider_lstm_size) over them, as the original's decider;
//   the time encoding; the state's globals (state encoder only)];
//   block b's logit for each operation = MLP([mean of its layers' BiLSTM outputs, block b's state
//   row (state encoder only), context]) -> one output per operation (the first operation's head is
//   "block_out", each other one's "block_out_<operation>"), the blocks an operation does not apply
//   to left out;
//   Do Nothing's logit = its own MLP(context) -> 1, placed last.
// Both MLPs are Linear(decider_linear_size) -> ReLU -> Linear -> ReLU -> Linear(1).
class StructuralNetImpl : public torch::nn::Module {
public:
    explicit StructuralNetImpl(const config::PolicyConfig& sizes,
                               std::vector<model::Operation> ops = {model::Operation::Deepen});

    // Logits [ActionSpace(blocks, ops).size()] for one architecture (an input of
    // structural_input()), in the action space's order. `state`: the training state at the
    // decision, required by the state encoder (Error without it, or for another block count) and
    // refused by the structural one.
    torch::Tensor forward(const torch::Tensor& input, double time_left, double time_budget,
                          const StateEncoding* state = nullptr);

    const config::PolicyConfig& sizes() const { return sizes_; }
    const std::vector<model::Operation>& operations() const { return ops_; }

private:
    config::PolicyConfig sizes_;
    std::vector<model::Operation> ops_;
    std::vector<torch::nn::Linear> extra_out_; // the operations after the first
    torch::nn::Linear embed_{nullptr};
    torch::nn::LSTM encoder_{nullptr};
    torch::nn::LSTM decider_{nullptr};
    torch::nn::Linear block1_{nullptr}, block2_{nullptr}, block_out_{nullptr};
    torch::nn::Linear stay1_{nullptr}, stay2_{nullptr}, stay_out_{nullptr};
};
TORCH_MODULE(StructuralNet);

} // namespace rlda::core::agent
