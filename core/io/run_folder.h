// A folder per run: config.toml, metrics/<series>.csv, events.jsonl, checkpoints. Append-only,
// flushed per record, so a killed run keeps everything up to its last record.
#pragma once

#include "core/train/events.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

namespace rlda::core::io {

// Appends rows to one CSV file under a header written once, flushed per row.
class CsvAppender {
public:
    CsvAppender(const std::filesystem::path& file, const std::string& header);
    void append(const std::string& row); // without the newline

private:
    std::ofstream out_;
};

// Appends one JSON object per line, flushed per line.
class EventLog {
public:
    explicit EventLog(const std::filesystem::path& file);
    void append(const std::string& json_object); // one line, no newline inside

private:
    std::ofstream out_;
};

class RunFolder final : public train::TrainObserver {
public:
    // Creates `dir` (and parents) with rlda's marker (core/util/output_folder.h). An existing file,
    // or a non-empty folder, is an Error unless `force` and the folder is one rlda made, which is
    // emptied first.
    RunFolder(const std::filesystem::path& dir, bool force);

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
    std::filesystem::path dir_;
    EventLog events_;
    std::map<std::string, std::unique_ptr<CsvAppender>> series_;
};

// JSON of a model summary (also used by the event log's adaptation records).
std::string summary_json(const model::ModelSummary& s);

} // namespace rlda::core::io
