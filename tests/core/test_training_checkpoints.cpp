// Warm-start checkpoints: a branch from one equals the unbroken run, other models and operations are
// refused, the files of earlier versions still load, and broken files fail with one line.
#include "core/agent/agent.h"
#include "core/model/zoo.h"
#include "core/train/checkpoint.h"
#include "core/train/torch_compat.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_training.h"

#include <QtTest/QtTest>

#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>
#include <torch/serialize/output-archive.h>

#include <cmath>
#include <fstream>
#include <map>
#include <random>

using namespace rlda::core;
using namespace rlda::core::train;
using rlda::test::Run;
using rlda::test::settings;
using rlda::test::tiny_data;
using rlda::test::train_job;

namespace {

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
        const auto it = state.find(optimizer_state_key(p.value()));
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
        const auto it = opt.state().find(optimizer_state_key(p.value()));
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

} // namespace

class TestTrainingCheckpoints : public QObject {
    Q_OBJECT

private Q_SLOTS:
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

RLDA_SUITE_GUILESS_MAIN(TestTrainingCheckpoints)
#include "test_training_checkpoints.moc"
