// Warm-start checkpoints (core/train/checkpoint.h): the bytes as a tensor file of kind
// "checkpoint", the checksum skipped so that mutated inputs reach the header
// (core/util/tensor_file.h), then its meta, model and optimizer state loaded into the network and
// optimizers the seeds were written from (seed_tensor_files.cpp), as a resumed job does.
#include "core/train/checkpoint.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/seed_models.h"

#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

#include <string>

using namespace rlda;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::run([&] {
        auto net = fuzz::checkpoint_net(); // a fresh one: no input sees what another loaded
        core::train::CheckpointReader reader(core::TensorFile::parse(
            std::string(reinterpret_cast<const char*>(data), size), "fuzz-checkpoint.pt",
            core::train::kCheckpointKind, core::TensorFile::Checksum::Skip));
        fuzz::run([&] { reader.load_model(*net); });
        fuzz::run([&] {
            torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(0.01));
            reader.load_optimizer(adam, *net);
        });
        fuzz::run([&] {
            torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
            reader.load_optimizer(sgd, *net);
        });
    });
    return 0;
}
