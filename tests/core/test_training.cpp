// Clocks, scheduler and the adapting trainer on synthetic data with the virtual clock.
#include "core/agent/agent.h"
#include "core/config/experiment_io.h"
#include "core/data/synthetic.h"
#include "core/io/run_folder.h"
#include "core/model/zoo.h"
#include "core/train/checkpoint.h"
#include "core/run/experiment_run.h"
#include "core/train/trainer.h"
#include "core/util/error.h"

#include <QtTest/QtTest>

#include <c10/util/string_utils.h>
#include <torch/cuda.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>
#include <torch/serialize/output-archive.h>

#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>

using namespace rlda::core;
using namespace rlda::core::train;

namespace {

struct Recorder : TrainObserver {
    std::vector<EpochMetrics> epochs;
    std::vector<AdaptationEvent> adaptations;
    std::vector<AllocationRecord> allocations;
    std::int64_t progress = 0;
    std::function<void()> on_batch;
    void on_epoch(const EpochMetrics& m) override { epochs.push_back(m); }
    void on_adaptation(const AdaptationEvent& e) override { adaptations.push_back(e); }
    void on_allocation(const AllocationRecord& r) override { allocations.push_back(r); }
    void on_progress(const BatchProgress&) override
    {
        ++progress;
        if (on_batch)
            on_batch();
    }
};

// 4 classes of 3x12x12 prototypes plus noise: 8 steps of 32 per epoch.
const data::DatasetSplit& tiny_data()
{
    static const data::DatasetSplit split = [] {
        data::SyntheticOptions o;
        o.shape = {3, 12, 12};
        o.classes = 4;
        o.train_size = 256;
        o.test_size = 128;
        o.seed = 5;
        return data::make_synthetic(o);
    }();
    return split;
}

TrainerSettings settings()
{
    TrainerSettings s;
    s.job.batch_size = 32;
    s.job.seed = 17;
    return s;
}

struct Run {
    RunResult result;
    Recorder rec;
};

// Budget 40 s at 1 s per step: 5 whole epochs of 8 steps.
Run train_job(std::vector<AllocationEvent> events, agent::Agent& agent, TrainerSettings s = settings(),
        const std::string& checkpoint_to = {}, const std::string& resume_from = {}, TrainObserver* extra = nullptr,
        double budget = 40.0)
{
    Run r;
    VirtualClock clock(1.0);
    Scheduler sched(budget, std::move(events), 0.0, clock);
    s.warm_start_checkpoint = checkpoint_to;
    ObserverList obs;
    obs.add(&r.rec);
    obs.add(extra);
    Trainer t(s, model::zoo_model("ConvNet2", {3, 12, 12}, 4), tiny_data(), sched, clock, agent, &obs);
    if (!resume_from.empty())
        t.resume_from(resume_from);
    r.result = t.run();
    return r;
}

std::string read_file(const QString& path)
{
    std::ifstream in(path.toStdString());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every hook, as one line each, in the order they came.
struct HookLog : TrainObserver {
    std::vector<std::string> hooks;
    std::vector<EpochMetrics> epochs;
    std::vector<std::string> messages;
    int max_progress_epoch = 0;
    std::int64_t progress = 0;
    void on_start(const RunStart&) override { hooks.push_back("start"); }
    void on_epoch(const EpochMetrics& m) override
    {
        hooks.push_back(m.final ? "final" : "epoch");
        epochs.push_back(m);
    }
    void on_progress(const BatchProgress& p) override
    {
        ++progress;
        max_progress_epoch = std::max(max_progress_epoch, p.epoch);
        if (hooks.empty() || hooks.back() != "progress")
            hooks.push_back("progress"); // a run of batches is one line
    }
    void on_adaptation(const AdaptationEvent&) override { hooks.push_back("adaptation"); }
    void on_allocation(const AllocationRecord&) override { hooks.push_back("allocation"); }
    void on_message(const std::string& text) override
    {
        hooks.push_back("message");
        messages.push_back(text);
    }
    void on_finished(const RunResult&) override { hooks.push_back("finished"); }
    int count(const std::string& hook) const { return static_cast<int>(std::count(hooks.begin(), hooks.end(), hook)); }
    std::size_t first(const std::string& hook) const
    {
        return static_cast<std::size_t>(std::find(hooks.begin(), hooks.end(), hook) - hooks.begin());
    }
};

torch::Tensor positional_ints(const std::vector<int>& v)
{
    std::vector<std::int64_t> w(v.begin(), v.end());
    return torch::tensor(w, torch::kLong);
}

// The warm-start checkpoint exactly as Trainer wrote it before version 2 (core/train/trainer.cpp at
// 744d37b, Impl::save_checkpoint): LibTorch's module and optimizer archives, and the counters, the
// clock and the history as positional tensors. Kept to prove that such files still load.
void write_positional_checkpoint(const std::string& file, model::Net& net, torch::optim::Optimizer& opt,
                                 const CheckpointMeta& m)
{
    torch::serialize::OutputArchive a;
    torch::serialize::OutputArchive model_archive, opt_archive;
    net->save(model_archive);
    opt.save(opt_archive);
    a.write("model", model_archive);
    a.write("optimizer", opt_archive);
    a.write("meta/model_name", c10::IValue(m.model_name));
    a.write("meta/input", torch::tensor(m.input, torch::kLong));
    a.write("meta/classes", torch::tensor(m.classes, torch::kLong));
    a.write("meta/deepened", positional_ints(m.grown));
    a.write("meta/chosen", positional_ints(m.chosen));
    a.write("meta/clock", torch::tensor({m.clock.seconds}, torch::kFloat64));
    a.write("meta/clock_counts", torch::tensor({static_cast<std::int64_t>(m.clock.steps),
                                                static_cast<std::int64_t>(m.clock.evaluations)},
                                               torch::kLong));
    a.write("meta/counters",
            torch::tensor({m.scheduler_reported, std::int64_t{m.epochs_started}, std::int64_t{m.epochs_completed},
                           m.steps, std::int64_t{m.adapting ? 1 : 0}, std::int64_t{m.decisions}},
                          torch::kLong));
    a.write("meta/lr", torch::tensor({m.lr}, torch::kFloat64));
    auto hist = torch::zeros({static_cast<std::int64_t>(m.history.size()), 10}, torch::kFloat64);
    for (std::size_t i = 0; i < m.history.size(); ++i) {
        const EpochMetrics& e = m.history[i];
        const std::vector<double> row{double(e.epoch), e.time,  e.time_left, e.train_loss,          e.train_acc,
                                      e.test_acc,      e.lr,    double(e.parameters), double(e.steps), e.final ? 1.0 : 0.0};
        hist[static_cast<std::int64_t>(i)] = torch::tensor(row, torch::kFloat64);
    }
    a.write("meta/history", hist);
    a.save_to(file);
}

// The warm-start checkpoint exactly as save_checkpoint wrote it at version 2 (core/train/checkpoint.cpp
// at d244218), before tensor files: a LibTorch archive of named entries. Kept to prove that such
// files still load.
void write_named_checkpoint(const std::string& file, model::Net& net, const torch::optim::Optimizer& opt,
                            const std::string& kind, const CheckpointMeta& m)
{
    torch::serialize::OutputArchive a;
    a.write("version", c10::IValue(std::int64_t{2}));
    a.write("meta/model_name", c10::IValue(m.model_name));
    a.write("meta/input", torch::tensor(m.input, torch::kLong));
    a.write("meta/classes", torch::tensor(m.classes, torch::kLong));
    a.write("meta/deepened", positional_ints(m.grown));
    a.write("meta/chosen", positional_ints(m.chosen));
    a.write("clock/seconds", c10::IValue(m.clock.seconds));
    a.write("clock/steps", c10::IValue(static_cast<std::int64_t>(m.clock.steps)));
    a.write("clock/evaluations", c10::IValue(static_cast<std::int64_t>(m.clock.evaluations)));
    a.write("scheduler/reported", c10::IValue(m.scheduler_reported));
    a.write("progress/epochs_started", c10::IValue(std::int64_t{m.epochs_started}));
    a.write("progress/epochs_completed", c10::IValue(std::int64_t{m.epochs_completed}));
    a.write("progress/steps", c10::IValue(m.steps));
    a.write("adaptation/active", c10::IValue(m.adapting));
    a.write("adaptation/decisions", c10::IValue(std::int64_t{m.decisions}));
    a.write("optimizer/lr", c10::IValue(m.lr));
    const auto column = [&](const char* name, auto get, bool integral) {
        std::vector<double> v;
        for (const auto& e : m.history)
            v.push_back(get(e));
        auto t = torch::tensor(v, torch::kFloat64).reshape({static_cast<std::int64_t>(v.size())});
        a.write(std::string("history/") + name, integral ? t.to(torch::kLong) : t, true);
    };
    column("epoch", [](const EpochMetrics& e) { return double(e.epoch); }, true);
    column("time", [](const EpochMetrics& e) { return e.time; }, false);
    column("time_left", [](const EpochMetrics& e) { return e.time_left; }, false);
    column("train_loss", [](const EpochMetrics& e) { return e.train_loss; }, false);
    column("train_acc", [](const EpochMetrics& e) { return e.train_acc; }, false);
    column("test_acc", [](const EpochMetrics& e) { return e.test_acc; }, false);
    column("lr", [](const EpochMetrics& e) { return e.lr; }, false);
    column("parameters", [](const EpochMetrics& e) { return double(e.parameters); }, true);
    column("steps", [](const EpochMetrics& e) { return double(e.steps); }, true);
    column("final", [](const EpochMetrics& e) { return e.final ? 1.0 : 0.0; }, true);
    for (const auto& p : net->named_parameters())
        a.write("model/" + p.key(), p.value().detach(), false);
    for (const auto& b : net->named_buffers())
        a.write("model/" + b.key(), b.value(), true);
    a.write("optimizer/kind", c10::IValue(kind));
    const auto& state = opt.state();
    for (const auto& p : net->named_parameters()) {
        const auto it = state.find(c10::guts::to_string(p.value().unsafeGetTensorImpl()));
        if (it == state.end())
            continue;
        const std::string pre = "optimizer/" + p.key() + "/";
        if (kind == "sgd") {
            const auto& s = static_cast<const torch::optim::SGDParamState&>(*it->second);
            if (s.momentum_buffer().defined())
                a.write(pre + "momentum_buffer", s.momentum_buffer(), true);
        } else {
            const auto& s = static_cast<const torch::optim::AdamParamState&>(*it->second);
            a.write(pre + "step", c10::IValue(s.step()));
            a.write(pre + "exp_avg", s.exp_avg(), true);
            a.write(pre + "exp_avg_sq", s.exp_avg_sq(), true);
            if (s.max_exp_avg_sq().defined())
                a.write(pre + "max_exp_avg_sq", s.max_exp_avg_sq(), true);
        }
    }
    a.save_to(file);
}

// A mid-run state of ConvNet2 deepened at block 1 on tiny_data's shape: weights and BatchNorm
// statistics off their initial values, optimizer state after a few steps, counters that are all
// different, so that a swapped field shows.
struct MidRun {
    model::ModelSpec base = model::zoo_model("ConvNet2", {3, 12, 12}, 4);
    model::Net net{nullptr};
    std::unique_ptr<torch::optim::Optimizer> opt;
    CheckpointMeta meta;

    explicit MidRun(const std::string& kind)
    {
        model::ModelSpec spec = base;
        model::deepen_spec(spec, 1);
        torch::manual_seed(3);
        net = model::Net(spec);
        model::train_on_noise(net, 3, 11);
        net->train();
        if (kind == "sgd")
            opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.02).momentum(0.9));
        else
            opt = std::make_unique<torch::optim::Adam>(net->parameters(), torch::optim::AdamOptions(0.02));
        const auto [x, y] = data::take(tiny_data().train, torch::arange(32));
        for (int i = 0; i < 3; ++i) {
            opt->zero_grad();
            torch::nn::functional::cross_entropy(net->forward(x), y).backward();
            opt->step();
        }
        meta.model_name = base.name;
        meta.input = base.input;
        meta.classes = base.classes;
        meta.grown = {1};
        meta.chosen = {1, 3};
        meta.clock = {21.0, 19, 2};
        meta.scheduler_reported = 1;
        meta.epochs_started = 3;
        meta.epochs_completed = 2;
        meta.steps = 19;
        meta.adapting = true;
        meta.decisions = 2;
        meta.lr = 0.0081;
        for (int e = 1; e <= 2; ++e) {
            EpochMetrics m;
            m.epoch = e;
            m.time = 8.5 * e;
            m.time_left = 40.0 - m.time;
            m.train_loss = 1.5 / e;
            m.train_acc = 0.3 * e;
            m.test_acc = 0.25 * e;
            m.lr = 0.01 * std::pow(0.9, e - 1);
            m.parameters = 1000 + e;
            m.steps = 8 * e;
            meta.history.push_back(m);
        }
    }
};

