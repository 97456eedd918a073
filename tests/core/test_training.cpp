// Clocks, scheduler and the adapting trainer on synthetic data with the virtual clock.
#include "core/agent/agent.h"
#include "core/config/experiment_io.h"
#include "core/data/synthetic.h"
#include "core/io/run_folder.h"
#include "core/model/zoo.h"
#include "core/train/experiment.h"
#include "core/train/trainer.h"
#include "core/util/error.h"

#include <QtTest/QtTest>

#include <fstream>
#include <sstream>

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
Run run(std::vector<AllocationEvent> events, agent::Agent& agent, TrainerSettings s = settings(),
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
            results[i] = run({{12.0, Allocation::Up}}, agent, settings(), {}, {}, &folder).result;
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
        Run r = run({{5.0, Allocation::Up}}, agent, s);
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
        Run r = run({{17.0, Allocation::Up}}, agent, settings(), {}, {}, nullptr, 80.0);
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
        Run r = run({{3.0, Allocation::Up}, {30.0, Allocation::Down}}, agent, settings(), {}, {}, nullptr, 50.0);
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
        Run r = run({}, agent);
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
        Run unbroken = run({{13.0, Allocation::Up}}, a1, settings(), ckpt);
        QVERIFY(QFile::exists(QString::fromStdString(ckpt)));
        agent::FixedSequenceAgent a2({2, 0, 3});
        Run branch = run({{13.0, Allocation::Up}}, a2, settings(), {}, ckpt);
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
        Run other = run({{13.0, Allocation::Up}}, a3, settings(), {}, ckpt);
        QCOMPARE(other.result.final_model.parameters, model::summarize(model::zoo_model("ConvNet2", {3, 12, 12}, 4)).parameters);
    }

    void checkpoint_of_another_model_is_refused()
    {
        QTemporaryDir dir;
        const std::string ckpt = dir.filePath("warm.pt").toStdString();
        agent::NoAdaptationAgent none;
        run({{3.0, Allocation::Up}}, none, settings(), ckpt);
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
        QCOMPARE(baseline_folder(out), std::filesystem::path(dir.filePath("run-none").toStdString()));
        QCOMPARE(baseline_folder("runs/x/"), std::filesystem::path("runs/x-none"));
        const auto none = without_adaptation(c);
        QCOMPARE(none.agent.kind, std::string("none"));
        QCOMPARE(none.name, c.name + "-none");
        auto same = none; // nothing else differs
        same.agent.kind = c.agent.kind;
        same.name = c.name;
        QVERIFY(same == c);

        Recorder rec;
        const Comparison r = run_comparison(c, out, false, &rec);
        QVERIFY(r.baseline_ran && !r.adapted.cancelled && !r.baseline.cancelled);
        QCOMPARE(r.adapted_dir, out);
        QCOMPARE(r.baseline_dir, baseline_folder(out));
        QCOMPARE(r.adapted.actions, (std::vector<int>{0, 1})); // synthetic-quick's fixed sequence
        QCOMPARE(r.baseline.actions, (std::vector<int>{3, 3})); // consulted as often, always Do Nothing
        QVERIFY(r.baseline.final_model.parameters < r.adapted.final_model.parameters);
        QCOMPARE(r.difference(), r.adapted.final_test_acc - r.baseline.final_test_acc);
        // Each run is the one run_experiment() gives alone, bit for bit (the virtual clock).
        const RunResult alone = run_experiment(none, dir.filePath("alone").toStdString(), false);
        QCOMPARE(alone.final_test_acc, r.baseline.final_test_acc);
        QCOMPARE(alone.steps, r.baseline.steps);
        QVERIFY(QFile::exists(dir.filePath("run-none/model.pt")));
        QVERIFY(config::load_experiment(dir.filePath("run-none/config.toml").toStdString()).agent.kind == "none");
        QCOMPARE(rec.adaptations.size(), std::size_t{4}); // both runs went to the observer

        // An existing baseline folder is refused before anything trains.
        const std::filesystem::path again = dir.filePath("again").toStdString();
        std::filesystem::create_directories(baseline_folder(again));
        std::ofstream(baseline_folder(again) / "x") << "x";
        QVERIFY_THROWS_EXCEPTION(Error, run_comparison(c, again, false));
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
        const Comparison r = run_comparison(c, out, false, &rec, stop.get_token());
        QVERIFY(r.adapted.cancelled);
        QVERIFY(!r.baseline_ran);
        QVERIFY(!std::filesystem::exists(baseline_folder(out)));
    }
};

QTEST_GUILESS_MAIN(TestTraining)
#include "test_training.moc"
