// The job's optimizer (job.optimizer, job.momentum) over some parameters: one rule for the trainer
// and the fused replicates of a table build.
#pragma once

#include "core/config/experiment.h"

#include <torch/optim/optimizer.h>

#include <memory>
#include <vector>

namespace rlda::core::train {

// A fresh SGD (with job.momentum) or Adam optimizer over `params` at learning rate `lr`.
std::unique_ptr<torch::optim::Optimizer> make_optimizer(const config::JobConfig& job,
                                                        std::vector<torch::Tensor> params, double lr);

// Sets every parameter group's learning rate.
void set_learning_rate(torch::optim::Optimizer& opt, double lr);

} // namespace rlda::core::train
