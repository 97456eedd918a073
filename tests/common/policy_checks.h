// What the policy suites share: the structural encoder's configuration at a learning rate, and the
// largest difference between two tensors (a hand-written kernel's result against autograd's).
#pragma once

#include "core/config/experiment.h"

#include <torch/torch.h>

namespace rlda::test {

inline core::config::PolicyConfig
structural_sizes(double alpha = 1e-3,
                 core::config::PolicyEncoder encoder = core::config::PolicyEncoder::Structural)
{
    core::config::PolicyConfig s;
    s.encoder = encoder;
    s.alpha = alpha;
    return s;
}

inline float max_abs_diff(const torch::Tensor& a, const torch::Tensor& b)
{
    return (a - b).abs().max().item<float>();
}

} // namespace rlda::test
