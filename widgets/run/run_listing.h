// What the Runs page reads of run folders, off the GUI thread: one run with the facts about its
// folder, a listing of a root, and the status a run's row and summary show.
#pragma once

#include "core/io/run_fields.h"
#include "core/io/run_notes.h"
#include "core/io/run_reader.h"
#include "core/table/open_table.h"
#include "core/table/table_status.h"
#include "widgets/job_tracker.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <filesystem>
#include <optional>

namespace rlda::widgets {

// A run not finished whose newest file is younger than this is "running", else "incomplete".
inline constexpr int kRunningWindowS = 120;

// What a job reads of one run folder beside the run itself.
struct RunFacts {
    bool tableFolder = false;
    bool configFile = false; // config.toml: a table can be finished with rlda simulate
    std::optional<core::sim::TableStatus> table; // read for a table folder whose metadata reads
    QDateTime modified;      // its newest file
    QString tableFile;       // table_file(run.path), for a table folder
    QString signature;       // names, sizes and times of its files: unchanged means not read again
    QStringList appended;    // its subfolders and the files a run appends to (.csv, .jsonl)
    core::io::RunFields fields;
    core::io::RunNotes notes;
    QString notesError; // notes.json refused: its one line
};

struct RunRead {
    core::io::RunData run;
    RunFacts facts;
    bool unchanged = false; // a rescan found its signature as listed: only run.path is set
};

struct RunListing {
    QList<RunRead> runs;
    QStringList errors;  // folders find_runs() found that read_run() refused
    QStringList folders; // the folders under the root that are not runs (down to find_runs' depth)
};

// table.csv beside table.json or config.toml: what rlda simulate and sweeps write; or, while they
// write it, table.json beside parts/.
bool isTableFolder(const core::io::RunData& run);
QString tableStatusText(const core::sim::TableStatus& table); // "16/16 rows", "3/16 rows, incomplete"
// A run not finished that wrote within kRunningWindowS.
bool writtenLately(const RunFacts& facts);
// The status of a run that is not a table folder: finished, cancelled, killed (truncated),
// running or incomplete, from what was read (no disk).
QString runStatus(const core::io::RunData& run, const RunFacts& facts);
// Being written, or it might be: a watcher follows its appended files.
bool stillWritten(const core::io::RunData& run, const RunFacts& facts);

// On the job pool. One run folder as the Runs page shows it; throws what read_run() throws.
RunRead readRunFolder(const std::filesystem::path& path);
// On the job pool. The runs under `root`; `known` holds the signature of each run listed now (a
// live rescan), whose unchanged runs are not read again. Stops early once `token` is stale.
RunListing listRunFolders(const QString& root, const QHash<QString, QString>& known, const JobTracker::Token& token);

} // namespace rlda::widgets
