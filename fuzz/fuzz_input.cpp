#include "fuzz/fuzz_input.h"

#include <ATen/Parallel.h>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rlda::fuzz {

InputFile::InputFile(const std::uint8_t* data, std::size_t size)
{
    if (std::string_view(reinterpret_cast<const char*>(data), size) == kFifoInput) {
        char dir[] = "/tmp/rlda-fuzz-fifo-XXXXXX";
        if (!mkdtemp(dir) || mkfifo((std::string(dir) + "/input").c_str(), 0600) != 0) {
            std::fprintf(stderr, "fuzz: cannot make a FIFO: %s\n", std::strerror(errno));
            std::abort();
        }
        fifo_dir_ = dir;
        path_ = fifo_dir_ + "/input";
        return;
    }
    fd_ = memfd_create("rlda-fuzz-input", MFD_CLOEXEC);
    std::size_t done = 0;
    while (fd_ >= 0 && done < size) {
        const ssize_t n = write(fd_, data + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    if (fd_ < 0 || done != size) {
        // The harness itself failed, not the reader: stop instead of fuzzing something else.
        std::fprintf(stderr, "fuzz: cannot write the input to a memfd: %s\n", std::strerror(errno));
        std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
}

InputFile::~InputFile()
{
    if (fd_ >= 0)
        close(fd_);
    if (!fifo_dir_.empty()) {
        unlink(path_.c_str());
        rmdir(fifo_dir_.c_str());
    }
}

} // namespace rlda::fuzz

// One intra-op thread: LibTorch's pool would only add threads that libFuzzer's fork and jobs
// modes duplicate and the sanitizers watch, for inputs that are tiny anyway.
extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    at::set_num_threads(1);
    return 0;
}
