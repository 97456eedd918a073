// Measuring the decision features (core/agent/decision_features.h) of a model at a pending decision:
// the per-block gradient statistics gathered while training, and a probe of the model on a fixed batch.
#pragma once

#include "core/agent/decision_features.h"
#include "core/job/events.h"
#include "core/model/spec.h"

#include <torch/types.h>

#include <cstdint>
#include <span>
#include <vector>

namespace rlda::core::data {
struct Dataset;
}
namespace rlda::core::model {
class NetImpl;
}

namespace rlda::core::train {

// The probe batch: the first kProbeBatch test samples (all of them when the test set is smaller),
// in order, so that every measurement of one model sees the same inputs and draws no random number.
inline constexpr std::int64_t kProbeBatch = 256;
// How many completed epochs train_loss_slope fits its line through (fewer when fewer are done).
inline constexpr std::size_t kSlopeEpochs = 3;

// The original block each unit of `spec` counts towards, in execution order (model::units): an
// original block its own index, a block deepening added the original block before it (which it
// deepens: model::deepened_block_before), a plain layer -1.
std::vector<int> unit_blocks(const model::ModelSpec& spec);

// The mean squared gradient per trainable value of each original block, over one epoch's steps.
// The trainer starts it at each epoch's first step and adds every step's gradients after the
// backward pass; an epoch cut short is started over, so only completed epochs are ever finished.
// Reads gradients only: training goes exactly as without it.
class GradientStats {
public:
    // Forgets the steps so far and takes `net`'s parameters and blocks (an epoch never changes them).
    void start(const model::NetImpl& net);
    // The gradients of the step just back-propagated. No-op before start().
    void add_step();
    // mean over the steps since start() of (sum over the block's values of grad^2) / (its values),
    // per original block; 0 for a block without trainable values or an epoch of no steps.
    std::vector<double> finish() const;

private:
    std::vector<torch::Tensor> params_;
    torch::Tensor index_;   // int64 [params]: the block of each parameter
    torch::Tensor sum_;     // float64 [blocks]: sum of grad^2 over the steps
    std::vector<std::int64_t> values_; // trainable values per block
    std::int64_t steps_ = 0;
};

// Everything a measurement needs besides the model: what the trainer counted.
struct ProbeContext {
    std::span<const EpochMetrics> history; // the completed epochs, in order
    std::span<const double> grad_sq_mean;  // GradientStats::finish of the last completed epoch; empty: 0s
    double lr = 0.0;                       // the learning rate of loss_drop's step: the job's
    double time_left = 0.0, time_budget = 0.0;
};

// The decision features of `net` now (DecisionFeatures' fields, per original block in action order):
// - parameters, weight_norm: the block's trainable values and their L2 norm;
// - grad_sq_mean: from the context (GradientStats of the last completed epoch);
// - activation_mean, activation_var: over every element of the block's output (its last unit, the
//   blocks deepening added included) on the probe batch, in eval mode; the variance is the
//   population one (divided by the element count);
// - loss_drop: Firefly's first-order criterion for the block Deepen(i) would insert right after
//   original block i, taken at its 1x1 (centre-tap) identity weight W: with y the original block's
//   output on the probe batch (post-activation; N x C x H x W, or N x F) and g = dL/dy the gradient
//   of the mean cross-entropy over the probe batch (eval mode), dL/dW = sum over samples and
//   positions of g y^T (C x C, or F x F), and one SGD step of rate `lr` on W lowers the loss by
//   about lr * ||dL/dW||_F^2, which is what it is. The identity block leaves the function as it
//   was, so this is the slope growth opens, not a loss change at the moment of growth; the bias,
//   BatchNorm and a residual block's branch are not counted, and the same estimate is taken for
//   blocks whose deepening is a residual block.
// - train_loss (the last completed epoch's), train_loss_slope (least squares per epoch over the last
//   kSlopeEpochs completed epochs, 0 with fewer than 2), test_accuracy and test_accuracy_change
//   (the last completed epoch's, and its change from the one before; 0 with fewer than 2), epoch
//   (completed), time_left and time_budget from the context.
// Deterministic: the probe batch is fixed, no random number is drawn, no parameter, gradient,
// buffer or optimizer state changes, and the net's train/eval mode is put back; a run measured
// gives the same bits as one not measured (the wall clock aside, which the probe's time moves).
agent::DecisionFeatures measure_features(model::NetImpl& net, const data::Dataset& test, const ProbeContext& context);

} // namespace rlda::core::train
