// Policy files (core/policy/reinforce.h): the bytes as a tensor file of kind "policy", the
// checksum skipped so that mutated inputs reach the header (core/util/tensor_file.h), then the
// learner made from it, which must also be able to decide once: a file that loads is usable.
#include "core/policy/reinforce.h"
#include "fuzz/fuzz_input.h"

#include <string>

using namespace rlda;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::run([&] {
        const auto file = core::TensorFile::parse(std::string(reinterpret_cast<const char*>(data), size),
                                                  "fuzz-policy.pt", core::agent::kPolicyKind,
                                                  core::TensorFile::Checksum::Skip);
        auto learner = core::agent::PolicyLearner::load(file);
        learner.greedy(learner.encode({"Conv2d(3, 16)", "ReLU"}), 10.0, 20.0);
    });
    return 0;
}