// The named optimizer state of `opt` over `net`: "<param>/<field>" -> tensor (Adam's step as a
// 0-d tensor).
std::map<std::string, torch::Tensor> optimizer_state(torch::optim::Optimizer& opt, model::Net& net)
{
    std::map<std::string, torch::Tensor> out;
    for (const auto& p : net->named_parameters()) {
        const auto it = opt.state().find(c10::guts::to_string(p.value().unsafeGetTensorImpl()));
        if (it == opt.state().end())
            continue;
        if (auto* s = dynamic_cast<torch::optim::SGDParamState*>(it->second.get()))
            out[p.key() + "/momentum_buffer"] = s->momentum_buffer();
        if (auto* s = dynamic_cast<torch::optim::AdamParamState*>(it->second.get())) {
            out[p.key() + "/step"] = torch::tensor(s->step());
            out[p.key() + "/exp_avg"] = s->exp_avg();
            out[p.key() + "/exp_avg_sq"] = s->exp_avg_sq();
        }
    }
    return out;
}

void compare_meta(const CheckpointMeta& got, const CheckpointMeta& want)
{
    QCOMPARE(got.model_name, want.model_name);
    QCOMPARE(got.input, want.input);
    QCOMPARE(got.classes, want.classes);
    QCOMPARE(got.grown, want.grown);
    QCOMPARE(got.chosen, want.chosen);
    QCOMPARE(got.clock.seconds, want.clock.seconds);
    QCOMPARE(got.clock.steps, want.clock.steps);
    QCOMPARE(got.clock.evaluations, want.clock.evaluations);
    QCOMPARE(got.scheduler_reported, want.scheduler_reported);
    QCOMPARE(got.epochs_started, want.epochs_started);
    QCOMPARE(got.epochs_completed, want.epochs_completed);
    QCOMPARE(got.steps, want.steps);
    QCOMPARE(got.adapting, want.adapting);
    QCOMPARE(got.decisions, want.decisions);
    QCOMPARE(got.lr, want.lr);
    QCOMPARE(got.history.size(), want.history.size());
    for (std::size_t i = 0; i < got.history.size(); ++i) {
        QCOMPARE(got.history[i].epoch, want.history[i].epoch);
        QCOMPARE(got.history[i].time, want.history[i].time);
        QCOMPARE(got.history[i].time_left, want.history[i].time_left);
        QCOMPARE(got.history[i].train_loss, want.history[i].train_loss);
        QCOMPARE(got.history[i].train_acc, want.history[i].train_acc);
        QCOMPARE(got.history[i].test_acc, want.history[i].test_acc);
        QCOMPARE(got.history[i].lr, want.history[i].lr);
        QCOMPARE(got.history[i].parameters, want.history[i].parameters);
        QCOMPARE(got.history[i].steps, want.history[i].steps);
        QCOMPARE(got.history[i].final, want.history[i].final);
    }
}

