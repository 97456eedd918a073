// What every harness shares: the fuzzed bytes as a file for readers that take a path, and the
// one rule of what counts as a finding.
#pragma once

#include "core/util/error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace rlda::fuzz {

// The bytes as a file: an anonymous in-memory file (memfd) reached through /proc/self/fd, so no
// input touches the disk and nothing is left behind; the path stays valid until destruction.
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
