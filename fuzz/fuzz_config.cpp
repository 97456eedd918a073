// Experiment files (core/config/experiment_io.h): the whole text as a file, then as one --set
// assignment. A file that loads must also survive its own round trip: to_toml() of what was read
// reads back to the same settings, as experiment_io.h promises.
#include "core/config/experiment_io.h"
#include "fuzz/fuzz_input.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace rlda;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::run([&] {
        const auto c = core::config::parse_experiment(text, "fuzz.toml");
        const auto written = core::config::to_toml(c);
        try {
            if (!core::config::same_settings(core::config::parse_experiment(written, "fuzz.toml"), c)) {
                std::fprintf(stderr, "fuzz_config: to_toml() reads back to other settings:\n%s\n", written.c_str());
                std::abort();
            }
        } catch (const core::Error& e) {
            std::fprintf(stderr, "fuzz_config: to_toml() does not read back: %s\n%s\n", e.what(), written.c_str());
            std::abort();
        }
    });
    fuzz::run([&] {
        core::config::ExperimentConfig c;
        core::config::apply_override(c, text);
    });
    // As a file: the reader that opens it (a FIFO is refused, not waited on).
    const fuzz::InputFile file(data, size);
    fuzz::run([&] { core::config::load_experiment(file.path()); });
    return 0;
}
