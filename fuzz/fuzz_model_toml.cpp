// Model files (core/model/toml_model.h), at a CIFAR-10 and a Fashion-MNIST sample shape.
#include "core/model/toml_model.h"
#include "fuzz/fuzz_input.h"

#include <string>

using namespace rlda;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::run([&] { core::model::parse_toml_model(text, "fuzz.toml", {3, 32, 32}, 10); });
    fuzz::run([&] { core::model::parse_toml_model(text, "fuzz.toml", {1, 28, 28}, 10); });
    const fuzz::InputFile file(data, size);
    fuzz::run([&] { core::model::load_toml_model(file.path(), {3, 32, 32}, 10); });
    return 0;
}
