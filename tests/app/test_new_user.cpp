// A new user's first experiment, end to end, as the README tells it and with nothing outside the
// clone: build small Fashion-MNIST tables, learn and evaluate without --model or --input, train
// with the learned policy, draw the paper's figures from the table folders; and the two mistakes
// a newcomer makes first (the wrong --model, a table whose build was interrupted).
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

namespace {

using rlda::test::rlda_program;

// ConvNet2 on 256 Fashion-MNIST images (Debian's dataset-fashion-mnist), "up" at 0.4 s of a 1.2 s
// virtual budget, 2 decisions over 4 actions: a 16-row table in seconds.
const char* kConfig = R"(name = "fashion-tiny"
[job]
model = "ConvNet2"
batch_size = 64
seed = 3
[dataset]
kind = "fashion-mnist"
train_subset = 256
test_subset = 128
[scheduler]
budget = 1.2
events = [{ time = 0.4, change = "up" }]
step_cost = 0.05
[trainer]
max_decisions = 2
[agent]
kind = "fixed"
sequence = [0, 1]
)";

using rlda::test::CliResult;

using rlda::test::rlda_cli;

} // namespace

class TestNewUser : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString config_;

    QString path(const QString& name) const { return dir_.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        config_ = path("fashion.toml");
        QFile f(config_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kConfig);
    }

    void builds_a_small_fashion_mnist_table_that_describes_itself()
    {
        const auto r = rlda_cli({"simulate", config_, "--out", path("table")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("rows: 16"), qPrintable(r.out));
        QFile meta(path("table/table.json"));
        QVERIFY(meta.open(QIODevice::ReadOnly));
        const auto j = QJsonDocument::fromJson(meta.readAll()).object();
        QCOMPARE(j["model"].toObject()["name"].toString(), QString("ConvNet2"));
        QCOMPARE(j["input"].toArray(), (QJsonArray{1, 28, 28}));
        QCOMPARE(j["dataset"].toObject()["kind"].toString(), QString("fashion-mnist"));
        QCOMPARE(j["rows"].toInt(), 16);
        QCOMPARE(j["scenario"].toObject()["first_up"].toDouble(), 0.4);
        // A second starting model, from a TOML file: the table embeds it.
        const auto small =
            rlda_cli({"simulate", config_, "--set",
                  QString("job.model=\"%1\"").arg(RLDA_SOURCE_DIR "/config/models/small_convnet.toml"),
                  "--out", path("table-small")});
        QVERIFY2(small.code == 0, qPrintable(small.err));
    }

    void learns_and_evaluates_without_model_or_input()
    {
        const auto learn = rlda_cli(
            {"learn", "--table", path("table"), "--episodes", "300", "--seed", "1", "--out", path("learn")});
        QVERIFY2(learn.code == 0, qPrintable(learn.err));
        QVERIFY2(!learn.err.contains("warning"), qPrintable(learn.err)); // nothing was assumed
        QVERIFY(learn.out.contains(QRegularExpression("rank: \\d+/16")));
        const auto evaluate =
            rlda_cli({"evaluate", "--policy", path("learn/policy.pt"), "--table", path("table")});
        QVERIFY2(evaluate.code == 0, qPrintable(evaluate.err));
        QVERIFY(evaluate.out.contains(QRegularExpression("rank: \\d+/16")));
    }

    void trains_with_the_learned_policy()
    {
        // The kind first and the policy second: overrides apply together, then are validated.
        const auto r =
            rlda_cli({"train", config_, "--set", "agent.kind=\"policy\"", "--set",
                  QString("agent.policy=\"%1\"").arg(path("learn/policy.pt")), "--out", path("run")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("final_test_acc: "));
        QFile events(path("run/events.jsonl"));
        QVERIFY(events.open(QIODevice::ReadOnly));
        QVERIFY(events.readAll().contains("\"adaptation\""));
    }

    void draws_figures_7_to_12_from_the_table_folders()
    {
        const auto r = rlda_cli({"figures", "--tables", path("table"), "--tables", path("table-small"), "--run",
                             path("learn") + ":all", "--out", path("figures")});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        const QStringList files = QDir(path("figures")).entryList({"*.png"}, QDir::Files, QDir::Name);
        for (const char* fig :
             {"fig07_objective.png", "fig08_accuracy.png", "fig09_runs.png", "fig10_ranks_ConvNet2.png",
              "fig11_ranks_SmallConvNet.png", "fig12_accuracy.png"})
            QVERIFY2(files.contains(fig), qPrintable(fig + QString(" not in ") + files.join(", ")));
    }

    void a_wrong_model_names_both_models()
    {
        const auto r = rlda_cli({"evaluate", "--policy", path("learn/policy.pt"), "--table", path("table"),
                             "--model", "ConvNet3"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("ConvNet3") && r.err.contains("ConvNet2") && r.err.count('\n') == 1,
                 qPrintable(r.err));
    }

    void reproduces_the_paper_on_its_shipped_tables()
    {
        // A quick look: few episodes, but every run, rank and figure of the full reproduction.
        const auto r = rlda_cli({"reproduce", "--episodes", "60", "--stage-episodes", "30", "--out", path("paper")});
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QRegularExpression("scratch +ConvNet2 +early +\\d+/64 +1 ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("curriculum +ConvNet3 +late +\\d+/64 +47 ")), qPrintable(r.out));
        QFile ranks(path("paper/ranks.csv"));
        QVERIFY(ranks.open(QIODevice::ReadOnly));
        QCOMPARE(ranks.readAll().count('\n'), 17); // the header and 16 ranks
        const QStringList figures = QDir(path("paper/figures")).entryList({"fig*.png"}, QDir::Files);
        QCOMPARE(figures.size(), 6);
    }

    void an_interrupted_table_says_it_is_incomplete()
    {
        // Stopped (SIGTERM, as Ctrl-C) once two rows are done: the finished rows stay.
        QProcess p;
        p.start(rlda_program, {"simulate", config_, "--out", path("killed"), "--workers", "1"});
        QVERIFY(p.waitForStarted());
        QString seen;
        const QRegularExpression two("rows ([2-9]|1[0-5])/16");
        while (!seen.contains(two)) {
            QVERIFY2(p.waitForReadyRead(120000), qPrintable("no progress: " + seen));
            seen += QString::fromUtf8(p.readAllStandardOutput());
        }
        p.terminate();
        QVERIFY(p.waitForFinished(60000));
        const auto r =
            rlda_cli({"learn", "--table", path("killed"), "--episodes", "10", "--out", path("learn-killed")});
        QCOMPARE(r.code, 1);
        const QString table = path("killed/table.csv");
        QVERIFY2(
            r.err.contains(QRegularExpression(QString("table %1 is incomplete: \\d+ of 16 rows; run rlda "
                                                      "simulate %2 --out %3 again to finish it")
                                                  .arg(QRegularExpression::escape(table),
                                                       QRegularExpression::escape(path("killed/config.toml")),
                                                       QRegularExpression::escape(path("killed"))))),
            qPrintable(r.err));
        QVERIFY(!QDir(path("learn-killed")).exists()); // nothing was written
    }
};

RLDA_SUITE_GUILESS_MAIN(TestNewUser)
#include "test_new_user.moc"
