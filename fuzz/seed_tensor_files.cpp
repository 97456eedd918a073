// Writes the policy and checkpoint seeds into the folders given (fuzz/corpus/policy/seed,
// fuzz/corpus/checkpoint/seed): files as rlda saves them, from the networks of seed_models.h,
// fresh and after some learning so that the optimizers' state is there too. Run again when the
// formats change (fuzz/README.md).
#include "core/net/net.h"
#include "core/train/checkpoint.h"
#include "fuzz/seed_models.h"

#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

#include <cstdio>
#include <filesystem>
#include <memory>

using namespace rlda;
namespace fs = std::filesystem;

namespace {

void write_policies(const fs::path& dir)
{
    auto fresh = fuzz::seed_policy(1);
    fresh.save((dir / "policy-fresh.pt").string());
    auto learned = fuzz::seed_policy(2);
    const auto layers = learned.encode({"Linear(16, 10)", "ReLU"});
    for (int episode = 0; episode < 2; ++episode) {
        learned.sample(layers, 20.0, 30.0);
        learned.sample(layers, 10.0, 30.0);
        learned.finish_episode(0.5 + 0.1 * episode);
    }
    learned.save((dir / "policy-after-2-episodes.pt").string());
}

void write_checkpoint(const fs::path& file, bool adam)
{
    torch::manual_seed(3);
    auto net = fuzz::checkpoint_net();
    std::unique_ptr<torch::optim::Optimizer> opt;
    if (adam)
        opt = std::make_unique<torch::optim::Adam>(net->parameters(), torch::optim::AdamOptions(0.01));
    else
        opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
    const auto x = torch::randn({8, 1, 4, 4});
    const auto y = torch::randint(0, 3, {8}, torch::kLong);
    for (int step = 0; step < 2; ++step) {
        opt->zero_grad();
        torch::nn::functional::cross_entropy(net->forward(x), y).backward();
        opt->step();
    }
    const auto base = core::model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3);
    core::train::CheckpointMeta meta;
    meta.model_name = base.name;
    meta.input = base.input;
    meta.classes = base.classes;
    meta.grown = {1};
    meta.chosen = {1, 2};
    meta.clock = {12.5, 7, 1};
    meta.scheduler_reported = 1;
    meta.epochs_started = 2;
    meta.epochs_completed = 1;
    meta.steps = 7;
    meta.adapting = true;
    meta.decisions = 2;
    meta.lr = 0.01;
    core::train::EpochMetrics m;
    m.epoch = 1;
    m.time = 6.0;
    meta.history.push_back(m);
    core::train::save_checkpoint(file, meta, *net, *opt);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: rlda_fuzz_seeds POLICY_SEED_DIR CHECKPOINT_SEED_DIR\n");
        return 2;
    }
    write_policies(argv[1]);
    write_checkpoint(fs::path(argv[2]) / "checkpoint-adam.pt", true);
    write_checkpoint(fs::path(argv[2]) / "checkpoint-sgd.pt", false);
    return 0;
}