// Reads `file` into a fresh net and optimizer of `kind` and checks them against `from`.
void check_loads_as(const std::string& file, int version, MidRun& from, const std::string& kind)
{
    std::vector<std::string> warnings;
    CheckpointReader reader(file, [&](const std::string& w) { warnings.push_back(w); });
    QCOMPARE(reader.version(), version);
    // Only the LibTorch archives of versions 1 and 2 are unverified, and said to be, in one line.
    QCOMPARE(warnings.size(), std::size_t{version < kCheckpointVersion ? 1u : 0u});
    for (const auto& w : warnings)
        QVERIFY(w.starts_with(file + ": unverified") && w.find('\n') == std::string::npos);
    compare_meta(reader.meta(), from.meta);
    torch::manual_seed(99); // other initial weights than `from`'s
    model::ModelSpec spec = from.base;
    model::deepen_spec(spec, 1);
    model::Net net(spec);
    net->train();
    std::unique_ptr<torch::optim::Optimizer> opt;
    if (kind == "sgd")
        opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.02).momentum(0.9));
    else
        opt = std::make_unique<torch::optim::Adam>(net->parameters(), torch::optim::AdamOptions(0.02));
    reader.load_model(*net);
    reader.load_optimizer(*opt, *net);
    const auto want = from.net->named_parameters();
    for (const auto& p : net->named_parameters())
        QVERIFY2(torch::equal(p.value(), want[p.key()]), p.key().c_str());
    const auto want_buffers = from.net->named_buffers();
    for (const auto& b : net->named_buffers())
        QVERIFY2(torch::equal(b.value(), want_buffers[b.key()]), b.key().c_str());
    const auto got_state = optimizer_state(*opt, net);
    const auto want_state = optimizer_state(*from.opt, from.net);
    QCOMPARE(got_state.size(), want_state.size());
    QVERIFY(!got_state.empty());
    for (const auto& [key, t] : want_state) {
        QVERIFY2(got_state.count(key), key.c_str());
        QVERIFY2(torch::equal(got_state.at(key), t), key.c_str());
    }
}

