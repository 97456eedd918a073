// SGD or Adam, as job.optimizer says.
#include "core/train/optimizer.h"

#include "core/util/error.h"

#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

#include <fmt/format.h>

namespace rlda::core::train {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const config::JobConfig& job,
                                                        std::vector<torch::Tensor> params, double lr)
{
    // Ifs, not a switch: clang-tidy 14 takes the two make_unique returns for identical branches.
    if (job.optimizer == config::Optimizer::Sgd)
        return std::make_unique<torch::optim::SGD>(std::move(params),
                                                   torch::optim::SGDOptions(lr).momentum(job.momentum));
    if (job.optimizer == config::Optimizer::Adam)
        return std::make_unique<torch::optim::Adam>(std::move(params), torch::optim::AdamOptions(lr));
    throw Error(fmt::format("job.optimizer: unknown optimizer {}", static_cast<int>(job.optimizer)));
}

void set_learning_rate(torch::optim::Optimizer& opt, double lr)
{
    for (auto& group : opt.param_groups())
        group.options().set_lr(lr);
}

} // namespace rlda::core::train
