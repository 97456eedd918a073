// `rlda figures` as a user runs it: a short learning run in, figure files out; bad input gives one
// line naming it and a non-zero exit code. And `rlda transfer-compare`: two transfer runs in, their
// table and the study figure out.
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"
#include "tests/common/text_file.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using rlda::test::file_head;

namespace {

using rlda::test::CliResult;

using rlda::test::rlda_cli;

const QString paper_tables = QStringLiteral(RLDA_PAPER_DIR "/tables");

} // namespace

class TestCliFigures : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString run_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        run_ = dir_.filePath("c2_early");
        const CliResult r = rlda_cli({"learn", "--table", paper_tables + "/convnet2_early.csv", "--model",
                                      "ConvNet2", "--episodes", "300", "--seed", "7", "--out", run_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(run_ + "/policy.pt"));
    }

    void runAndPolicyToFiles()
    {
        const QString out = dir_.filePath("figs");
        // The run on two of its model's tables, and its policy carried over to every ConvNet3 table.
        const CliResult r =
            rlda_cli({"figures", "--tables", paper_tables, "--run", run_ + ":convnet2_early,late", "--model",
                      "ConvNet2", "--out", out, "--format", "png,svg", "--size", "900x600", "--dpi", "96",
                      "--window", "50"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        for (const char* name : {"fig07_objective", "fig08_accuracy", "fig09_runs", "fig10_ranks_ConvNet2",
                                 "fig12_accuracy"}) {
            QCOMPARE(file_head(out + "/" + name + ".png", 4), QByteArray("\x89PNG", 4));
            QVERIFY(file_head(out + "/" + name + ".svg", 200).contains("<svg") ||
                    file_head(out + "/" + name + ".svg", 400).contains("<svg"));
            QVERIFY2(r.out.contains(out + "/" + name + ".png"), qPrintable(r.out));
        }
        QVERIFY(!QFile::exists(out + "/fig11_ranks_ConvNet3.png"));
        QCOMPARE(QImage(out + "/fig12_accuracy.png").size(), QSize(900, 600));

        // The rank printed is the one `rlda evaluate` finds.
        const CliResult e = rlda_cli({"evaluate", "--policy", run_ + "/policy.pt", "--table",
                                      paper_tables + "/convnet2_late.csv", "--model", "ConvNet2"});
        QCOMPARE(e.code, 0);
        const QString rank = e.out.section("rank: ", 1).section('\n', 0, 0); // "N/64"
        QVERIFY2(r.out.contains("ConvNet2 late (c2_early): greedy ") && r.out.contains(" rank " + rank + " "),
                 qPrintable(r.out));

        const QString transfer = dir_.filePath("transfer");
        const CliResult p =
            rlda_cli({"figures", "--tables", paper_tables + "/index.csv", "--policy", run_ + "/policy.pt",
                      "--model", "ConvNet3", "--out", transfer, "--format", "pdf"});
        QVERIFY2(p.code == 0, qPrintable(p.err));
        QCOMPARE(file_head(transfer + "/fig10_ranks_ConvNet3.pdf", 4), QByteArray("%PDF"));
        QCOMPARE(file_head(transfer + "/fig12_accuracy.pdf", 4), QByteArray("%PDF"));
        QVERIFY(!QFile::exists(transfer + "/fig07_objective.pdf")); // no learning run given
        QCOMPARE(p.out.count("(c2_early): greedy"), 5);
    }

    void onePolicyGivenTwiceIsDrawnOnce()
    {
        // The run's policy named again with --policy: one agent per table, on the tables of both.
        const QString out = dir_.filePath("once");
        const CliResult r = rlda_cli({"figures", "--tables", paper_tables + "/convnet2_early.csv", "--tables",
                                      paper_tables + "/convnet3_late.csv", "--run", run_ + ":convnet2_early",
                                      "--policy", run_ + "/policy.pt", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out.count("(c2_early): greedy"), 2); // convnet2_early once, and convnet3_late
        QCOMPARE(r.out.count("ConvNet2 early (c2_early)"), 1);
        QVERIFY(QFile::exists(out + "/fig11_ranks_ConvNet3.png"));
    }

    // Issue 27: a --run without :TABLES drew no rank figures, silently. Its policy is ranked on
    // the tables it learned from, else on the one table given; else a warning says why not.
    void runWithoutTablesIsRankedWhereItCanBe()
    {
        // The run learned on convnet2_early, which is among the --tables.
        const QString own = dir_.filePath("own");
        CliResult r = rlda_cli({"figures", "--tables", paper_tables, "--run", run_, "--out", own});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QCOMPARE(r.out.count("(c2_early): greedy"), 1);
        QVERIFY2(r.out.contains("ConvNet2 early (c2_early): greedy "), qPrintable(r.out));
        for (const char* name : {"fig07_objective", "fig10_ranks_ConvNet2", "fig12_accuracy"})
            QVERIFY2(QFile::exists(own + "/" + name + ".png"), name);

        // One table given, not its own: ranked there.
        const QString one = dir_.filePath("one");
        r = rlda_cli(
            {"figures", "--tables", paper_tables + "/convnet3_late.csv", "--run", run_, "--out", one});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(r.err));
        QVERIFY2(r.out.contains("ConvNet3 late (c2_early): greedy "), qPrintable(r.out));
        QVERIFY(QFile::exists(one + "/fig10_ranks_ConvNet3.png"));

        // Two tables, neither its own: the curves, and a warning naming what to give.
        const QString none = dir_.filePath("none");
        r = rlda_cli({"figures", "--tables", paper_tables + "/convnet3_late.csv", "--tables",
                      paper_tables + "/convnet3_early.csv", "--run", run_, "--out", none});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.err, "rlda: warning: --run " + run_ + ": no rank figures (figs. 10-12) for its policy: it learned "
                        "from none of the 2 --tables; name them as --run " + run_ +
                        ":TABLES (table files, scenarios, models or 'all')\n");
        QVERIFY(!r.out.contains("greedy"));
        QVERIFY(QFile::exists(none + "/fig07_objective.png"));
        QVERIFY(!QFile::exists(none + "/fig10_ranks_ConvNet3.png"));
        QVERIFY(!QFile::exists(none + "/fig12_accuracy.png"));
    }

    // Issue 42, item 4: --out follows the rule of every output folder. A user's folder is never
    // written into; a folder of rlda's is replaced only with --force, and a link planted in it
    // leads nowhere.
    void figuresFollowTheOutputFolderRule()
    {
        const QString user = dir_.filePath("user-figures");
        QVERIFY(QDir().mkpath(user));
        QFile mine(user + "/fig12_accuracy.png");
        QVERIFY(mine.open(QIODevice::WriteOnly) && mine.write("mine") == 4);
        mine.close();
        const QStringList draw = {
            "figures", "--tables", paper_tables + "/convnet2_early.csv", "--run", run_ + ":convnet2_early",
            "--out"};
        for (const QString& force : {QString(), QStringLiteral("--force")}) {
            const CliResult r = rlda_cli(draw + QStringList{user, force}.filter(QRegularExpression(".")));
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains(force.isEmpty() ? "the folder exists and is not empty"
                                                    : "not a folder rlda made"),
                     qPrintable(r.err));
        }
        QCOMPARE(file_head(user + "/fig12_accuracy.png", 8), QByteArray("mine"));

        const QString ours = dir_.filePath("our-figures");
        QCOMPARE(rlda_cli(draw + QStringList{ours}).code, 0);
        QVERIFY(QFile::remove(ours + "/fig12_accuracy.png"));
        QVERIFY(QFile::link(user + "/fig12_accuracy.png", ours + "/fig12_accuracy.png"));
        CliResult r = rlda_cli(draw + QStringList{ours});
        QVERIFY2(r.code == 1 && r.err.contains("pass --force to replace it"), qPrintable(r.err));
        r = rlda_cli(draw + QStringList{ours, "--force"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(file_head(user + "/fig12_accuracy.png", 8), QByteArray("mine"));
        QVERIFY(!QFileInfo(ours + "/fig12_accuracy.png").isSymLink());
        QCOMPARE(file_head(ours + "/fig12_accuracy.png", 4), QByteArray("\x89PNG", 4));
    }

    void errorsNameWhatIsWrong_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        const QString out = QDir::tempPath() + "/rlda-figures-never-written";
        QTest::newRow("tables") << QStringList{"--tables", "/no/such/tables", "--policy", "p.pt", "--out", out}
                                << "/no/such/tables";
        QTest::newRow("run") << QStringList{"--tables",           paper_tables, "--run",
                                            "/no/such/run:early", "--out",      out}
                             << "/no/such/run";
        QTest::newRow("format") << QStringList{"--tables", paper_tables, "--policy", "p.pt",
                                               "--out",    out,          "--format", "gif"}
                                << "gif";
        for (const char* size : {"big", "0x0", "100x100", "200x150x2"})
            QTest::newRow(size) << QStringList{"--tables", paper_tables, "--policy", "p.pt",
                                               "--out",    out,          "--size",   size}
                                << "--size";
        QTest::newRow("nothing") << QStringList{"--tables", paper_tables, "--out", out} << "--run";
        // Numbers are checked as typed (app/cli/numbers.h): the option, the value and the range.
        const QStringList base{"--tables", paper_tables, "--policy", "p.pt", "--out", out};
        QTest::newRow("dpi") << base + QStringList{"--dpi", "5"} << "--dpi: 5: must be a whole number from 24 to 1200";
        QTest::newRow("window") << base + QStringList{"--window", "0"}
                                << "--window: 0: must be a whole number from 1 to 1000000";
        QTest::newRow("input") << base + QStringList{"--input", "2147483648x32x32"} << "--input: 2147483648x32x32: must be";
        QTest::newRow("classes") << base + QStringList{"--classes", "2.5"}
                                 << "--classes: 2.5: must be a whole number from 1 to 1000000";
        QTest::newRow("seed") << base + QStringList{"--seed", "-1"} << "--seed: -1: must be a whole number from 0 to";
    }

    void errorsNameWhatIsWrong()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const CliResult r = rlda_cli(QStringList{"figures"} + args);
        QVERIFY(r.code != 0);
        if (named == "--size") // a bad argument: exit code 2, as every one (issue 42, item 23)
            QCOMPARE(r.code, 2);
        QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable(r.err));
        QVERIFY2(r.err.startsWith("rlda: error: ") && r.err.contains(named), qPrintable(r.err));
        QVERIFY(!QFile::exists(QDir::tempPath() + "/rlda-figures-never-written"));
    }

    void ambiguousScenario()
    {
        const CliResult r = rlda_cli(
            {"figures", "--tables", paper_tables, "--run", run_ + ":early", "--out", dir_.filePath("x")});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("'early'") && r.err.contains("--model"), qPrintable(r.err));
    }

    void transferRunsSideBySide()
    {
        const QString a = dir_.filePath("transfer-a");
        const QString b = dir_.filePath("transfer-b");
        for (const auto& [out, encoder] : {std::pair{a, "structural"}, std::pair{b, "original"}}) {
            const CliResult r = rlda_cli({"transfer", "--tables", paper_tables, "--episodes", "60", "--seeds",
                                          "1", "2", "--encoder", encoder, "--no-figures", "--out", out});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY2(r.out.contains("a random agent judged as often: 95 % within"), qPrintable(r.out));
        }
        const QString figures = dir_.filePath("study");
        CliResult r = rlda_cli({"transfer-compare", a, b, "--labels", "structural", "original", "--out", figures});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split('\n');
        QVERIFY2(lines[0].contains("held out") && lines[0].contains("structural") && lines[0].contains("original") &&
                     lines[0].contains("random [95 %]"),
                 qPrintable(r.out));
        QVERIFY2(lines[1].startsWith("ConvNet2") && lines[2].startsWith("ConvNet3"), qPrintable(r.out));
        QVERIFY2(r.out.contains(
                     "structural: no worse than the best heuristic, chosen per model in hindsight, on "),
                 qPrintable(r.out));
        // The tests with the model as the unit, and no best agent claimed on two models.
        QVERIFY2(r.out.contains("structural against original: ") &&
                     r.out.contains("best agent: not distinguishable"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("mean rank ÷ sequences over the held-out models: structural 0.")),
                 qPrintable(r.out));
        QCOMPARE(file_head(figures + "/transfer_study.png", 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
        // Issue 42, item 4: drawn again only with --force, and never into a user's folder.
        r = rlda_cli({"transfer-compare", a, b, "--out", figures});
        QVERIFY2(r.code == 1 && r.err.contains("pass --force to replace it") && r.out.isEmpty(),
                 qPrintable(r.err));
        r = rlda_cli({"transfer-compare", a, b, "--out", figures, "--force"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(file_head(figures + "/transfer_study.png", 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
        r = rlda_cli({"transfer-compare", a, b, "--out", dir_.filePath("user-figures"), "--force"});
        QVERIFY2(r.code == 1 && r.err.contains("not a folder rlda made"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir_.filePath("user-figures/transfer_study.png")));
        r = rlda_cli({"transfer-compare", a, b, "--markdown"});
        QVERIFY2(r.out.startsWith("| held out | sequences | transfer-a | transfer-b |"), qPrintable(r.out));
        // Bad input: one line naming it.
        r = rlda_cli({"transfer-compare", a, b, "--labels", "one"});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("1 labels for 2 runs") && r.err.count('\n') == 1, qPrintable(r.err));
        r = rlda_cli({"transfer-compare", a, dir_.path()});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("folds.csv") && r.err.count('\n') == 1, qPrintable(r.err));
    }
};

RLDA_SUITE_MAIN(TestCliFigures)
#include "test_cli_figures.moc"
