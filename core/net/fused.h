// R replicates of one model fused into one module (HFTA-style): one forward and one optimizer step train all.
#pragma once

#include "core/net/net.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>

#include <vector>

namespace rlda::core::model {

// R Nets of one spec (same architecture, their own weights) as one module whose parameters are
// the replicas' stacked, so that one forward, one backward and one optimizer step train all R
// exactly as R separate trainings would (every operation below keeps the replicates apart).
//
// Layouts (R replicates, batch B of each):
//   input            [R, B, *sample]: replicate r's batch at x[r]
//   image activations [B, R*C, H, W]: replicate r's channels are r*C .. r*C+C-1
//   flat features    [R, B, F]
//   output           [R, B, classes]
// Fused tensors, named as the replicas name theirs ("u<uid>.<i>.weight", ...):
//   Conv2d       weight [R*out, in, k, k], bias [R*out]; one conv2d with groups = R
//   BatchNorm2d  weight, bias, running_mean, running_var [R*C] (batch_norm over the stacked
//                channels is R separate BatchNorms in both modes); num_batches_tracked one
//                count, replica 0's when fused, every replica's when unfused
//   Linear       weight [R, in, out] (each replica's transposed), bias [R, 1, out]; one baddbmm
//   activations, pooling and Flatten have no tensors ([B, R*C, H, W] -> [R, B, C*H*W] at Flatten)
// The FusedNet owns its tensors: the replicas are not changed until unfuse_into() writes back.
class FusedNetImpl : public torch::nn::Module {
public:
    // Copies the replicas' parameters and buffers (on their device and dtype; the mode is replica
    // 0's). ModelError, before anything is built, for no replicas, replicas of different specs
    // (naming what differs) or on different devices or dtypes.
    explicit FusedNetImpl(const std::vector<Net>& replicas);

    torch::Tensor forward(torch::Tensor x); // [R, B, *sample] -> [R, B, classes]

    // Copies every fused parameter and buffer back into replica r of `replicas`, which must be
    // R Nets of this spec (ModelError otherwise); then they can be deepened or widened one by
    // one and fused again.
    void unfuse_into(std::vector<Net>& replicas) const;

    int replicas() const { return replicas_; }
    const ModelSpec& spec() const { return spec_; }

private:
    ModelSpec spec_;
    int replicas_ = 0;
    std::vector<torch::nn::Sequential> units_; // execution order, registered as "u<uid>"
};
TORCH_MODULE(FusedNet);

// The sum over replicates of each one's mean cross entropy: out [R, B, K], y [R, B] class indices.
// Each replicate's parameters get exactly the gradient of its own loss.
torch::Tensor fused_cross_entropy(const torch::Tensor& out, const torch::Tensor& y);

} // namespace rlda::core::model
