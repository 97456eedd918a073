// The replay engine (preset fuzz-replay, any compiler): runs every file of the folders (or files)
// given through the harness once, as libFuzzer does with a corpus and -runs=0, so that CI checks
// the committed corpora under AddressSanitizer and UBSan without clang. Exit 0 when all passed;
// a crash, a sanitizer report or an uncaught exception ends it, naming the file.
#include <sanitizer/common_interface_defs.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

namespace fs = std::filesystem;

std::string current; // the input being run, for the reports below

void name_current()
{
    std::fprintf(stderr, "replay: the input was %s\n", current.c_str());
}

void on_terminate()
{
    std::string what = "an exception of an unknown type";
    try {
        if (const auto e = std::current_exception())
            std::rethrow_exception(e);
    } catch (const std::exception& e) {
        what = e.what();
    } catch (...) {
    }
    std::fprintf(stderr, "replay: %s: uncaught exception: %s\n", current.c_str(), what.c_str());
    std::abort();
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            for (const auto& e : fs::directory_iterator(arg))
                if (e.is_regular_file())
                    inputs.push_back(e.path());
        } else if (fs::is_regular_file(arg, ec)) {
            inputs.push_back(arg);
        } else {
            std::fprintf(stderr, "replay: %s: no such file or folder\n", argv[i]);
            return 2;
        }
    }
    std::sort(inputs.begin(), inputs.end());
    LLVMFuzzerInitialize(&argc, &argv);
    __sanitizer_set_death_callback(name_current);
    std::set_terminate(on_terminate);
    for (const auto& path : inputs) {
        current = path.string();
        // A heap block of exactly the file's bytes, as libFuzzer hands them: a read past the end is caught.
        std::error_code ec;
        const auto size = static_cast<std::size_t>(fs::file_size(path, ec));
        const std::unique_ptr<std::uint8_t[]> data(new std::uint8_t[ec ? 0 : size]);
        std::ifstream in(path, std::ios::binary);
        if (ec || !in.read(reinterpret_cast<char*>(data.get()), static_cast<std::streamsize>(size))) {
            std::fprintf(stderr, "replay: %s: cannot read\n", current.c_str());
            return 2;
        }
        LLVMFuzzerTestOneInput(data.get(), size);
    }
    std::printf("replay: %zu inputs, no crash\n", inputs.size());
    return 0;
}
