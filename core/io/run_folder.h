// A folder per run: config.toml, metrics/<series>.csv, events.jsonl, checkpoints. Append-only,
// flushed per record, so a killed run keeps everything up to its last record.
#pragma once

#include "core/job/events.h"
#include "core/util/line_appender.h"
#include "core/util/output_folder.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace rlda::core::io {

// Appends rows to one CSV file under a header written once, one write(2) per row
// (core/util/line_appender.h): a full disk is an Error naming the file, never a silent gap.
class CsvAppender {
public:
    CsvAppender(const std::filesystem::path& file, const std::string& header);
    void append(const std::string& row); // without the newline

private:
    LineAppender out_;
};

// The types of the events a learning run writes into events.jsonl besides RunFolder's own
// (core/run/learn_run.cpp writes them): read_run keeps them verbatim (RunData::other_events), and
// counts a line of any type it knows neither as a problem.
namespace learning_event {
inline constexpr const char* kSettings = "settings";
inline constexpr const char* kStage = "stage";
inline constexpr const char* kGreedy = "greedy";
inline constexpr const char* kEvaluation = "evaluation";
inline constexpr const char* kAll[] = {kSettings, kStage, kGreedy, kEvaluation};
} // namespace learning_event

// Appends one JSON object per line, one write(2) per line.
class EventLog {
public:
    explicit EventLog(const std::filesystem::path& file);
    void append(const std::string& json_object); // one line, no newline inside

private:
    LineAppender out_;
};

class RunFolder final : public train::TrainObserver {
public:
    // Creates `dir` (and parents) with rlda's marker and holds its lock for the object's life
    // (core/util/output_folder.h). An existing file, or a non-empty folder, is an Error unless
    // `force`, the folder is one rlda made and it holds none of `inputs` (the files the run reads);
    // it is then replaced. A folder another process writes is an Error naming that process.
    RunFolder(const std::filesystem::path& dir, bool force, const InputPaths& inputs = {});

    const std::filesystem::path& path() const { return dir_; }
    std::filesystem::path file(const std::string& name) const { return dir_ / name; }

    // Written to a temporary name and renamed, so it is either absent or whole.
    void write_text(const std::string& name, const std::string& text);
    // metrics/<name>.csv as "epoch,time,value".
    void series(const std::string& name, double step, double time, double value);
    // metrics/<name>.csv with columns of its own (e.g. one row per learning episode).
    void series_row(const std::string& name, const std::string& header, const std::string& row);
    void event(const std::string& json_object) { events_.append(json_object); }

    void on_epoch(const train::EpochMetrics& m) override;
    void on_adaptation(const train::AdaptationEvent& e) override;
    void on_allocation(const train::AllocationRecord& r) override;
    void on_message(const std::string& text) override;
    void on_finished(const train::RunResult& r) override;

private:
    FolderLock lock_; // before events_: nothing is written into a folder another process holds
    std::filesystem::path dir_;
    EventLog events_;
    std::map<std::string, std::unique_ptr<CsvAppender>> series_;
};

// JSON of a model summary (also used by the event log's adaptation records).
std::string summary_json(const model::ModelSummary& s);

} // namespace rlda::core::io
