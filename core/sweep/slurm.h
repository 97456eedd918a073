// The `slurm` sweep backend: a prepared table folder's parts run as one Slurm job array, followed
// through squeue (sacct when it answers) and the part files, failed tasks resubmitted, and the
// parts collected into table.csv.
#pragma once

#include "core/config/experiment.h"
#include "core/sweep/status.h"
#include "core/table/table_folder.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace rlda::core::sweep {

// A sweep folder submitted to Slurm. Everything needed to follow it again (job ids, parts, retries)
// is in DIR/sweep.json, rewritten atomically after every change, so any process can attach() to it.
// The folder and the rlda binary must be on a filesystem the compute nodes share.
class SlurmSweep {
public:
    // Writes DIR/sweep.sbatch and submits it as a job array of one task per part (`parts` of them,
    // or the default for the table's size when 0). DIR must already be
    // prepared (config.toml and warm_start.pt). Throws Error naming the command and its stderr when
    // sbatch is missing or fails, and for a folder that already holds an unfinished Slurm sweep.
    static SlurmSweep submit(const config::ExperimentConfig& c, const std::filesystem::path& dir,
                             const std::string& rlda_binary, int parts = 0);
    // Follows the sweep recorded in DIR/sweep.json; Error when there is none or it does not parse.
    static SlurmSweep attach(const std::filesystem::path& dir);

    // Looks at squeue, sacct (when accounting answers) and the part files; resubmits the tasks
    // that ended with their part incomplete (up to sweep.max_retries times each); collects
    // table.csv once every part is complete. Throws Error when squeue or sbatch fails.
    SweepStatus poll();
    // Collected, cancelled, or a part failed for good and nothing else is running.
    bool finished() const;
    // scancel on every job of the sweep, then waits until squeue shows none of them (Error after
    // `timeout_seconds`) and collects the whole rows written so far into table.csv. Does nothing to
    // a sweep already collected.
    void cancel(double timeout_seconds = 60.0);

    const std::filesystem::path& dir() const { return dir_; }
    int parts() const { return parts_; }
    // Every array job id submitted for this sweep, the first one first.
    std::vector<std::string> job_ids() const;

private:
    struct Task {
        std::string job; // the array job that runs (or ran) this part last
        int attempts = 1;
        int ended_polls = 0; // polls in a row that saw it ended with its part incomplete
        std::string detail;
    };

    class Lock;

    SlurmSweep() = default;
    void load();
    void save() const;
    void resubmit(const std::vector<int>& parts);
    std::string sbatch(const std::vector<std::string>& argv) const;
    std::map<std::string, std::string> queue(bool active_only) const;
    std::map<std::string, std::string> accounting() const;
    std::vector<int> rows_done() const;

    std::filesystem::path dir_;
    std::string rlda_;
    int parts_ = 0;
    int max_retries_ = 0;
    int decisions_ = 0;
    int num_actions_ = 0;
    std::int64_t sequences_ = 0;             // of one seed's table
    std::vector<std::uint64_t> seeds_;      // a replicated table's seeds; empty for one seed
    sim::TableShape shape() const { return {decisions_, num_actions_, sequences_, seeds_}; }
    std::vector<std::string> jobs_;
    std::vector<Task> tasks_;
    bool collected_ = false;
    bool cancelled_ = false;
    SweepStatus status_;
};

// The sbatch script of a sweep: #SBATCH lines from c.sweep, then `RLDA simulate DIR/config.toml
// --out DIR --part $SLURM_ARRAY_TASK_ID/PARTS`. Exposed for tests and `rlda sweep`.
std::string sbatch_script(const config::ExperimentConfig& c, const std::filesystem::path& dir,
                          const std::string& rlda_binary, int parts);

} // namespace rlda::core::sweep
