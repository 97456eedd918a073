// A model specification built as a LibTorch module that can be deepened or widened in place
// (Net2Net), one action of an ActionSpace at a time (Net::apply). The trainer holds one per run,
// fused replicates start from it (fused.h), and the growth check measures it (growth_check.h).
// What it refuses is a ModelError.
#pragma once

#include "core/model/spec.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <vector>

namespace rlda::core::model {

// Every layer and block of the spec is a registered Sequential named "u<uid>", run in execution
// order. Deepening registers one new Sequential and leaves every existing module untouched, so
// trained weights stay bit for bit, and a Net rebuilt from the deepened spec has the same names.
class NetImpl : public torch::nn::Module {
public:
    explicit NetImpl(ModelSpec spec); // finalizes the spec; throws ModelError

    torch::Tensor forward(torch::Tensor x);
    // forward(x), also handing back every unit's output in execution order (units(spec())), the
    // tensors the graph holds: a probe takes gradients with respect to them (core/train/probe.h).
    torch::Tensor forward(torch::Tensor x, std::vector<torch::Tensor>& unit_outputs);

    // Net2Net Deepen(action): inserts an identity block (identity kernel or matrix, zero bias, a
    // fresh BatchNorm whose eval-mode transform is exactly the identity, the same activation)
    // right after original block `action`, on the net's device and in its train/eval mode.
    // action == original_block_count() does nothing. Throws ModelError.
    DeepenResult deepen(int action);

    // Net2WiderNet Widen(block): the block's weight layer gets widened_width(factor) outputs, each
    // new unit a copy of a randomly chosen old one (seeded), BatchNorm parameters and statistics
    // copied with their units; the next weight layer's weights from a unit are split among its
    // copies. The split is even with `noise` 0; with noise in (0, 0.5) each copy's share is
    // perturbed by up to that fraction, still summing to the unit's weight, so that the copies learn
    // apart while the function is kept. Throws ModelError (widen_spec's errors) before changing anything.
    WidenResult widen(int block, double factor, double noise = 0.0, std::uint64_t seed = 0);

    // Action `action` of `space`: a deepening, a widening (with `noise` and `seed`) or nothing.
    ActionResult apply(const ActionSpace& space, int action, double noise = 0.0, std::uint64_t seed = 0);

    // Keeps 4-d weights and inputs in NHWC ("channels last"), the layout MKLDNN's CPU convolutions
    // run fastest in (about 1.6x on ConvNet2 training, see bench/epoch). Blocks added later follow.
    void set_channels_last(bool on);
    bool channels_last() const { return channels_last_; }

    const ModelSpec& spec() const { return spec_; }
    ModelSummary summary() const { return summarize(spec_); }
    int original_block_count() const;
    std::int64_t parameter_count() const; // counted on the tensors, not the spec

private:
    torch::nn::Sequential build_unit(const Node& node) const; // not registered
    torch::nn::Sequential make_unit(const Node& node);        // registered as "u<uid>"
    // Moves a unit built after construction to the net's device, mode and layout.
    void adopt(torch::nn::Sequential& unit) const;

    ModelSpec spec_;
    std::vector<torch::nn::Sequential> units_; // execution order
    bool channels_last_ = false;
};
TORCH_MODULE(Net);

// A deep copy: same spec, same parameters and buffers, same device and mode.
Net clone_net(const Net& net);

// Copies every parameter and buffer of `to` from the same-named one of `from`. Module names are
// stable across deepening, so this also moves trained weights into a smaller or larger
// relative; throws ModelError when `from` lacks one of `to`'s tensors.
void copy_state(const Net& from, Net& to);

// copy_state for a smaller relative that may have narrower layers (a widening undone): a tensor
// of another shape gets the leading slice of the larger one along each dimension, which for a
// widened layer is its original units (Net2WiderNet keeps them first).
void copy_state_narrowing(const Net& from, Net& to);

// Trains `net` for a few Adam steps on seeded Gaussian noise with random labels, so that weights
// and BatchNorm statistics are no longer at their initial values. Leaves the net in eval mode.
void train_on_noise(Net& net, int steps = 5, std::uint64_t seed = 0, std::int64_t batch = 16);

// Max |a(x) - b(x)| over a seeded batch of Gaussian inputs, both in eval mode without grad.
double max_abs_output_diff(Net& a, Net& b, std::uint64_t seed = 1, std::int64_t batch = 8);

} // namespace rlda::core::model
