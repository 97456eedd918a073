// CIFAR-10 batch files (core/data/cifar10.h).
#include "core/data/cifar10.h"
#include "fuzz/fuzz_input.h"

using namespace rlda;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::InputFile file(data, size);
    fuzz::run([&] { core::data::read_cifar10_batch(file.path()); });
    return 0;
}
