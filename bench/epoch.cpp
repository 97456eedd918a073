// bench_epoch: one training epoch of ConvNet2 through the engine's Trainer, against the same epoch
// in Python/PyTorch (bench/epoch_reference.py) run in the same process tree, same thread count.
#include "bench/python_reference.h"
#include "core/agent/agent.h"
#include "core/data/synthetic.h"
#include "core/model/zoo.h"
#include "core/net/net.h"
#include "core/train/trainer.h"

#include <ATen/Parallel.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace {

using namespace rlda::core;

struct Options {
    std::int64_t samples = 10000;
    std::int64_t batch = 64;
    int threads = 2;
    int repeat = 5;
    std::string python = "/usr/bin/python3"; // Debian's, where python3-torch lives
};

double engine_images_per_s(const Options& o, const data::DatasetSplit& data)
{
    const std::int64_t batches = (o.samples + o.batch - 1) / o.batch;
    train::VirtualClock clock(1.0);
    // A budget of exactly one epoch of steps: the run is that epoch plus a 64-sample evaluation.
    train::Scheduler scheduler(static_cast<double>(batches), {}, 0.0, clock);
    agent::NoAdaptationAgent agent;
    train::TrainerSettings s;
    s.job.batch_size = o.batch;
    s.job.seed = 1;
    train::Trainer trainer(s, model::zoo_model("ConvNet2"), data, scheduler, clock, agent);
    const auto start = std::chrono::steady_clock::now();
    const auto result = trainer.run();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.epochs != 1)
        throw std::runtime_error(fmt::format("expected one epoch, ran {}", result.epochs));
    return static_cast<double>(o.samples) / seconds;
}

// The same epoch without the engine: Net, Adam and a loop over in-memory tensors, to tell the
// engine's own cost from LibTorch's.
double bare_images_per_s(const Options& o, const data::DatasetSplit& data)
{
    torch::manual_seed(1);
    model::Net net(model::zoo_model("ConvNet2"));
    net->train();
    torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(0.01));
    const auto start = std::chrono::steady_clock::now();
    const auto perm = torch::randperm(o.samples, torch::kLong);
    for (std::int64_t i = 0; i < o.samples; i += o.batch) {
        const auto idx = perm.slice(0, i, std::min(i + o.batch, o.samples));
        const auto x = data.train.images.index_select(0, idx);
        const auto y = data.train.labels.index_select(0, idx);
        opt.zero_grad();
        torch::nn::functional::cross_entropy(net->forward(x), y).backward();
        opt.step();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return static_cast<double>(o.samples) / seconds;
}

double python_images_per_s(const Options& o, const std::string& mode)
{
    const std::string cmd = fmt::format("{} {}/bench/epoch_reference.py --mode {} --samples {} --batch {} --threads {}",
                                        o.python, RLDA_SOURCE_DIR, mode, o.samples, o.batch, o.threads);
    return rlda::bench::run_python_reference(cmd, "images_per_s", "Debian's python3-torch and python3-torchvision");
}

} // namespace

int main(int argc, char** argv)
{
    try {
        Options o;
        CLI::App app{"One ConvNet2 training epoch: the C++ engine against Python/PyTorch"};
        app.add_option("--samples", o.samples)->capture_default_str();
        app.add_option("--batch", o.batch)->capture_default_str();
        app.add_option("--threads", o.threads)->capture_default_str();
        app.add_option("--repeat", o.repeat, "Rounds; the best of each side counts")->capture_default_str();
        app.add_option("--python", o.python)->capture_default_str();
        CLI11_PARSE(app, argc, argv);

        at::set_num_threads(o.threads);
        data::SyntheticOptions d;
        d.shape = model::kCifar10Input;
        d.classes = model::kCifar10Classes;
        d.train_size = o.samples;
        d.test_size = 64;
        const auto data = data::make_synthetic(d);

        double engine = 0, cpp_bare = 0, bare = 0, pipeline = 0;
        for (int r = 0; r < o.repeat; ++r) { // interleaved, so drift in the machine hits all of them
            engine = std::max(engine, engine_images_per_s(o, data));
            cpp_bare = std::max(cpp_bare, bare_images_per_s(o, data));
            bare = std::max(bare, python_images_per_s(o, "bare"));
            pipeline = std::max(pipeline, python_images_per_s(o, "pipeline"));
        }
        fmt::print("bench/epoch: ConvNet2, {} images {}, batch {}, Adam, {} threads, best of {}\n", o.samples,
                   model::shape_string(d.shape), o.batch, o.threads, o.repeat);
        fmt::print("  C++ engine (rlda Trainer)    {:8.1f} images/s\n", engine);
        fmt::print("  C++, bare tensor loop        {:8.1f} images/s\n", cpp_bare);
        fmt::print("  Python, bare tensor loop     {:8.1f} images/s\n", bare);
        fmt::print("  Python, per-image pipeline   {:8.1f} images/s\n", pipeline);
        fmt::print("ratio vs bare loop:  {:.2f}x (goal >= 1.0)\n", engine / bare);
        fmt::print("ratio vs pipeline:   {:.2f}x (goal >= 1.5)\n", engine / pipeline);
        return 0;
    } catch (const std::exception& e) {
        fmt::print(stderr, "bench_epoch: error: {}\n", e.what());
        return 1;
    }
}