// `f` throws an Error of one line that names `file`.
template <class F>
void expect_one_line_error(F&& f, const std::string& file)
{
    try {
        f();
        QFAIL(qPrintable(QString::fromStdString(file + ": accepted")));
    } catch (const Error& e) {
        const std::string text = e.what();
        QVERIFY2(text.find(file) != std::string::npos, text.c_str());
        QVERIFY2(text.find('\n') == std::string::npos, text.c_str());
    }
}

struct Thrower : TrainObserver {
    int epochs = 0;
    void on_epoch(const EpochMetrics&) override
    {
        if (++epochs == 2)
            throw std::runtime_error("observer refuses epoch 2");
    }
};

} // namespace

class TestTraining : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scheduler_reports_each_event_once_in_order()
    {
        VirtualClock clock(0.5);
        Scheduler s(10.0, {{4.0, Allocation::Down}, {2.0, Allocation::Up}, {2.0, Allocation::Up}}, 0.0, clock);
        std::vector<Allocation> seen;
        double last_left = s.time_left();
        for (int step = 0; step < 40; ++step) {
            if (const Allocation a = s.allocation(); a != Allocation::Same)
                seen.push_back(a);
            QVERIFY(s.time_left() <= last_left);
            last_left = s.time_left();
            clock.on_step();
        }
        QCOMPARE(seen, (std::vector<Allocation>{Allocation::Up, Allocation::Up, Allocation::Down}));
        QCOMPARE(s.time_left(), 0.0);
        QVERIFY(s.expired());
        QCOMPARE(s.time_budget(), 10.0);
    }

    void scheduler_start_time_and_bad_events()
    {
        VirtualClock clock(1.0);
        Scheduler s(400.0, {{70.0, Allocation::Up}}, 70.0, clock);
        QCOMPARE(s.time_left(), 330.0);
        QCOMPARE(s.allocation(), Allocation::Up); // due at once: the job starts where the event is
        QCOMPARE(s.allocation(), Allocation::Same);
        QVERIFY_THROWS_EXCEPTION(Error, Scheduler(-1.0, {}, 0.0, clock));
        QVERIFY_THROWS_EXCEPTION(Error, Scheduler(10.0, {{10.0, Allocation::Up}}, 0.0, clock));
        QVERIFY_THROWS_EXCEPTION(Error, Scheduler(10.0, {{-1.0, Allocation::Up}}, 0.0, clock));
    }

    void virtual_clock_restores_exactly()
    {
        VirtualClock a(0.1, 0.3);
        for (int i = 0; i < 1000; ++i)
            a.on_step();
        a.on_evaluation();
        VirtualClock b(0.1, 0.3);
        b.restore(a.state());
        for (int i = 0; i < 7; ++i) {
            a.on_step();
            b.on_step();
        }
        QCOMPARE(a.now(), b.now()); // exact, not approximately
    }

    void same_seed_same_run_bit_for_bit()
    {
        QTemporaryDir dir;
        std::vector<std::string> metrics[2];
        RunResult results[2];
        for (int i = 0; i < 2; ++i) {
            agent::RandomAgent agent(3);
            io::RunFolder folder(dir.filePath(QString::number(i)).toStdString(), false);
            results[i] = train_job({{12.0, Allocation::Up}}, agent, settings(), {}, {}, &folder).result;
        }
        QCOMPARE(results[0].final_test_acc, results[1].final_test_acc);
        QCOMPARE(results[0].actions, results[1].actions);
        for (const char* series : {"train_loss", "test_acc", "lr", "params"}) {
            const auto a = read_file(dir.filePath(QString("0/metrics/%1.csv").arg(series)));
            QVERIFY(a.size() > 20);
            QCOMPARE(a, read_file(dir.filePath(QString("1/metrics/%1.csv").arg(series))));
        }
        const auto events = read_file(dir.filePath("0/events.jsonl"));
        QVERIFY(events.find("\"type\":\"adaptation\"") != std::string::npos);
        QCOMPARE(events, read_file(dir.filePath("1/events.jsonl")));
    }

    void up_gives_exactly_max_decisions_consultations()
    {
        agent::FixedSequenceAgent agent({0, 2, 1});
        TrainerSettings s = settings();
        s.trainer.max_decisions = 2;
        Run r = train_job({{5.0, Allocation::Up}}, agent, s);
        QCOMPARE(static_cast<int>(r.rec.adaptations.size()), 2);
        QCOMPARE(r.result.actions, (std::vector<int>{0, 2}));
        QCOMPARE(r.rec.allocations.size(), std::size_t{1});
        for (const auto& e : r.rec.adaptations)
            QVERIFY(e.max_abs_diff >= 0.0 && e.max_abs_diff <= 1e-5);
        QCOMPARE(r.result.final_model.parameters,
                 r.rec.adaptations.back().after.parameters);
        QCOMPARE(r.rec.adaptations[0].before.original_blocks, 3);
        QCOMPARE(r.rec.adaptations[1].after.units.size(), r.rec.adaptations[0].before.units.size() + 2);
    }

    void lr_resets_after_each_adaptation()
    {
        agent::FixedSequenceAgent agent({0, 3, 1});
        Run r = train_job({{17.0, Allocation::Up}}, agent, settings(), {}, {}, nullptr, 80.0);
        // Epochs 1-2 complete (16 steps), the up at 17 s cuts epoch 3, then three consultations.
        std::vector<double> lrs;
        for (const auto& m : r.rec.epochs)
            if (!m.final)
                lrs.push_back(m.lr);
        QVERIFY(lrs.size() >= 6);
        QCOMPARE(lrs[0], 0.01);
        QCOMPARE(lrs[1], 0.01 * 0.9);
        QCOMPARE(lrs[2], 0.01); // after decision 1
        QCOMPARE(lrs[3], 0.01); // after decision 2 (Do Nothing also restarts the optimizer)
        QCOMPARE(lrs[4], 0.01); // after decision 3
        QCOMPARE(lrs[5], 0.01 * 0.9);
        QCOMPARE(static_cast<int>(r.rec.adaptations.size()), 3);
        QVERIFY(r.rec.adaptations[1].did_nothing);
    }

    void down_restores_the_smaller_architecture()
    {
        agent::FixedSequenceAgent agent({0, 1, 2});
        Run r = train_job({{3.0, Allocation::Up}, {30.0, Allocation::Down}}, agent, settings(), {}, {}, nullptr, 50.0);
        QCOMPARE(static_cast<int>(r.rec.adaptations.size()), 3);
        model::ModelSpec expected = model::zoo_model("ConvNet2", {3, 12, 12}, 4);
        model::deepen_spec(expected, 0);
        model::deepen_spec(expected, 1);
        QCOMPARE(r.result.final_model.parameters, model::summarize(expected).parameters);
        QCOMPARE(r.result.final_model.leaf_layers, model::summarize(expected).leaf_layers);
        QCOMPARE(r.rec.allocations.size(), std::size_t{2});
        QVERIFY(QString::fromStdString(r.rec.allocations[1].effect).contains("restored"));
        QVERIFY(r.result.final_test_acc > 0.5); // distillation kept it learning
    }

    void learns_well_above_chance()
    {
        agent::NoAdaptationAgent agent;
        Run r = train_job({}, agent);
        QCOMPARE(r.result.epochs, 5);
        // Chance is 0.25. The zoo models end in ReLU, as the original's do, so a class whose logit
        // dies can never win again: with 4 classes two can be lost, hence 0.45 and not more.
        QVERIFY2(r.result.final_test_acc > 0.45, qPrintable(QString::number(r.result.final_test_acc)));
        QVERIFY(r.rec.epochs[4].train_loss < 0.8 * r.rec.epochs[0].train_loss);
        QVERIFY(r.rec.epochs.back().final);
    }

    void branch_from_warm_start_equals_unbroken_run()
    {
        QTemporaryDir dir;
        const std::string ckpt = dir.filePath("warm.pt").toStdString();
        agent::FixedSequenceAgent a1({2, 0, 3});
        Run unbroken = train_job({{13.0, Allocation::Up}}, a1, settings(), ckpt);
        QVERIFY(QFile::exists(QString::fromStdString(ckpt)));
        agent::FixedSequenceAgent a2({2, 0, 3});
        Run branch = train_job({{13.0, Allocation::Up}}, a2, settings(), {}, ckpt);
        QCOMPARE(branch.result.final_test_acc, unbroken.result.final_test_acc);
        QCOMPARE(branch.result.actions, unbroken.result.actions);
        QCOMPARE(branch.result.steps, unbroken.result.steps);
        QCOMPARE(branch.rec.epochs.size(), unbroken.rec.epochs.size());
        for (std::size_t i = 0; i < branch.rec.epochs.size(); ++i) {
            QCOMPARE(branch.rec.epochs[i].train_loss, unbroken.rec.epochs[i].train_loss);
            QCOMPARE(branch.rec.epochs[i].test_acc, unbroken.rec.epochs[i].test_acc);
            QCOMPARE(branch.rec.epochs[i].time, unbroken.rec.epochs[i].time);
        }
        // Another branch with other actions differs: the checkpoint is a real fork point.
        agent::FixedSequenceAgent a3({3, 3, 3});
        Run other = train_job({{13.0, Allocation::Up}}, a3, settings(), {}, ckpt);
        QCOMPARE(other.result.final_model.parameters, model::summarize(model::zoo_model("ConvNet2", {3, 12, 12}, 4)).parameters);
    }

    void widening_runs_through_the_trainer()
    {
        // ConvNet2 has 3 blocks: 0..2 deepen, 3..4 widen blocks 0..1, 5 does nothing.
        TrainerSettings s = settings();
        s.trainer.operations = {"deepen", "widen"};
        agent::FixedSequenceAgent agent({4, 0, 3});
        Run r = train_job({{5.0, Allocation::Up}}, agent, s);
        QCOMPARE(static_cast<int>(r.rec.adaptations.size()), 3);
        const auto& w = r.rec.adaptations[0];
        QCOMPARE(w.operation, std::string("widen"));
        QCOMPARE(w.block, 1);
        QCOMPARE(w.operations, (std::vector<std::string>{"deepen", "widen"}));
        QCOMPARE(r.rec.adaptations[1].operation, std::string("deepen"));
        QCOMPARE(r.rec.adaptations[2].block, 0);
        for (const auto& e : r.rec.adaptations)
            QVERIFY2(e.max_abs_diff >= 0.0 && e.max_abs_diff <= 1e-5, std::to_string(e.max_abs_diff).c_str());
        model::ModelSpec expected = model::zoo_model("ConvNet2", {3, 12, 12}, 4);
        model::widen_spec(expected, 1, 2.0);
        model::deepen_spec(expected, 0);
        model::widen_spec(expected, 0, 2.0);
        QCOMPARE(r.result.final_model.leaf_layers, model::summarize(expected).leaf_layers);
        QVERIFY(std::isfinite(r.result.final_test_acc) && r.result.final_test_acc > 0.3);
        // The paper's numbering has no action 4 here: Do Nothing is 3.
        agent::FixedSequenceAgent deepen_only({4});
        QVERIFY_THROWS_EXCEPTION(Error, train_job({{5.0, Allocation::Up}}, deepen_only));
    }

    void undoing_a_widening_distils_into_the_narrower_model()
    {
        TrainerSettings s = settings();
        s.trainer.operations = {"deepen", "widen"};
        agent::FixedSequenceAgent agent({3, 4, 5});
        Run r = train_job({{3.0, Allocation::Up}, {30.0, Allocation::Down}}, agent, s, {}, {}, nullptr, 50.0);
        model::ModelSpec expected = model::zoo_model("ConvNet2", {3, 12, 12}, 4);
        model::widen_spec(expected, 0, 2.0);
        QCOMPARE(r.result.final_model.leaf_layers, model::summarize(expected).leaf_layers);
        QVERIFY(QString::fromStdString(r.rec.allocations[1].effect).contains("restored"));
        QVERIFY(r.result.final_test_acc > 0.4);
    }

    void a_branch_of_other_operations_is_refused()
    {
        QTemporaryDir dir;
        const std::string ckpt = dir.filePath("warm.pt").toStdString();
        TrainerSettings s = settings();
        s.trainer.operations = {"deepen", "widen"};
        agent::FixedSequenceAgent a1({3, 0, 5});
        Run unbroken = train_job({{13.0, Allocation::Up}}, a1, s, ckpt);
        agent::FixedSequenceAgent a2({3, 0, 5});
        Run branch = train_job({{13.0, Allocation::Up}}, a2, s, {}, ckpt);
        QCOMPARE(branch.result.final_test_acc, unbroken.result.final_test_acc);
        QCOMPARE(branch.result.final_model.leaf_layers, unbroken.result.final_model.leaf_layers);
        agent::FixedSequenceAgent a3({0});
        try {
            train_job({{13.0, Allocation::Up}}, a3, settings(), {}, ckpt);
            QFAIL("a deepen-only job resumed a checkpoint of deepen and widen actions");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains("trainer.operations"), e.what());
        }
    }

    void checkpoint_of_another_model_is_refused()
    {
        QTemporaryDir dir;
        const std::string ckpt = dir.filePath("warm.pt").toStdString();
        agent::NoAdaptationAgent none;
        train_job({{3.0, Allocation::Up}}, none, settings(), ckpt);
        VirtualClock clock(1.0);
        Scheduler sched(40.0, {}, 0.0, clock);
        Trainer t(settings(), model::zoo_model("ConvNet3", {3, 12, 12}, 4), tiny_data(), sched, clock, none);
        QVERIFY_THROWS_EXCEPTION(Error, t.resume_from(ckpt));
        QVERIFY_THROWS_EXCEPTION(Error, t.resume_from(dir.filePath("missing.pt").toStdString()));
    }

    void stop_token_cancels_between_batches()
    {
        agent::NoAdaptationAgent agent;
        std::stop_source stop;
        VirtualClock clock(1.0);
        Scheduler sched(40.0, {}, 0.0, clock);
        Recorder rec;
        rec.on_batch = [&] {
            if (rec.progress == 11)
                stop.request_stop();
        };
        Trainer t(settings(), model::zoo_model("ConvNet2", {3, 12, 12}, 4), tiny_data(), sched, clock, agent, &rec);
        const RunResult r = t.run(stop.get_token());
        QVERIFY(r.cancelled);
        QCOMPARE(r.steps, std::int64_t{11});
        QCOMPARE(r.epochs, 1);
    }

    void comparison_runs_the_same_job_without_adaptation()
    {
        QTemporaryDir dir;
        const auto c = config::load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
        const std::filesystem::path out = dir.filePath("run").toStdString();
        QCOMPARE(run::baseline_folder(out), std::filesystem::path(dir.filePath("run-none").toStdString()));
        QCOMPARE(run::baseline_folder("runs/x/"), std::filesystem::path("runs/x-none"));
        const auto none = run::without_adaptation(c);
        QVERIFY(none.agent.kind == config::AgentKind::None);
        QCOMPARE(none.name, c.name + "-none");
        auto same = none; // nothing else differs
        same.agent.kind = c.agent.kind;
        same.name = c.name;
        QVERIFY(same == c);

        Recorder rec;
        const run::Comparison r = run::run_comparison(c, out, false, &rec);
        QVERIFY(r.baseline_ran && !r.adapted.cancelled && !r.baseline.cancelled);
        QCOMPARE(r.adapted_dir, out);
        QCOMPARE(r.baseline_dir, run::baseline_folder(out));
        QCOMPARE(r.adapted.actions, (std::vector<int>{0, 1})); // synthetic-quick's fixed sequence
        QCOMPARE(r.baseline.actions, (std::vector<int>{3, 3})); // consulted as often, always Do Nothing
        QVERIFY(r.baseline.final_model.parameters < r.adapted.final_model.parameters);
        QCOMPARE(r.difference(), r.adapted.final_test_acc - r.baseline.final_test_acc);
        // Each run is the one run::run_experiment() gives alone, bit for bit (the virtual clock).
        const RunResult alone = run::run_experiment(none, dir.filePath("alone").toStdString(), false);
        QCOMPARE(alone.final_test_acc, r.baseline.final_test_acc);
        QCOMPARE(alone.steps, r.baseline.steps);
        QVERIFY(QFile::exists(dir.filePath("run-none/model.pt")));
        QVERIFY(config::load_experiment(dir.filePath("run-none/config.toml").toStdString()).agent.kind == config::AgentKind::None);
        QCOMPARE(rec.adaptations.size(), std::size_t{4}); // both runs went to the observer

        // An existing baseline folder is refused before anything trains.
        const std::filesystem::path again = dir.filePath("again").toStdString();
        std::filesystem::create_directories(run::baseline_folder(again));
        std::ofstream(run::baseline_folder(again) / "x") << "x";
        QVERIFY_THROWS_EXCEPTION(Error, run::run_comparison(c, again, false));
        QVERIFY(!std::filesystem::exists(again));
    }

    void comparison_cancelled_in_the_first_run_skips_the_baseline()
    {
        QTemporaryDir dir;
        const auto c = config::load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
        std::stop_source stop;
        Recorder rec;
        rec.on_batch = [&] {
            if (rec.progress == 3)
                stop.request_stop();
        };
        const std::filesystem::path out = dir.filePath("run").toStdString();
        const run::Comparison r = run::run_comparison(c, out, false, &rec, stop.get_token());
        QVERIFY(r.adapted.cancelled);
        QVERIFY(!r.baseline_ran);
        QVERIFY(!std::filesystem::exists(run::baseline_folder(out)));
    }

    // Every hook of TrainObserver fires, in the order events.h states, on the synthetic job (seed 7,
    // virtual clock, "up" at 1 s, two decisions).
    void every_training_hook_fires_in_order()
    {
        QTemporaryDir dir;
        auto c = config::load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
        c.warnings.push_back("a note for the observer");
        HookLog log;
        const RunResult r = run::run_experiment(c, dir.filePath("run").toStdString(), false, &log);
        const auto& h = log.hooks;
        QCOMPARE(log.count("message"), 1);
        QCOMPARE(log.messages.front(), std::string("a note for the observer"));
        QCOMPARE(log.count("start"), 1);
        QCOMPARE(log.count("allocation"), 1);
        QCOMPARE(log.count("adaptation"), 2);
        QCOMPARE(log.count("final"), 1);
        QCOMPARE(log.count("finished"), 1);
        QVERIFY(log.first("message") < log.first("start"));
        QVERIFY(log.first("start") < log.first("progress"));
        QVERIFY(log.first("progress") < log.first("allocation"));
        QVERIFY(log.first("allocation") < log.first("adaptation"));
        QCOMPARE(h[log.first("adaptation") + 1], std::string("progress")); // the epoch it affects
        QCOMPARE(h[h.size() - 2], std::string("final"));
        QCOMPARE(h.back(), std::string("finished"));
        // Epochs count completed epochs only; the final report is not one of them.
        const auto& e = log.epochs;
        QCOMPARE(static_cast<int>(e.size()), r.epochs + 1);
        for (int i = 0; i < r.epochs; ++i) {
            QCOMPARE(e[static_cast<std::size_t>(i)].epoch, i + 1);
            QVERIFY(!e[static_cast<std::size_t>(i)].final);
        }
        QVERIFY(e.back().final);
        QCOMPARE(e.back().epoch, r.epochs);
        QCOMPARE(e.back().train_loss, 0.0);
        QCOMPARE(e.back().test_acc, r.final_test_acc);
        QCOMPARE(log.progress, r.steps); // one on_progress per step
        // The epoch the allocation interrupted (and the one the budget cut) have progress, no epoch.
        QVERIFY(log.max_progress_epoch > r.epochs);
    }

    // resume_from() replays the checkpoint's epochs as on_epoch calls before it returns, and only
    // them; on_message comes from the constructor when the device falls back.
    void resume_replays_past_epochs_as_on_epoch()
    {
        QTemporaryDir dir;
        const std::string ckpt = dir.filePath("warm.pt").toStdString();
        agent::FixedSequenceAgent a1({2, 0, 3});
        Run unbroken = train_job({{21.0, Allocation::Up}}, a1, settings(), ckpt);
        VirtualClock clock(1.0);
        Scheduler sched(40.0, {{21.0, Allocation::Up}}, 0.0, clock);
        agent::FixedSequenceAgent a2({2, 0, 3});
        HookLog log;
        Trainer t(settings(), model::zoo_model("ConvNet2", {3, 12, 12}, 4), tiny_data(), sched, clock, a2, &log);
        t.resume_from(ckpt);
        QCOMPARE(log.hooks, (std::vector<std::string>{"epoch", "epoch"})); // 21 s: two whole epochs of 8 steps
        for (std::size_t i = 0; i < 2; ++i) {
            QCOMPARE(log.epochs[i].epoch, unbroken.rec.epochs[i].epoch);
            QCOMPARE(log.epochs[i].test_acc, unbroken.rec.epochs[i].test_acc);
            QCOMPARE(log.epochs[i].train_loss, unbroken.rec.epochs[i].train_loss);
        }
        t.run();
        QCOMPARE(log.count("allocation"), 0); // the allocation before the checkpoint is not replayed
        QCOMPARE(log.count("adaptation"), 3);
        QCOMPARE(log.epochs.size(), unbroken.rec.epochs.size());

        if (!torch::cuda::is_available()) {
            TrainerSettings cuda = settings();
            cuda.job.device = "cuda";
            agent::NoAdaptationAgent none;
            HookLog messages;
            Trainer fallback(cuda, model::zoo_model("ConvNet2", {3, 12, 12}, 4), tiny_data(), sched, clock, none,
                             &messages);
            QCOMPARE(messages.hooks, std::vector<std::string>{"message"});
        }
    }

    // An exception from an observer aborts the run with that exception: no later hooks, no final
    // report, no on_finished; those listed after the thrower miss the call.
    void observer_exception_aborts_the_run()
    {
        agent::NoAdaptationAgent none;
        VirtualClock clock(1.0);
        Scheduler sched(40.0, {}, 0.0, clock);
        Thrower thrower;
        HookLog after;
        ObserverList list;
        list.add(&thrower);
        list.add(&after);
        Trainer t(settings(), model::zoo_model("ConvNet2", {3, 12, 12}, 4), tiny_data(), sched, clock, none, &list);
        try {
            t.run();
            QFAIL("the observer's exception was swallowed");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), std::string("observer refuses epoch 2"));
        }
        QCOMPARE(after.count("epoch"), 1);
        QCOMPARE(after.count("final"), 0);
        QCOMPARE(after.count("finished"), 0);
        QCOMPARE(after.progress, std::int64_t{16}); // it stopped right after the second epoch

        // Through run_experiment too, with the run folder keeping what was written.
        QTemporaryDir dir;
        const auto c = config::load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
        Thrower again;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, run::run_experiment(c, dir.filePath("run").toStdString(), false, &again));
        QVERIFY(QFile::exists(dir.filePath("run/config.toml")));
        QVERIFY(!QFile::exists(dir.filePath("run/model.pt")));
    }

    // A checkpoint in the positional layout of before version 2 loads: weights, buffers, optimizer
    // state, counters and history as written; and a trainer resumed from it trains exactly as one
    // resumed from the same state saved by name.
    void positional_checkpoint_of_before_still_loads()
    {
        QTemporaryDir dir;
        for (const std::string kind : {"sgd", "adam"}) {
            MidRun state(kind);
            const std::string old_file = dir.filePath(QString::fromStdString("old-" + kind + ".pt")).toStdString();
            const std::string named_file = dir.filePath(QString::fromStdString("v2-" + kind + ".pt")).toStdString();
            const std::string new_file = dir.filePath(QString::fromStdString("new-" + kind + ".pt")).toStdString();
            write_positional_checkpoint(old_file, state.net, *state.opt, state.meta);
            write_named_checkpoint(named_file, state.net, *state.opt, kind, state.meta);
            save_checkpoint(new_file, state.meta, *state.net, *state.opt);
            check_loads_as(old_file, 1, state, kind);
            check_loads_as(named_file, 2, state, kind);
            check_loads_as(new_file, kCheckpointVersion, state, kind);

            TrainerSettings s = settings();
            s.job.optimizer = config::from_string<config::Optimizer>(kind).value();
            s.job.momentum = 0.9;
            s.job.lr = 0.02;
            agent::FixedSequenceAgent a_old({0, 3, 0}), a_new({0, 3, 0});
            Run from_old = train_job({{13.0, Allocation::Up}}, a_old, s, {}, old_file);
            Run from_new = train_job({{13.0, Allocation::Up}}, a_new, s, {}, new_file);
            QCOMPARE(from_old.rec.epochs.front().test_acc, state.meta.history.front().test_acc); // replayed
            QCOMPARE(from_old.result.steps, from_new.result.steps);
            QVERIFY(from_old.result.steps > state.meta.steps);
            QCOMPARE(from_old.result.final_test_acc, from_new.result.final_test_acc);
            QCOMPARE(from_old.result.actions, (std::vector<int>{1, 3, 0})); // chosen before, then decision 3 of 3
            QCOMPARE(from_old.rec.epochs.size(), from_new.rec.epochs.size());
            for (std::size_t i = 0; i < from_old.rec.epochs.size(); ++i)
                QCOMPARE(from_old.rec.epochs[i].train_loss, from_new.rec.epochs[i].train_loss);
        }
    }

    // What is not a checkpoint fails with one line naming the file, LibTorch's messages included.
    void broken_checkpoints_fail_with_one_line()
    {
        QTemporaryDir dir;
        const std::string good = dir.filePath("good.pt").toStdString();
        MidRun state("adam");
        save_checkpoint(good, state.meta, *state.net, *state.opt);
        std::ifstream in(good, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

        const std::string random = dir.filePath("random.pt").toStdString();
        std::mt19937 rng(4);
        std::string noise(4096, '\0');
        for (auto& ch : noise)
            ch = static_cast<char>(rng());
        std::ofstream(random, std::ios::binary) << noise;
        const std::string truncated = dir.filePath("truncated.pt").toStdString();
        std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        const std::string empty = dir.filePath("empty.pt").toStdString();
        std::ofstream{empty};
        const std::string not_ours = dir.filePath("model.pt").toStdString(); // a torch archive, no checkpoint
        {
            torch::serialize::OutputArchive a;
            state.net->save(a);
            a.save_to(not_ours);
        }
        const std::string missing = dir.filePath("missing.pt").toStdString();

        VirtualClock clock(1.0);
        Scheduler sched(40.0, {}, 0.0, clock);
        agent::NoAdaptationAgent none;
        Trainer t(settings(), model::zoo_model("ConvNet2", {3, 12, 12}, 4), tiny_data(), sched, clock, none);
        for (const auto& file : {random, truncated, empty, not_ours, missing}) {
            expect_one_line_error([&] { CheckpointReader r(file); }, file);
            expect_one_line_error([&] { t.resume_from(file); }, file);
        }
        // The wrong model: the meta reads, the tensors do not fit.
        CheckpointReader reader(good);
        model::Net other(model::zoo_model("ConvNet2", {3, 12, 12}, 4));
        expect_one_line_error([&] { reader.load_model(*other); }, good);
        // The trainer that refused them is untouched and runs from the start.
        QCOMPARE(t.run().steps, std::int64_t{40});
    }
};

QTEST_GUILESS_MAIN(TestTraining)
#include "test_training.moc"
