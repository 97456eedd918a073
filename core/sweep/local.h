// The `local` sweep backend: a simulation table's parts trained by worker processes on this machine.
#pragma once

#include "core/config/experiment.h"
#include "core/sweep/status.h"
#include "core/table/table.h"
#include "core/table/table_folder.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace rlda::core::sweep {

// What the files of `out` say about a sweep in `parts` parts: reads only, so it may run while the
// parts are being written. A part is Done when all its rows are on disk, else Pending (files do
// not tell whether a process is at work on it). rows_done of a part counts its rows in its part
// file and in table.csv (rows collected from an earlier sweep).
SweepStatus status(const std::filesystem::path& out, const sim::TableShape& shape, int parts);
// The same, the shape taken from out/config.toml (the model at the dataset's sample shape; no data is
// loaded).
SweepStatus status(const std::filesystem::path& out, int parts);

struct LocalOptions {
    int workers = 1;               // worker processes = parts; >= 1
    int max_retries = 2;           // reruns of a part whose process failed
    std::filesystem::path program; // the rlda binary; empty = this process's own (/proc/self/exe)
    double poll_seconds = 0.2;     // how often the children and the files are looked at
};

using StatusFn = std::function<void(const SweepStatus&)>;

// Runs part i of N = workers as `PROGRAM simulate OUT/config.toml --out OUT --part i/N` in its own
// process group (stdout and stderr to OUT/parts/part-i-of-N.log) in a folder prepare_sweep made
// ready, restarts a part whose process failed (exit code, signal, or rows missing) up to
// max_retries times, and returns when every part is done or has failed for good. `progress` sees
// the status at the start and whenever it changes. When `stop` is requested the children get
// SIGTERM, then SIGKILL after 5 s; their whole rows stay on disk. Does not collect.
SweepStatus run_parts(const std::filesystem::path& out, const sim::TableShape& shape, const LocalOptions& o,
                      const StatusFn& progress = {}, const std::stop_token& stop = {});

// The sweep's failure as one line ("part 1/2 failed 3 times: ...; see LOG"), "" when none failed.
std::string failure_message(const std::filesystem::path& out, const SweepStatus& s);

} // namespace rlda::core::sweep
