// What every harness shares: the fuzzed bytes as a file for readers that take a path, and the
// one rule of what counts as a finding.
#pragma once

#include "core/util/error.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

// The harness's entry point, as libFuzzer (or replay_main.cpp) calls it: each fuzz_*.cpp defines it.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace rlda::fuzz {

// An input of exactly these bytes is handed to path readers as a FIFO with no writer instead of a
// file: a reader that opened it without O_NONBLOCK, or read it, would wait forever (the replay's
// timeout reports it). corpus/*/regressions/fifo hold it.
inline constexpr std::string_view kFifoInput = "rlda-fuzz: a FIFO in place of the file\n";

// The bytes as a file: an anonymous in-memory file (memfd) reached through /proc/self/fd, so no
// input touches the disk and nothing is left behind; the path stays valid until destruction. The
// bytes of kFifoInput make a FIFO in a temporary folder instead, removed at destruction.
class InputFile {
public:
    InputFile(const std::uint8_t* data, std::size_t size);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
    std::string fifo_dir_; // set for a FIFO
};

// Runs `read` on one input. A core::Error is the reader refusing the input, as it should; any
// other exception escapes, and libFuzzer (or the replay) reports it as a crash, like a signal or
// a sanitizer report.
template <class Read> int run(Read&& read)
{
    try {
        read();
    } catch (const core::Error&) {
    }
    return 0;
}

} // namespace rlda::fuzz
