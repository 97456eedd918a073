// The trainer's observers: every hook in order, a resumed run replaying past epochs, an observer's
// exception, and the comparison run of an experiment with and without adaptation.
#include "core/agent/agent.h"
#include "core/config/experiment_io.h"
#include "core/io/run_reader.h"
#include "core/run/experiment_run.h"
#include "core/train/trainer.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_training.h"

#include <QtTest/QtTest>

#include <torch/cuda.h>

#include <fstream>
#include <stdexcept>

using namespace rlda::core;
using namespace rlda::core::train;
using rlda::test::Recorder;
using rlda::test::Run;
using rlda::test::settings;
using rlda::test::tiny_data;
using rlda::test::train_job;

namespace {

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

struct Thrower : TrainObserver {
    int epochs = 0;
    void on_epoch(const EpochMetrics&) override
    {
        if (++epochs == 2)
            throw std::runtime_error("observer refuses epoch 2");
    }
};

} // namespace

class TestTrainingHooks : public QObject {
    Q_OBJECT

private Q_SLOTS:
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

    // Issue 43, item 11: a cancel does not wait for a test of the whole test set. Stopped as an
    // epoch's last batch ends, the epoch's test stops at once (the epoch is not recorded), and so
    // does the final test of weights that changed since the last one: the final record says it was
    // not tested and keeps the last test's accuracy, and the run counts as cancelled. Before any
    // test there is no accuracy to keep: none is written, and none is read back.
    void a_cancel_does_not_wait_for_a_test()
    {
        QTemporaryDir dir;
        const auto c = config::load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
        struct StopAfterTesting : HookLog {
            std::stop_source stop;
            void on_progress(const BatchProgress& p) override
            {
                HookLog::on_progress(p);
                if (!epochs.empty() && p.batch == p.batches)
                    stop.request_stop(); // the epoch's batches are done; its test is next
            }
        } log;
        const auto out = dir.filePath("run").toStdString();
        const RunResult r = run::run_experiment(c, out, false, &log, log.stop.get_token());
        QVERIFY(r.cancelled);
        QCOMPARE(log.count("epoch"), 1); // the second epoch's test was stopped: no record of it
        QCOMPARE(r.epochs, 1);
        const EpochMetrics& final = log.epochs.back();
        QVERIFY(final.final && !final.tested);
        QCOMPARE(final.test_acc, log.epochs.front().test_acc); // the last test's
        QCOMPARE(r.final_test_acc, log.epochs.front().test_acc);
        const auto run = io::read_run(out);
        QVERIFY(run.final_metrics && !run.final_metrics->tested);
        QCOMPARE(*io::final_accuracy(run), log.epochs.front().test_acc);

        // Stopped in the first epoch: no test was ever made.
        struct StopAtOnce : HookLog {
            std::stop_source stop;
            void on_progress(const BatchProgress& p) override
            {
                HookLog::on_progress(p);
                stop.request_stop();
            }
        } early;
        const auto first = dir.filePath("early").toStdString();
        const RunResult e = run::run_experiment(c, first, false, &early, early.stop.get_token());
        QVERIFY(e.cancelled);
        QVERIFY(std::isnan(e.final_test_acc));
        QVERIFY(!early.epochs.back().tested);
        const auto none = io::read_run(first);
        QVERIFY(none.problems.empty());
        QVERIFY(!io::final_accuracy(none).has_value());
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
    // them. A GPU that is not there is refused by the constructor, in one line, with no hook called.
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
            try {
                Trainer refused(cuda, model::zoo_model("ConvNet2", {3, 12, 12}, 4), tiny_data(), sched, clock, none,
                                &messages);
                QFAIL("job.device = \"cuda\" was accepted on a machine without CUDA");
            } catch (const Error& e) {
                const QString what = QString::fromStdString(e.what());
                QVERIFY2(what.startsWith("job.device: \"cuda\" needs a CUDA GPU"), qPrintable(what));
                QVERIFY(!what.contains('\n'));
            }
            QVERIFY(messages.hooks.empty());
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
};

RLDA_SUITE_GUILESS_MAIN(TestTrainingHooks)
#include "test_training_hooks.moc"
