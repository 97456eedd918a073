// Training a simulation table's rows: the warm-start trunk up to the first allocation event, then
// every missing action sequence from its checkpoint, one at a time or as a tree of shared prefixes.
#include "core/sim/table_training.h"
#include "core/table/sequences.h"

#include "core/agent/agent.h"
#include "core/train/setup.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "core/util/read_file.h"
#include "core/util/atomic_file.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>

namespace rlda::core::sim::detail {
namespace {

namespace fs = std::filesystem;
using Seconds = std::chrono::duration<double>;
// Whether the call trains the sequence of a code: in its part, and among those asked for.
using Wanted = std::function<bool(std::int64_t)>;

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
    // Every table build records its nodes' decision features; the trunk gathers the gradient
    // statistics of its last epoch into the checkpoint for the first node.
    s.measure_features = true;
    return s;
}

} // namespace

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

namespace {

// Plays a fixed sequence, as FixedSequenceAgent does, and records the features it is given at each
// of the table's decisions (the first adaptation mode's) that the sink lacks.
class RecordingAgent final : public agent::Agent {
public:
    RecordingAgent(std::vector<int> seq, int decisions, FeatureSink* sink)
        : fixed_(seq), seq_(std::move(seq)), decisions_(decisions), sink_(sink)
    {
    }
    agent::Decision decide(const agent::DecisionContext& c) override
    {
        if (sink_ && c.features && calls_ < decisions_ && static_cast<std::size_t>(calls_) <= seq_.size()) {
            const std::vector<int> prefix(seq_.begin(), seq_.begin() + calls_);
            if (!sink_->has(prefix))
                sink_->add(prefix, *c.features);
        }
        ++calls_;
        return fixed_.decide(c);
    }
    std::string name() const override { return fixed_.name(); }
    bool reads_features() const override { return sink_ != nullptr; }

private:
    agent::FixedSequenceAgent fixed_;
    std::vector<int> seq_;
    int decisions_;
    FeatureSink* sink_;
    int calls_ = 0;
};

// One sequence from the checkpoint to the end of the budget; empty when stopped.
std::optional<TableRow> branch(const Job& j, const fs::path& checkpoint, const std::vector<int>& seq,
                               const std::stop_token& stop, train::TrainObserver* observer, BuildProgress& p,
                               FeatureSink* features)
{
    auto clock = train::make_clock(j.c.scheduler);
    train::Scheduler sched(j.c.scheduler.budget, train::allocation_events(j.c.scheduler),
                           j.c.scheduler.start_time, *clock);
    RecordingAgent agent(seq, j.decisions, features);
    DecisionTimes times;
    train::ObserverList observers;
    observers.add(&times);
    observers.add(observer);
    train::Trainer trainer(settings_for(j.c), j.spec, j.data, sched, *clock, agent, &observers);
    trainer.resume_from(checkpoint);
    const train::RunResult r = trainer.run(stop);
    const auto w = trainer.work();
    p.epochs += w.epochs;
    p.steps += w.steps;
    p.evaluations += w.evaluations;
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

// Each sequence of the part that `table` lacks from the warm start to the end of the budget.
void train_per_sequence(const Job& j, const fs::path& checkpoint, SimulationTable& table,
                        const Wanted& wanted, RowSink& sink, BuildProgress& p, const std::stop_token& stop,
                        train::TrainObserver* observer, FeatureSink* features)
{
    for (std::int64_t code = 0; code < table.sequences() && !stop.stop_requested(); ++code) {
        if (!wanted(code))
            continue;
        const auto seq = sequence_of(code, j.decisions, j.num_actions);
        if (table.find(seq))
            continue;
        auto row = branch(j, checkpoint, seq, stop, observer, p, features);
        if (!row)
            break;
        sink.add(std::move(*row));
    }
}

// The time left at each decision, as the trainer reports it.
class TimeLeft final : public train::TrainObserver {
public:
    void on_adaptation(const train::AdaptationEvent& e) override { last = e.time_left; }
    double last = 0.0;
};

// The part's missing sequences as a tree: depth first from the warm start, the state at each
// decision taken in memory and every action tried from it (BuildOrder::Tree in build.h).
class TreeBuilder {
public:
    TreeBuilder(const Job& j, const fs::path& checkpoint, SimulationTable& table, const Wanted& wanted,
                RowSink& sink, BuildProgress& p, const std::stop_token& stop, train::TrainObserver* observer,
                FeatureSink* features)
        : j_(j), table_(table), wanted_(wanted), sink_(sink), features_(features), p_(p), stop_(stop),
          clock_(train::make_clock(j.c.scheduler)),
          sched_(j.c.scheduler.budget, train::allocation_events(j.c.scheduler), j.c.scheduler.start_time,
                 *clock_),
          never_consulted_({})
    {
        observers_.add(&times_);
        observers_.add(observer);
        trainer_ = std::make_unique<train::Trainer>(settings_for(j.c), j.spec, j.data, sched_, *clock_,
                                                    never_consulted_, &observers_);
        trainer_->resume_from(checkpoint);
        before_ = trainer_->work();
        at_start_ = {p.epochs, p.steps, p.evaluations};
    }

    // The work so far into the progress report.
    void count_work()
    {
        const auto w = trainer_->work();
        p_.epochs = at_start_.epochs + w.epochs - before_.epochs;
        p_.steps = at_start_.steps + w.steps - before_.steps;
        p_.evaluations = at_start_.evaluations + w.evaluations - before_.evaluations;
    }

    void build()
    {
        if (missing({})) {
            if (trainer_->run_to_decision(stop_) == train::Trainer::Pause::Decision)
                node({}, {});
            else
                leaves({}, {});
        }
        count_work();
    }

private:
    // Whether the part lacks a row under `prefix`.
    bool missing(const std::vector<int>& prefix) const
    {
        std::int64_t first = sequence_code(prefix, j_.num_actions), count = 1;
        for (std::size_t i = prefix.size(); i < static_cast<std::size_t>(j_.decisions); ++i) {
            first *= j_.num_actions;
            count *= j_.num_actions;
        }
        for (std::int64_t code = first; code < first + count; ++code)
            if (wanted_(code) && !table_.find(sequence_of(code, j_.decisions, j_.num_actions)))
                return true;
        return false;
    }

    // At a pending decision after `prefix`, `times` the time left at each decision so far.
    void node(const std::vector<int>& prefix, const std::vector<double>& times)
    {
        // Once per node, before any child moves the trainer on: the state every path here shares.
        if (features_ && !features_->has(prefix))
            features_->add(prefix, trainer_->decision_features());
        const train::TrainerState here = trainer_->state();
        bool fresh = true; // the trainer is still at `here`
        for (int a = 0; a < j_.num_actions && !stop_.stop_requested(); ++a) {
            std::vector<int> seq = prefix;
            seq.push_back(a);
            if (!missing(seq))
                continue;
            if (!fresh)
                trainer_->restore(here);
            fresh = false;
            const auto pause = trainer_->decide(a, stop_);
            if (stop_.stop_requested())
                return;
            std::vector<double> at = times;
            at.push_back(times_.last);
            if (pause == train::Trainer::Pause::Decision && seq.size() < static_cast<std::size_t>(j_.decisions))
                node(seq, at);
            else
                leaves(seq, at);
        }
    }

    // The run ended (or made its last decision) after `prefix`: every sequence under it ends alike.
    void leaves(const std::vector<int>& prefix, std::vector<double> times)
    {
        const train::RunResult r = trainer_->run(stop_);
        if (r.cancelled)
            return;
        // A decision the budget never reached was made with no time left.
        times.resize(static_cast<std::size_t>(j_.decisions), 0.0);
        std::int64_t first = sequence_code(prefix, j_.num_actions), count = 1;
        for (std::size_t i = prefix.size(); i < static_cast<std::size_t>(j_.decisions); ++i) {
            first *= j_.num_actions;
            count *= j_.num_actions;
        }
        for (std::int64_t code = first; code < first + count; ++code) {
            auto seq = sequence_of(code, j_.decisions, j_.num_actions);
            if (!wanted_(code) || table_.find(seq))
                continue;
            TableRow row;
            row.actions = std::move(seq);
            row.time_left = times;
            row.total_time = j_.c.scheduler.budget;
            row.accuracy = r.final_test_acc;
            count_work();
            sink_.add(std::move(row));
        }
    }

    const Job& j_;
    SimulationTable& table_;
    const Wanted& wanted_;
    RowSink& sink_;
    FeatureSink* features_;
    BuildProgress& p_;
    const std::stop_token& stop_;
    std::unique_ptr<train::Clock> clock_;
    train::Scheduler sched_;
    agent::FixedSequenceAgent never_consulted_; // every decision is taken by decide()
    TimeLeft times_;
    train::ObserverList observers_;
    std::unique_ptr<train::Trainer> trainer_;
    train::Trainer::Work before_, at_start_;
};

} // namespace

RowSink::RowSink(const Job& j, const fs::path& file, SimulationTable& table, BuildProgress& p,
                 const std::function<void()>& report)
    : appender_(file, table_header(j.decisions)), table_(table), p_(p), report_(report)
{
}

void RowSink::add(TableRow row)
{
    appender_.append(table_line(row));
    table_.add(row);
    ++p_.done;
    ++p_.computed;
    p_.row = std::move(row);
    const double per_row = Seconds(std::chrono::steady_clock::now() - started_).count() / p_.computed;
    p_.eta = per_row * (p_.total - p_.done);
    report_();
}

void train_missing(const Job& j, const fs::path& checkpoint, SimulationTable& table, int part, int parts,
                   const fs::path& file, BuildProgress& p, const std::function<void()>& report,
                   const std::stop_token& stop, train::TrainObserver* observer, BuildOrder order,
                   FeatureSink* features, const std::vector<char>* only)
{
    const Wanted wanted = [&](std::int64_t code) {
        return in_part(code, part, parts, j.decisions, j.num_actions) &&
               (only == nullptr || (*only)[static_cast<std::size_t>(code)] != 0);
    };
    RowSink sink(j, file, table, p, report);
    if (order == BuildOrder::Tree && tree_buildable(j.c))
        TreeBuilder(j, checkpoint, table, wanted, sink, p, stop, observer, features).build();
    else
        train_per_sequence(j, checkpoint, table, wanted, sink, p, stop, observer, features);
}

namespace {

// The file with its torn last line dropped; removed when not even its header is whole.
const fs::path& whole_lines(const fs::path& file)
{
    std::error_code ec;
    if (!fs::exists(file, ec))
        return file;
    const std::string text = read_text_file(file);
    const auto end = text.rfind('\n');
    if (end == std::string::npos)
        fs::remove(file);
    else if (end + 1 != text.size())
        write_text_atomically(file, text.substr(0, end + 1));
    return file;
}

} // namespace

FeatureSink::FeatureSink(const fs::path& file, TableFeatures known, std::uint64_t seed)
    : appender_(whole_lines(file), features_header() + '\n'), known_(std::move(known)), seed_(seed)
{
}

void FeatureSink::add(const std::vector<int>& prefix, const agent::DecisionFeatures& features)
{
    if (has(prefix))
        return;
    appender_.append(features_line(seed_, prefix, features) + '\n');
    known_.add(seed_, prefix, features);
}

} // namespace rlda::core::sim::detail
