// Run folders (core/io/run_reader.h): the bytes as every file a run folder's reader interprets at
// once (events.jsonl, config.toml, architecture.json, a metrics series and metrics/episodes.csv),
// each a link in a temporary folder to the one input file, then the folder read whole, as
// `rlda figures --run`, the Runs page and the workbench's --run open it. read_run never throws for
// a bad file (it lists the problem), so any exception at all is a finding here.
#include "core/io/run_reader.h"
#include "fuzz/fuzz_input.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

using namespace rlda;

namespace {

namespace fs = std::filesystem;

// A folder of links to `target`, removed at destruction.
class RunFolder {
public:
    explicit RunFolder(const std::string& target)
    {
        char dir[] = "/tmp/rlda-fuzz-run-XXXXXX";
        if (!mkdtemp(dir)) {
            std::fprintf(stderr, "fuzz: cannot make a folder: %s\n", std::strerror(errno));
            std::abort();
        }
        dir_ = dir;
        std::error_code ec;
        fs::create_directory(dir_ / "metrics", ec);
        for (const char* name : {"events.jsonl", "config.toml", "architecture.json", "metrics/test_acc.csv",
                                 "metrics/episodes.csv"})
            if (!ec)
                fs::create_symlink(target, dir_ / name, ec);
        if (ec) {
            std::fprintf(stderr, "fuzz: cannot make the run folder: %s\n", ec.message().c_str());
            std::abort();
        }
    }
    ~RunFolder()
    {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    RunFolder(const RunFolder&) = delete;
    RunFolder& operator=(const RunFolder&) = delete;
    const fs::path& path() const { return dir_; }

private:
    fs::path dir_;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::InputFile file(data, size);
    const RunFolder folder(file.path());
    const auto run = core::io::read_run(folder.path());
    (void)core::io::final_accuracy(run);
    (void)core::io::learn_settings(run);
    return 0;
}
