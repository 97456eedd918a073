// Run folders: metric series as CSV and events as JSON lines (nlohmann::json), flushed per record.
#include "core/io/run_folder.h"

#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/output_folder.h"
#include "core/util/system_error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace rlda::core::io {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json summary_to_json(const model::ModelSummary& s)
{
    json units = json::array();
    for (const auto& u : s.units) {
        units.push_back({{"position", u.position},
                         {"original_index", u.original_index},
                         {"block", u.is_block},
                         {"original", u.original},
                         {"layers", u.layers},
                         {"parameters", u.parameters}});
        if (u.residual >= 0) { // written for residual blocks only: other units read as before
            units.back()["residual"] = u.residual;
            units.back()["skip"] = u.skip;
        }
    }
    return {{"name", s.name},           {"input", s.input},
            {"classes", s.classes},     {"parameters", s.parameters},
            {"original_blocks", s.original_blocks}, {"units", units}};
}

} // namespace

CsvAppender::CsvAppender(const fs::path& file, const std::string& header) : out_(file, header + '\n') {}

// One formatted line, one write: a kill leaves whole lines (or, at worst, one partial last line).
void CsvAppender::append(const std::string& row) { out_.append(row + '\n'); }

EventLog::EventLog(const fs::path& file) : out_(file, {}) {}

void EventLog::append(const std::string& json_object) { out_.append(json_object + '\n'); }

std::string summary_json(const model::ModelSummary& s) { return summary_to_json(s).dump(); }

static FolderLock prepare(const fs::path& dir, bool force, const InputPaths& inputs)
{
    // The marker first: --force replaces only folders rlda made.
    FolderLock lock = prepare_output_folder(dir, force, inputs);
    make_subfolder(lock.folder(), "metrics");
    return lock;
}

// Written where the lock is: a link at `dir` changed after the folder was prepared redirects nothing.
RunFolder::RunFolder(const fs::path& dir, bool force, const InputPaths& inputs)
    : lock_(prepare(dir, force, inputs)), dir_(lock_.path(dir)), events_(dir_ / "events.jsonl")
{
}

void RunFolder::write_text(const std::string& name, const std::string& text)
{
    write_text_atomically(dir_ / name, text);
}

void RunFolder::series(const std::string& name, double step, double time, double value)
{
    series_row(name, "epoch,time,value", fmt::format("{},{},{}", step, time, value));
}

void RunFolder::series_row(const std::string& name, const std::string& header, const std::string& row)
{
    auto& w = series_[name];
    if (!w)
        w = std::make_unique<CsvAppender>(dir_ / "metrics" / (name + ".csv"), header);
    w->append(row);
}

void RunFolder::on_epoch(const train::EpochMetrics& m)
{
    if (m.final) {
        json j{{"type", "final"}, {"time", m.time}, {"parameters", m.parameters}, {"steps", m.steps}};
        if (std::isfinite(m.test_acc))
            j["test_acc"] = m.test_acc; // none before any test (a run cancelled in its first epoch)
        if (!m.tested)
            j["tested"] = false; // a cancel stopped the final test: test_acc is the last test's
        event(j.dump());
        return;
    }
    series("train_loss", m.epoch, m.time, m.train_loss);
    series("train_acc", m.epoch, m.time, m.train_acc);
    series("test_acc", m.epoch, m.time, m.test_acc);
    series("lr", m.epoch, m.time, m.lr);
    series("params", m.epoch, m.time, static_cast<double>(m.parameters));
}

void RunFolder::on_adaptation(const train::AdaptationEvent& e)
{
    event(json{{"type", "adaptation"},
               {"decision", e.decision},
               {"time", e.time},
               {"time_left", e.time_left},
               {"agent", e.agent},
               {"action", e.action},
               {"did_nothing", e.did_nothing},
               {"operation", e.operation},
               {"block", e.block},
               {"operations", e.operations},
               {"probabilities", e.probabilities},
               {"max_abs_diff", e.max_abs_diff},
               {"before", summary_to_json(e.before)},
               {"after", summary_to_json(e.after)}}
              .dump());
}

void RunFolder::on_allocation(const train::AllocationRecord& r)
{
    event(json{{"type", "allocation"}, {"time", r.time}, {"change", train::to_string(r.change)}, {"effect", r.effect}}
              .dump());
}

void RunFolder::on_message(const std::string& text)
{
    event(json{{"type", "message"}, {"text", text}}.dump());
}

void RunFolder::on_finished(const train::RunResult& r)
{
    json j{{"type", "finished"},   {"epochs", r.epochs},       {"steps", r.steps},
           {"actions", r.actions}, {"cancelled", r.cancelled}, {"parameters", r.final_model.parameters}};
    if (std::isfinite(r.final_test_acc))
        j["final_test_acc"] = r.final_test_acc;
    event(j.dump());
}

} // namespace rlda::core::io
