// `rlda train` as a user runs it: a config in the original tool's schema, and a run killed mid-epoch.
#include "core/config/experiment_io.h"
#include "core/util/csv.h"
#include "core/util/tensor_file.h"
#include "tests/common/folder_snapshot.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>


#include <csignal>

namespace {

const QString rlda_bin = RLDA_BIN_DIR "/rlda";
// A warm-up run in the original tool's schema (tests/fixtures/README.md): ConvNet2, 70 s, RandomAgent.
const QString original_config = RLDA_FIXTURES_DIR "/original-schema/warmup/convnet2_early.toml";

} // namespace

class TestCliTrain : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void an_action_past_do_nothing_fails_before_training()
    {
        // ConvNet2 has 3 original blocks: actions 0..3, 3 = Do Nothing; 7 is refused when the
        // config is validated, before the dataset is loaded or a folder written.
        QTemporaryDir dir;
        QProcess p;
        p.start(rlda_bin, {"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--set", "agent.sequence=[7]",
                           "--out", dir.filePath("run")});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.startsWith("rlda: error: ") && err.contains("agent.sequence[0]") &&
                     err.contains("action 7 is out of range: ConvNet2 has 3 original blocks") &&
                     err.trimmed().count('\n') == 0,
                 qPrintable(err));
        QVERIFY(p.readAllStandardOutput().isEmpty()); // no epoch was trained
        QVERIFY(!QFileInfo::exists(dir.filePath("run")));
    }

    void accepts_an_original_schema_config_with_another_dataset()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        // The original tool ran on GPUs: its [agent] device = 0 is job.device "cuda:0", refused in
        // one line naming the key where LibTorch sees no GPU, and set back to the CPU with --set.
        const QStringList on_cpu{"--set", "job.device=\"cpu\""};
        if (!rlda::test::rlda_sees_a_gpu()) {
            const auto refused = rlda::test::rlda_cli({"train", original_config, "--dataset", "synthetic", "--out", out});
            QVERIFY2(refused.code == 1 && refused.err.startsWith("rlda: error: job.device: \"cuda:0\" needs a CUDA GPU") &&
                         refused.err.count('\n') == 1,
                     qPrintable(refused.err));
            QVERIFY(!QFileInfo::exists(out));
        }
        QProcess p;
        p.start(rlda_bin, QStringList{"train", original_config, "--dataset", "synthetic", "--set", "scheduler.step_cost=1.0",
                                      "--set", "dataset.train_size=128", "--set", "dataset.test_size=64", "--set",
                                      "dataset.shape=[3, 16, 16]", "--out", out} +
                              on_cpu);
        QVERIFY(p.waitForFinished(120000));
        const QString stdout_text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QVERIFY(stdout_text.contains("final_test_acc: "));
        // config.toml holds the mapped settings in our schema, and parses again.
        const auto c = rlda::core::config::load_experiment((out + "/config.toml").toStdString());
        QCOMPARE(c.scheduler.budget, 70.0);
        QCOMPARE(c.job.model, std::string("ConvNet2"));
        QVERIFY(c.agent.kind == rlda::core::config::AgentKind::Random);
        QVERIFY(QFile::exists(out + "/model.pt"));
        // Running again into the same folder is refused, and the folder is left as it was.
        QProcess again;
        again.start(rlda_bin, QStringList{"train", original_config, "--dataset", "synthetic", "--out", out} + on_cpu);
        QVERIFY(again.waitForFinished(60000));
        QCOMPARE(again.exitCode(), 1);
        QVERIFY(QString::fromUtf8(again.readAllStandardError()).contains("--force"));
        QVERIFY(QFile::exists(out + "/model.pt"));
    }

    void trains_with_a_learned_policy()
    {
        QTemporaryDir dir;
        QProcess learn;
        // A [policy] section sizes the network: a smaller one than the original's.
        QFile config(dir.filePath("policy.toml"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("[policy]\nhidden_size = 20\ndecider_linear_size = 32\n");
        config.close();
        learn.start(rlda_bin, {"learn", "--table", RLDA_PAPER_DIR "/tables/convnet2_early.csv", "--model",
                               "ConvNet2", "--episodes", "30", "--config", dir.filePath("policy.toml"), "--out",
                               dir.filePath("learn")});
        QVERIFY(learn.waitForFinished(120000));
        QVERIFY2(learn.exitCode() == 0, learn.readAllStandardError().constData());
        // What the policy file says of itself (its header); the run below loads the whole of it.
        const auto policy =
            rlda::core::TensorFile::read(dir.filePath("learn/policy.pt").toStdString(), "policy");
        QCOMPARE(policy.integer("policy.hidden_size"), std::int64_t{20});
        QCOMPARE(policy.integer("policy.decider_linear_size"), std::int64_t{32});
        QCOMPARE(policy.integer("episode"), std::int64_t{30});
        const QString out = dir.filePath("run");
        QProcess train;
        // The policy file first, then the kind (the new-user suite gives them the other way round).
        train.start(rlda_bin, {"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--set",
                               QString("agent.policy=\"%1\"").arg(dir.filePath("learn/policy.pt")), "--set",
                               "agent.kind=\"policy\"", "--out", out});
        QVERIFY(train.waitForFinished(120000));
        QVERIFY2(train.exitCode() == 0, train.readAllStandardError().constData());
        // Issue 43, item 18: the final line's numbers add up. The "up" at 1 s restarts an epoch, so
        // its steps are neither in the whole epochs nor missing from the total.
        const QString said = QString::fromUtf8(train.readAllStandardOutput());
        const QRegularExpression final_line(
            QStringLiteral("final: test_acc \\d\\.\\d{4} after (\\d+) whole epochs \\((\\d+) steps\\) and "
                           "(\\d+) steps of epochs "
                           "cut short, (\\d+) steps in all, \\d+ parameters\n"));
        const auto m = final_line.match(said);
        QVERIFY2(m.hasMatch(), qPrintable(said));
        QCOMPARE(m.captured(2).toInt() + m.captured(3).toInt(), m.captured(4).toInt());
        QCOMPARE(m.captured(2).toInt(), 8 * m.captured(1).toInt()); // 256 samples in batches of 32
        QFile events(out + "/events.jsonl");
        QVERIFY(events.open(QIODevice::ReadOnly));
        int adaptations = 0;
        for (const QByteArray& line : events.readAll().split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e.value("type").toString() != "adaptation")
                continue;
            ++adaptations;
            QCOMPARE(e.value("probabilities").toArray().size(), 4); // the policy's distribution
            QVERIFY(e.value("agent").toString().startsWith("policy"));
        }
        QCOMPARE(adaptations, 2); // max_decisions of synthetic-quick.toml
    }

    void killed_run_leaves_files_that_parse()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QProcess p;
        // The wall clock and a long budget: the run is killed long before it ends.
        p.start(rlda_bin, {"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--set", "scheduler.clock=\"wall\"",
                           "--set", "scheduler.budget=600", "--set", "scheduler.events=[]", "--out", out});
        QVERIFY(p.waitForStarted());
        // Two whole epochs in every series: the run is in its third epoch now, most likely mid-batch.
        const auto rows_everywhere = [&out](int rows) {
            for (const char* series : {"train_loss", "train_acc", "test_acc", "lr", "params"}) {
                QFile f(QString("%1/metrics/%2.csv").arg(out, series));
                if (!f.open(QIODevice::ReadOnly) || f.readAll().count('\n') < rows + 1) // and the header
                    return false;
            }
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(rows_everywhere(2), 60000);
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));

        rlda::core::config::load_experiment((out + "/config.toml").toStdString());
        std::size_t epochs = 0;
        for (const char* series : {"train_loss", "train_acc", "test_acc", "lr", "params"}) {
            const auto t = rlda::core::read_csv(QString("%1/metrics/%2.csv").arg(out, series).toStdString());
            QCOMPARE(t.header, (std::vector<std::string>{"epoch", "time", "value"}));
            for (std::size_t i = 0; i < t.rows.size(); ++i)
                QCOMPARE(std::stoi(t.rows[i][0]), static_cast<int>(i) + 1); // every completed epoch, in order
            epochs = epochs ? std::min(epochs, t.rows.size()) : t.rows.size();
        }
        QVERIFY(epochs >= 2);
        QFile events(out + "/events.jsonl");
        QVERIFY(events.open(QIODevice::ReadOnly));
        for (const QByteArray& line : events.readAll().split('\n'))
            if (!line.isEmpty())
                QVERIFY2(QJsonDocument::fromJson(line).isObject(), line.constData());
    }

    void set_overrides_apply_in_any_order()
    {
        // An event past synthetic-quick's 4 s budget, and a budget that takes it: each order used to
        // fail on one of them.
        QTemporaryDir dir;
        const QStringList sets{"scheduler.events=[{time=4.5, change=\"up\"}]", "scheduler.budget=5"};
        QStringList configs;
        for (const QString& order : {"ab", "ba"}) {
            const QString out = dir.filePath(order);
            QStringList args{"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--out", out};
            for (const QChar which : order)
                args << "--set" << sets[which == 'a' ? 0 : 1];
            QProcess p;
            p.start(rlda_bin, args);
            QVERIFY(p.waitForFinished(120000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            QFile f(out + "/config.toml");
            QVERIFY(f.open(QIODevice::ReadOnly));
            configs << QString::fromUtf8(f.readAll());
        }
        QCOMPARE(configs[0], configs[1]);
        const auto c = rlda::core::config::load_experiment((dir.filePath("ab") + "/config.toml").toStdString());
        QCOMPARE(c.scheduler.budget, 5.0);
        QCOMPARE(c.scheduler.events.size(), std::size_t{1});
        // A bad override is still one line naming the assignment, whatever comes after it.
        QProcess bad;
        bad.start(rlda_bin, {"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--set", "scheduler.budget=0.5",
                             "--set", "job.lr=0.001", "--out", dir.filePath("bad")});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 1);
        const QString err = QString::fromUtf8(bad.readAllStandardError()).trimmed();
        QVERIFY2(err.startsWith("rlda: error: --set scheduler.budget=0.5: scheduler.events[0].time: 1 is outside"),
                 qPrintable(err));
        QVERIFY(!err.contains('\n'));
        QVERIFY(!QFile::exists(dir.filePath("bad")));
    }

    void compare_none_prints_both_accuracies_and_the_difference()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QProcess p;
        p.start(rlda_bin, {"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--compare", "none", "--out", out});
        QVERIFY(p.waitForFinished(120000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY2(text.contains("run folder without adaptation: " + out + "-none\n"), qPrintable(text));
        static const QRegularExpression line(
            "\nadaptation: (\\d\\.\\d{4}) final test accuracy; no adaptation: (\\d\\.\\d{4}); difference: ([+-]\\d\\.\\d{4})\n");
        const auto m = line.match(text);
        QVERIFY2(m.hasMatch(), qPrintable(text));
        const double adapted = m.captured(1).toDouble();
        const double none = m.captured(2).toDouble();
        QVERIFY(std::abs(m.captured(3).toDouble() - (adapted - none)) <= 1.5e-4); // each rounded to 4 places
        // The baseline is a run folder of its own: agent "none", only Do Nothing decisions.
        const auto c = rlda::core::config::load_experiment((out + "-none/config.toml").toStdString());
        QVERIFY(c.agent.kind == rlda::core::config::AgentKind::None);
        QFile events(out + "-none/events.jsonl");
        QVERIFY(events.open(QIODevice::ReadOnly));
        int decisions = 0;
        for (const QByteArray& l : events.readAll().split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(l).object();
            if (e.value("type").toString() != "adaptation")
                continue;
            ++decisions;
            QVERIFY(e.value("did_nothing").toBool());
        }
        QCOMPARE(decisions, 2);
        const auto final_acc = [](const QString& run) {
            QFile f(run + "/events.jsonl");
            double acc = -1.0;
            if (f.open(QIODevice::ReadOnly))
                for (const QByteArray& l : f.readAll().split('\n'))
                    if (const QJsonObject e = QJsonDocument::fromJson(l).object(); e.value("type") == "final")
                        acc = e.value("test_acc").toDouble();
            return acc;
        };
        QVERIFY(std::abs(final_acc(out) - adapted) <= 5e-5);
        QVERIFY(std::abs(final_acc(out + "-none") - none) <= 5e-5);
        // A run that does not adapt has nothing to compare with.
        QProcess same;
        same.start(rlda_bin, {"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--compare", "none", "--set",
                              "agent.kind=\"none\"", "--out", dir.filePath("same")});
        QVERIFY(same.waitForFinished(60000));
        QCOMPARE(same.exitCode(), 1);
        QProcess other;
        other.start(rlda_bin, {"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--compare", "random"});
        QVERIFY(other.waitForFinished(60000));
        QCOMPARE(other.exitCode(), 2);
    }

    // Issue 43, item 14: the comparison at several seeds, paired, with its interval; each seed's
    // pair in OUT/seed-S and OUT/seed-S-none, at that seed; bad seeds refused before anything trains.
    void compare_none_over_seeds()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("paired");
        const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
        auto r =
            rlda::test::rlda_cli({"train", quick, "--compare", "none", "--seeds", "7", "8", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const QString seed : {QStringLiteral("7"), QStringLiteral("8")}) {
            QVERIFY2(r.out.contains("run: " + out + "/seed-" + seed + "\n") &&
                         r.out.contains("run: " + out + "/seed-" + seed + "-none\n"),
                     qPrintable(r.out));
            static const QRegularExpression line("\nseed (\\d+): adaptation (\\d\\.\\d{4}), no adaptation "
                                                 "(\\d\\.\\d{4}), difference ([+-]\\d\\.\\d{4})\n");
            QVERIFY2(line.match(r.out).hasMatch(), qPrintable(r.out));
            const auto c = rlda::core::config::load_experiment(
                (out + "/seed-" + seed + "-none/config.toml").toStdString());
            QCOMPARE(c.job.seed, seed.toULongLong());
            QVERIFY(c.agent.kind == rlda::core::config::AgentKind::None);
            QCOMPARE(
                rlda::core::config::load_experiment((out + "/seed-" + seed + "/config.toml").toStdString())
                    .job.seed,
                seed.toULongLong());
        }
        QVERIFY2(r.out.contains(
                     QRegularExpression("\ndifference: [+-]\\d\\.\\d{4} \\(95 % interval [+-]\\d\\.\\d{4} "
                                        "to [+-]\\d\\.\\d{4}, paired t over 2 seeds, sd \\d\\.\\d{4}\\): ")),
                 qPrintable(r.out));
        // The folders are checked first: nothing trains, nothing is written, one line.
        r = rlda::test::rlda_cli({"train", quick, "--compare", "none", "--seeds", "9", "8", "--out", out});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err,
                 "rlda: error: " + out +
                     "/seed-8: the folder exists and is not empty; choose another --out or pass --force to "
                     "replace it\n");
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFileInfo::exists(out + "/seed-9"));
        r = rlda::test::rlda_cli(
            {"train", quick, "--compare", "none", "--seeds", "3", "3", "--out", dir.filePath("twice")});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err, QStringLiteral("rlda: error: seed 3 is given twice; each seed is compared once\n"));
        QVERIFY(!QFileInfo::exists(dir.filePath("twice")));
        r = rlda::test::rlda_cli({"train", quick, "--seeds", "1", "2", "--out", dir.filePath("alone")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--seeds requires --compare"), qPrintable(r.err));
    }

    void force_never_empties_a_folder_rlda_did_not_make()
    {
        // Found by fuzzing: `cd D && rlda train CFG --out . --force` deleted D/a.txt and D/sub/b.txt.
        QTemporaryDir dir;
        const QString user = dir.filePath("D");
        rlda::test::make_user_folder(user);
        const auto before = rlda::test::folder_snapshot(user);
        QCOMPARE(before.size(), 3);
        const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
        const QString refusal = ": not a folder rlda made (no .rlda marker); --force only replaces rlda's "
                                "output folders; choose an empty or new --out\n";
        // --out . from inside the folder.
        QProcess here;
        here.setWorkingDirectory(user);
        here.start(rlda_bin, {"train", quick, "--out", ".", "--force"});
        QVERIFY(here.waitForFinished(60000));
        QCOMPARE(here.exitCode(), 1);
        QCOMPARE(QString::fromUtf8(here.readAllStandardError()), "rlda: error: ." + refusal);
        QCOMPARE(rlda::test::folder_snapshot(user), before);
        // --out D, from every command that writes a folder.
        const QString table = RLDA_PAPER_DIR "/tables/convnet2_early.csv";
        const QList<QStringList> commands = {
            {"train", quick},
            {"train", quick, "--compare", "none"},
            {"learn", "--table", table, "--model", "ConvNet2", "--episodes", "1"},
            {"simulate", quick},
            {"reproduce", "--episodes", "1"},
        };
        for (QStringList args : commands) {
            args << "--out" << user << "--force";
            const auto r = rlda::test::rlda_cli(args);
            QVERIFY2(r.code == 1, qPrintable(args.join(' ') + ": " + r.err));
            QCOMPARE(r.err, "rlda: error: " + user + refusal);
            QCOMPARE(rlda::test::folder_snapshot(user), before);
        }
        // The run without adaptation's folder is checked before the first run trains.
        const QString adapted = dir.filePath("x");
        rlda::test::make_user_folder(adapted + "-none");
        const auto r = rlda::test::rlda_cli({"train", quick, "--compare", "none", "--out", adapted, "--force"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err, "rlda: error: " + adapted + "-none" + refusal);
        QVERIFY(!QFileInfo::exists(adapted));
        QCOMPARE(rlda::test::folder_snapshot(adapted + "-none"), before);
        // Without --force the refusal does not suggest it.
        const auto plain = rlda::test::rlda_cli({"train", quick, "--out", user});
        QCOMPARE(plain.code, 1);
        QCOMPARE(plain.err, "rlda: error: " + user + ": the folder exists and is not empty; choose another --out\n");
        QCOMPARE(rlda::test::folder_snapshot(user), before);
    }

    void out_naming_a_file_is_one_line()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("a.txt");
        rlda::test::make_user_folder(dir.path());
        const auto before = rlda::test::folder_snapshot(dir.path());
        const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
        const QList<QStringList> commands = {
            {"train", quick},
            {"simulate", quick},
            {"learn", "--table", RLDA_PAPER_DIR "/tables/convnet2_early.csv", "--model", "ConvNet2", "--episodes", "1"},
            {"reproduce", "--episodes", "1"},
        };
        for (QStringList args : commands) {
            args << "--out" << file << "--force";
            const auto r = rlda::test::rlda_cli(args);
            QVERIFY2(r.code == 1, qPrintable(args.join(' ') + ": " + r.err));
            QCOMPARE(r.err, "rlda: error: " + file + ": exists and is not a folder; choose another --out\n");
        }
        QCOMPARE(rlda::test::folder_snapshot(dir.path()), before);
    }

    void a_learning_config_does_not_train()
    {
        // The original tool's *_learn.toml (agent "Agent", a [simulation] table) is for `rlda learn`:
        // `rlda train` refuses it naming the file and the key, before it prints or writes a run
        // folder, instead of "rlda: error: : not a readable policy file".
        QTemporaryDir dir;
        const QString late = RLDA_FIXTURES_DIR "/original-schema/learn/convnet2_late.toml";
        const QString then_early = RLDA_FIXTURES_DIR "/original-schema/learn/convnet2_late_then_early.toml";
        const QList<QPair<QString, QString>> cases = {
            {late, late + ": agent.policy: no policy file given; agent.kind \"policy\" trains with a learned policy "
                          "(the [simulation] table is for `rlda learn --table`, which learns one)\n"},
            {then_early, then_early + ": agent.policy: ../out/learn_convnet2_late/agent.finalmodel.pth: no such file\n"},
        };
        for (const auto& [config, message] : cases) {
            const auto r = rlda::test::rlda_cli({"train", config, "--dataset", "synthetic", "--out", dir.filePath("run")});
            QCOMPARE(r.code, 1);
            QCOMPARE(r.err, "rlda: error: " + message);
            QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
            QVERIFY(!QFileInfo::exists(dir.filePath("run")));
        }
    }

    void force_replaces_a_run_folder()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        const QStringList args = {"train", RLDA_SOURCE_DIR "/config/synthetic-quick.toml", "--out", out};
        const auto first = rlda::test::rlda_cli(args);
        QVERIFY2(first.code == 0, qPrintable(first.err));
        QVERIFY(QFile::exists(out + "/.rlda"));
        // A stale metrics file of its own goes with it.
        QFile stale(out + "/metrics/stale.csv");
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.close();
        const auto again = rlda::test::rlda_cli(args + QStringList{"--force"});
        QVERIFY2(again.code == 0, qPrintable(again.err));
        QVERIFY(!QFile::exists(out + "/metrics/stale.csv"));
        QVERIFY(QFile::exists(out + "/.rlda"));
        QVERIFY(QFile::exists(out + "/model.pt"));
    }

    // An unknown key is named with the nearest known one, on one line (issue 27).
    void an_unknown_key_names_the_nearest_one()
    {
        QTemporaryDir dir;
        const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
        auto r = rlda::test::rlda_cli({"train", quick, "--set", "job.batchsize=64", "--out", dir.filePath("out")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("rlda: error: --set job.batchsize=64: job.batchsize: unknown key; did you mean "
                                  "job.batch_size? (known: model, head, "),
                 qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QFile f(dir.filePath("x.toml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name = \"x\"\n[schedular]\nbudget = 4.0\n");
        f.close();
        r = rlda::test::rlda_cli({"train", dir.filePath("x.toml"), "--out", dir.filePath("out")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("rlda: error: " + dir.filePath("x.toml") +
                                  ":2:2: schedular: unknown section; did you mean [scheduler]? (known: name, [job], "),
                 qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFileInfo::exists(dir.filePath("out")));
    }

    void bad_input_leaves_no_folder()
    {
        QTemporaryDir dir;
        const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
        QList<QStringList> commands = {
            {"train", dir.filePath("missing.toml")},
            {"train", quick, "--set", "job.model=\"NoSuchNet\""},
            {"learn", "--table", dir.filePath("missing.csv"), "--model", "ConvNet2", "--episodes", "1"},
            {"simulate", quick, "--set", "scheduler.events=[]"},
            {"reproduce", "--episodes", "1", "--tables", dir.filePath("no-tables")},
        };
        if (!rlda::test::rlda_sees_a_gpu()) // a GPU that is not there: refused, not replaced by the CPU
            for (const char* command : {"train", "simulate"})
                commands.append({command, quick, "--set", "job.device=\"cuda\""});
        for (QStringList args : commands) {
            args << "--out" << dir.filePath("out") << "--force";
            const auto r = rlda::test::rlda_cli(args);
            QVERIFY2(r.code == 1 && r.err.startsWith("rlda: error: ") && r.err.count('\n') == 1,
                     qPrintable(args.join(' ') + ": " + r.err));
            QVERIFY2(!QFileInfo::exists(dir.filePath("out")), qPrintable(args.join(' ')));
        }
    }
};

RLDA_SUITE_GUILESS_MAIN(TestCliTrain)
#include "test_cli_train.moc"
