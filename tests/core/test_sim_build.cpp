// Building simulation tables on synthetic data with the virtual clock: every sequence, bit-for-bit
// reruns, resuming an interrupted build, refusing a folder of other settings, `rlda simulate`.
#include "core/config/experiment_io.h"
#include "core/run/experiment_run.h"
#include "core/sim/build.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_sim.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stop_token>

using namespace rlda::core;

namespace {

const QString rlda_bin = RLDA_BIN_DIR "/rlda";

using rlda::test::error_of;
using rlda::test::slurp;
using rlda::test::tiny_config;
using rlda::test::tiny_toml;

} // namespace

class TestSimBuild : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string reference_; // table.csv of the first, uninterrupted build

    std::filesystem::path folder(const char* name) const { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void builds_every_sequence()
    {
        int reports = 0;
        QElapsedTimer timer;
        timer.start();
        const auto t = sim::build_table(tiny_config(), folder("a"), false, [&](const sim::BuildProgress& p) {
            QCOMPARE(p.total, 16);
            QCOMPARE(p.done, reports);
            if (p.row)
                QVERIFY(p.eta >= 0.0);
            ++reports;
        });
        qInfo("16-row build: %lld ms", static_cast<long long>(timer.elapsed()));
        QCOMPARE(reports, 17); // warm start ready, then every row
        QVERIFY(t.complete());
        QCOMPARE(t.decisions(), 2);
        QCOMPARE(t.num_actions(), 4);
        QCOMPARE(t.rows().size(), std::size_t{16});
        for (const auto& r : t.rows()) {
            // Up at 10 s cuts epoch 3; decision 1 at 30 s left, decision 2 one epoch (4 steps) later.
            QCOMPARE(r.time_left, (std::vector<double>{30.0, 26.0}));
            QCOMPARE(r.total_time, 40.0);
            QVERIFY(r.accuracy >= 0.0 && r.accuracy <= 1.0);
        }
        std::set<double> accuracies;
        for (const auto& r : t.rows())
            accuracies.insert(r.accuracy);
        QVERIFY(accuracies.size() >= 3);
        for (const char* f : {"config.toml", "warm_start.pt", "table.csv"})
            QVERIFY2(std::filesystem::exists(folder("a") / f), f);
        reference_ = slurp(folder("a") / "table.csv");
        const auto back = sim::SimulationTable::load((folder("a") / "table.csv").string());
        QCOMPARE(back.rows(), t.rows());
        config::load_experiment((folder("a") / "config.toml").string());
    }

    void a_row_is_the_run_with_that_fixed_sequence()
    {
        // The warm start is faithful: the branch for [0 2] equals one unbroken run deepening 0, then 2.
        auto c = tiny_config();
        c.agent.kind = config::AgentKind::Fixed;
        c.agent.sequence = {0, 2};
        const auto r = run::run_experiment(c, folder("unbroken"), false);
        const auto t = sim::SimulationTable::load((folder("a") / "table.csv").string());
        QCOMPARE(t.accuracy({0, 2}), r.final_test_acc);
    }

    void rebuilding_gives_the_same_table_byte_for_byte()
    {
        sim::build_table(tiny_config(), folder("b"), false);
        QCOMPARE(slurp(folder("b") / "table.csv"), reference_);
    }

    void an_interrupted_build_resumes_where_it_stopped()
    {
        const auto out = folder("c");
        std::stop_source stop;
        const auto partial = sim::build_table(
            tiny_config(), out, false,
            [&](const sim::BuildProgress& p) {
                if (p.done == 5)
                    stop.request_stop();
            },
            stop.get_token());
        QCOMPARE(partial.rows().size(), std::size_t{5});
        QVERIFY(!partial.complete());
        // What is on disk parses, with the rows done so far.
        QCOMPARE(sim::SimulationTable::load((out / "table.csv").string(), 4).rows(), partial.rows());
        // A kill while appending leaves at worst a torn last line.
        std::ofstream(out / "table.csv", std::ios::app | std::ios::binary) << "1,1,30.000000,26.0";

        int computed = 0;
        int to_compute = -1;
        bool reused = false;
        const auto full = sim::build_table(tiny_config(), out, false, [&](const sim::BuildProgress& p) {
            if (!p.row) {
                to_compute = p.to_compute;
                reused = p.warm_start_reused;
            }
            computed = p.computed;
        });
        QCOMPARE(to_compute, 11);
        QCOMPARE(computed, 11);
        QVERIFY(reused);
        QVERIFY(full.complete());
        QCOMPARE(slurp(out / "table.csv"), reference_);

        // A finished table: nothing left to do.
        computed = -1;
        sim::build_table(tiny_config(), out, false,
                         [&](const sim::BuildProgress& p) { computed = p.to_compute; });
        QCOMPARE(computed, 0);
        QCOMPARE(slurp(out / "table.csv"), reference_);
    }

    void a_tree_build_is_the_per_sequence_build_byte_for_byte()
    {
        // 3 decisions (FeedForwardNet2: 3 actions, 27 sequences): built as a tree, each prefix trained
        // once, the rows are those of training every sequence from the warm start, bit for bit.
        auto c = tiny_config();
        c.job.model = "FeedForwardNet2";
        c.trainer.max_decisions = 3;
        QVERIFY(sim::tree_buildable(c));
        std::int64_t per_sequence_epochs = 0, tree_epochs = 0;
        const auto per_sequence = sim::build_table(c, folder("order-per-sequence"), false,
                                                   [&](const sim::BuildProgress& p) { per_sequence_epochs = p.epochs; },
                                                   {}, nullptr, sim::BuildOrder::PerSequence);
        const auto tree = sim::build_table(c, folder("order-tree"), false,
                                           [&](const sim::BuildProgress& p) { tree_epochs = p.epochs; });
        QVERIFY(tree.complete());
        QCOMPARE(slurp(folder("order-tree") / "table.csv"), slurp(folder("order-per-sequence") / "table.csv"));
        // After the warm start 7 epochs, the decisions before the first 3: 27 x 7 = 189 epochs one
        // sequence at a time; as a tree 3 + 9 epochs up to the last decision and 27 x 5 after it, 147.
        qInfo("epochs: per sequence %lld, tree %lld", static_cast<long long>(per_sequence_epochs),
              static_cast<long long>(tree_epochs));
        QCOMPARE(per_sequence_epochs, std::int64_t{189});
        QCOMPARE(tree_epochs, std::int64_t{147});

        // Killed mid-subtree (stopped after 10 rows) and resumed: the same bytes.
        std::stop_source stop;
        const auto part = sim::build_table(
            c, folder("order-resumed"), false,
            [&](const sim::BuildProgress& p) {
                if (p.done == 10)
                    stop.request_stop();
            },
            stop.get_token());
        QCOMPARE(part.rows().size(), std::size_t{10});
        QVERIFY(sim::build_table(c, folder("order-resumed"), false).complete());
        QCOMPARE(slurp(folder("order-resumed") / "table.csv"), slurp(folder("order-per-sequence") / "table.csv"));
    }

    void refuses_a_folder_of_other_settings()
    {
        auto c = tiny_config();
        c.job.lr = 0.02;
        const auto message = error_of([&] { sim::build_table(c, folder("a"), false); });
        QVERIFY2(message.find("--force") != std::string::npos, message.c_str());
        QVERIFY2(message.find("[job]") != std::string::npos, message.c_str());
        QCOMPARE(slurp(folder("a") / "table.csv"), reference_);
        // Settings that do not change the numbers do not matter.
        auto renamed = tiny_config();
        renamed.name = "other";
        renamed.agent.kind = config::AgentKind::Random;
        QVERIFY(sim::build_table(renamed, folder("a"), false).complete());
        // A folder that is not a table build is refused too.
        std::filesystem::create_directories(folder("other"));
        std::ofstream(folder("other") / "notes.txt") << "mine";
        QCOMPARE(error_of([&] { sim::build_table(tiny_config(), folder("other"), false); }),
                 folder("other").string() + ": the folder exists and is not empty; choose another --out");
        // And --force does not empty it: it is not a folder rlda made.
        QCOMPARE(error_of([&] { sim::build_table(tiny_config(), folder("other"), true); }),
                 folder("other").string() + ": not a folder rlda made (no .rlda marker); --force only "
                                            "replaces rlda's output folders; choose an empty or new --out");
        QCOMPARE(std::distance(std::filesystem::directory_iterator(folder("other")),
                               std::filesystem::directory_iterator{}),
                 std::ptrdiff_t{1});
        QCOMPARE(slurp(folder("other") / "notes.txt"), std::string("mine"));
        // --force starts over with the new settings.
        std::stop_source stop;
        const auto t = sim::build_table(
            c, folder("a"), true,
            [&](const sim::BuildProgress& p) {
                if (p.row)
                    stop.request_stop();
            },
            stop.get_token());
        QCOMPARE(t.rows().size(), std::size_t{1});
        QCOMPARE(config::load_experiment((folder("a") / "config.toml").string()).job.lr, 0.02);
    }

    void bad_settings_fail_before_touching_the_folder()
    {
        auto c = tiny_config();
        c.scheduler.events.clear();
        auto message = error_of([&] { sim::build_table(c, folder("no-up"), false); });
        QVERIFY2(message.rfind("scheduler.events:", 0) == 0, message.c_str());
        QVERIFY(!std::filesystem::exists(folder("no-up")));
        c = tiny_config();
        c.trainer.max_decisions = 0;
        message = error_of([&] { sim::build_table(c, folder("no-k"), false); });
        QVERIFY2(message.rfind("trainer.max_decisions:", 0) == 0, message.c_str());
    }

    void rlda_simulate_builds_and_resumes()
    {
        const QString config = dir_.filePath("tiny.toml");
        std::ofstream(config.toStdString()) << tiny_toml;
        const QString out = dir_.filePath("cli");
        for (int pass = 0; pass < 2; ++pass) {
            QProcess p;
            p.start(rlda_bin, {"simulate", config, "--out", out});
            QVERIFY(p.waitForFinished(120000));
            const QString text = QString::fromUtf8(p.readAllStandardOutput());
            QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
            QVERIFY2(text.contains(QString("table: %1/table.csv").arg(out)), qPrintable(text));
            QVERIFY(text.contains("rows: 16"));
            if (pass == 0) {
                // Worker processes (the local sweep backend) train the rows; the parent counts them.
                QVERIFY2(text.contains("rows 16/16 ("), qPrintable(text));
                QVERIFY(text.contains("ETA "));
            } else {
                QVERIFY2(text.contains("nothing to train: all 16 rows are in the table"), qPrintable(text));
            }
        }
        QCOMPARE(slurp((out + "/table.csv").toStdString()), reference_);

        QProcess bad;
        bad.start(rlda_bin,
                  {"simulate", config, "--out", dir_.filePath("cli-bad"), "--set", "scheduler.events=[]"});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 1);
        const QString err = QString::fromUtf8(bad.readAllStandardError());
        QVERIFY2(err.contains("scheduler.events") && err.count('\n') == 1, qPrintable(err));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestSimBuild)
#include "test_sim_build.moc"
