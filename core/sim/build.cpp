// The table builder: one warm-start trunk, then one branch run per action sequence, resumable.
#include "core/sim/build.h"

#include "core/agent/agent.h"
#include "core/config/experiment_io.h"
#include "core/data/dataset.h"
#include "core/model/spec.h"
#include "core/train/experiment.h"
#include "core/train/trainer.h"
#include "core/util/atomic_file.h"
#include "core/util/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <ranges>
#include <sstream>

namespace rlda::core::sim {
namespace {

namespace fs = std::filesystem;
using Seconds = std::chrono::duration<double>;

// Everything the trunk and the branches share; built once per call.
struct Job {
    const config::ExperimentConfig& c;
    data::DatasetSplit data;
    model::ModelSpec spec;
    int decisions = 0;
    int num_actions = 0;
};

Job make_job(const config::ExperimentConfig& c)
{
    if (c.trainer.max_decisions < 1)
        throw Error(
            fmt::format("trainer.max_decisions: a simulation table needs at least one decision, not {}",
                        c.trainer.max_decisions));
    const bool has_up =
        std::ranges::any_of(c.scheduler.events, [](const auto& e) { return e.change == config::Change::Up; });
    if (!has_up)
        throw Error("scheduler.events: a simulation table starts where the allocation goes up, but no \"up\" "
                    "event is configured (add e.g. { time = 70.0, change = \"up\" })");
    Job j{c, train::load_dataset(c.dataset, c.job.seed), {}, c.trainer.max_decisions, 0};
    j.spec = train::job_model(c, j.data);
    j.num_actions = model::original_block_count(j.spec) + 1;
    return j;
}

// The sections whose settings change a table's numbers; [agent], [policy], [runner] and the name do not.
std::vector<std::string> differing_sections(const config::ExperimentConfig& a,
                                            const config::ExperimentConfig& b)
{
    std::vector<std::string> out;
    if (a.job != b.job)
        out.emplace_back("job");
    if (a.dataset != b.dataset)
        out.emplace_back("dataset");
    if (a.scheduler != b.scheduler)
        out.emplace_back("scheduler");
    if (a.trainer != b.trainer)
        out.emplace_back("trainer");
    return out;
}

// Creates `out`, or checks that it holds a build of the same settings; empties it when `force`.
void prepare_folder(const config::ExperimentConfig& c, const fs::path& out, bool force)
{
    std::error_code ec;
    if (fs::exists(out, ec) && !fs::is_directory(out, ec))
        throw Error(fmt::format("{}: exists and is not a folder; choose another --out", out.string()));
    if (fs::exists(out, ec) && !fs::is_empty(out, ec)) {
        if (force) {
            for (const auto& entry : fs::directory_iterator(out))
                fs::remove_all(entry.path());
        } else {
            const fs::path saved = out / "config.toml";
            if (!fs::exists(saved))
                throw Error(fmt::format("{}: the folder exists and holds no simulation table build (no "
                                        "config.toml); choose another --out or pass --force to empty it",
                                        out.string()));
            const auto differ = differing_sections(config::load_experiment(saved.string()), c);
            if (!differ.empty())
                throw Error(
                    fmt::format("{}: the table there was built with other [{}] settings; pass --force "
                                "to start over or choose another --out",
                                saved.string(), fmt::join(differ, "], [")));
        }
    }
    fs::create_directories(out, ec);
    if (ec)
        throw Error(fmt::format("{}: cannot create the table folder: {}", out.string(), ec.message()));
    if (!fs::exists(out / "config.toml"))
        write_text_atomically(out / "config.toml", config::to_toml(c));
}

// A kill may cut the last appended line short; only whole lines count. False when not even the
// header is whole.
bool drop_torn_line(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    const auto end = text.rfind('\n');
    if (end == std::string::npos)
        return false;
    if (end + 1 != text.size())
        write_text_atomically(file, text.substr(0, end + 1));
    return true;
}

// The rows an earlier build finished, rewritten sorted so that appending continues a clean file.
SimulationTable kept_rows(const Job& j, const fs::path& file)
{
    if (!fs::exists(file) || !drop_torn_line(file)) {
        fs::remove(file);
        return {j.decisions, j.num_actions};
    }
    SimulationTable t = SimulationTable::load(file.string(), j.num_actions);
    if (t.decisions() != j.decisions)
        throw Error(fmt::format("{}: the table has {} decisions, trainer.max_decisions is {}", file.string(),
                                t.decisions(), j.decisions));
    t.save(file.string());
    return t;
}

// Appends rows one whole line per write, flushed, so a kill leaves every finished row readable.
class RowAppender {
public:
    RowAppender(const fs::path& file, int decisions) : file_(file)
    {
        const bool fresh = !fs::exists(file) || fs::file_size(file) == 0;
        out_.open(file, std::ios::binary | std::ios::app);
        if (fresh)
            out_ << table_header(decisions);
        check();
    }
    void append(const TableRow& row)
    {
        out_ << table_line(row);
        check();
    }

private:
    void check()
    {
        out_.flush();
        if (!out_)
            throw Error(fmt::format("{}: cannot write", file_.string()));
    }
    fs::path file_;
    std::ofstream out_;
};

// Ends the trunk once the first allocation event was handled: the checkpoint is on disk by then.
class StopAtAllocation final : public train::TrainObserver {
public:
    explicit StopAtAllocation(std::stop_source& s) : stop_(s) {}
    void on_allocation(const train::AllocationRecord&) override
    {
        seen = true;
        stop_.request_stop();
    }
    bool seen = false;

private:
    std::stop_source& stop_;
};

class DecisionTimes final : public train::TrainObserver {
public:
    void on_adaptation(const train::AdaptationEvent& e) override { times.push_back(e.time_left); }
    std::vector<double> times;
};

train::TrainerSettings settings_for(const config::ExperimentConfig& c, const fs::path& checkpoint = {})
{
    train::TrainerSettings s;
    s.job = c.job;
    s.trainer = c.trainer;
    s.warm_start_checkpoint = checkpoint;
    return s;
}

// Trains from scratch up to the first allocation event, where the trainer writes `checkpoint`.
void warm_start(const Job& j, const fs::path& checkpoint, const std::stop_token& stop,
                train::TrainObserver* observer)
{
    auto clock = train::make_clock(j.c.scheduler);
    train::Scheduler sched(j.c.scheduler.budget, train::allocation_events(j.c.scheduler),
                           j.c.scheduler.start_time, *clock);
    agent::NoAdaptationAgent never_consulted; // the trunk stops before any decision
    std::stop_source trunk;
    std::stop_callback forward(stop, [&] { trunk.request_stop(); });
    StopAtAllocation stopper(trunk);
    train::ObserverList observers;
    observers.add(&stopper);
    observers.add(observer);
    train::Trainer trainer(settings_for(j.c, checkpoint), j.spec, j.data, sched, *clock, never_consulted,
                           &observers);
    trainer.run(trunk.get_token());
    if (!stopper.seen && !stop.stop_requested())
        throw Error(
            fmt::format("scheduler.events: the budget of {} s ran out before the first allocation event",
                        j.c.scheduler.budget));
}

// One sequence from the checkpoint to the end of the budget; empty when stopped.
std::optional<TableRow> branch(const Job& j, const fs::path& checkpoint, const std::vector<int>& seq,
                               const std::stop_token& stop, train::TrainObserver* observer)
{
    auto clock = train::make_clock(j.c.scheduler);
    train::Scheduler sched(j.c.scheduler.budget, train::allocation_events(j.c.scheduler),
                           j.c.scheduler.start_time, *clock);
    agent::FixedSequenceAgent agent(seq);
    DecisionTimes times;
    train::ObserverList observers;
    observers.add(&times);
    observers.add(observer);
    train::Trainer trainer(settings_for(j.c), j.spec, j.data, sched, *clock, agent, &observers);
    trainer.resume_from(checkpoint);
    const train::RunResult r = trainer.run(stop);
    if (r.cancelled)
        return std::nullopt;
    TableRow row;
    row.actions = seq;
    // A decision the budget never reached was made with no time left. Later "up" events restart
    // the sequence; the table records the first k decisions.
    row.time_left = times.times;
    row.time_left.resize(static_cast<std::size_t>(j.decisions), 0.0);
    row.total_time = j.c.scheduler.budget;
    row.accuracy = r.final_test_acc;
    return row;
}

std::vector<int> sequence_of(std::int64_t code, int decisions, int num_actions)
{
    std::vector<int> seq(static_cast<std::size_t>(decisions));
    for (int& a : std::ranges::reverse_view(seq)) {
        a = static_cast<int>(code % num_actions);
        code /= num_actions;
    }
    return seq;
}

} // namespace

SimulationTable build_table(const config::ExperimentConfig& c, const fs::path& out, bool force,
                            const BuildProgressFn& progress, std::stop_token stop,
                            train::TrainObserver* observer)
{
    const auto started = std::chrono::steady_clock::now();
    const Job j = make_job(c); // bad settings fail before the folder is touched
    prepare_folder(c, out, force);
    const fs::path file = out / "table.csv";
    const fs::path checkpoint = out / "warm_start.pt";
    SimulationTable table = kept_rows(j, file);

    BuildProgress p;
    p.total = static_cast<int>(table.sequences());
    p.done = static_cast<int>(table.rows().size());
    p.to_compute = p.total - p.done;
    p.warm_start_reused = fs::exists(checkpoint);
    if (!p.warm_start_reused && p.to_compute > 0)
        warm_start(j, checkpoint, stop, observer);
    if (stop.stop_requested())
        return table;
    const auto report = [&] {
        p.elapsed = Seconds(std::chrono::steady_clock::now() - started).count();
        if (progress)
            progress(p);
    };
    report();

    const auto rows_started = std::chrono::steady_clock::now();
    {
        RowAppender appender(file, j.decisions);
        for (std::int64_t code = 0; code < table.sequences() && !stop.stop_requested(); ++code) {
            const auto seq = sequence_of(code, j.decisions, j.num_actions);
            if (table.find(seq))
                continue;
            auto row = branch(j, checkpoint, seq, stop, observer);
            if (!row)
                break;
            appender.append(*row);
            table.add(*row);
            ++p.done;
            ++p.computed;
            p.row = std::move(row);
            const double per_row =
                Seconds(std::chrono::steady_clock::now() - rows_started).count() / p.computed;
            p.eta = per_row * (p.total - p.done);
            report();
        }
    }
    table.save(file.string());
    return table;
}

} // namespace rlda::core::sim
