// The state of a sweep (a table's rows spread over parts run by processes or cluster jobs), shared
// by every backend so that the command line and the workbench show them alike.
#pragma once

#include <string>
#include <vector>

namespace rlda::core::sweep {

enum class TaskState {
    Pending, // waiting to run (queued, or waiting to be resubmitted)
    Running,
    Done,    // its part file holds every row of the part
    Failed,  // ended with its part incomplete and no retries left
};

// "pending", "running", "done", "failed".
inline const char* to_string(TaskState s)
{
    switch (s) {
    case TaskState::Pending:
        return "pending";
    case TaskState::Running:
        return "running";
    case TaskState::Done:
        return "done";
    case TaskState::Failed:
        return "failed";
    }
    return "?";
}

// One part of the sweep: the process or array task that trains it.
struct TaskStatus {
    int part = 0;          // 0-based
    TaskState state = TaskState::Pending;
    int rows_done = 0;     // whole rows in its part file
    int rows_total = 0;    // rows of the part
    int attempts = 0;      // runs started so far (1 + resubmissions)
    std::string id;        // backend's name for the run: a pid, or "JOBID_TASK" on Slurm
    std::string detail;    // why it failed or was resubmitted (backend state, log file); may be empty
};

struct SweepStatus {
    std::vector<TaskStatus> tasks; // one per part, in part order
    int rows_done = 0;             // summed over the parts
    int rows_total = 0;            // (n+1)^k, times the seeds
    int seeds = 1;                 // a replicated table's seeds (sweep.seeds), each a table of rows
    bool collected = false;        // table.csv written from the complete parts
    bool cancelled = false;
    int count(TaskState s) const
    {
        int n = 0;
        for (const auto& t : tasks)
            n += t.state == s;
        return n;
    }
};

} // namespace rlda::core::sweep
