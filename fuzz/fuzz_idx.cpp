// IDX files (core/data/idx.h), plain or gzip: the bytes as an image file and as a label file.
#include "core/data/idx.h"
#include "fuzz/fuzz_input.h"

using namespace rlda;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::InputFile file(data, size);
    fuzz::run([&] { core::data::read_idx_images(file.path()); });
    fuzz::run([&] { core::data::read_idx_labels(file.path()); });
    return 0;
}
