// RunBrowser: lists run folders (a killed one as truncated), shows problems, overlay and transfer;
// simulation-table folders by their rows and best sequence, opened in the Tables page.
#include "widgets/run/run_browser.h"
#include "widgets/run/config_compare_dialog.h"
#include "widgets/run/run_notes_panel.h"
#include "widgets/run/run_transfer_box.h"

#include "core/table/table_folder.h"
#include "core/table/table_meta.h"
#include "core/util/output_folder.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_table.h"
#include "tests/widgets/run/run_table.h"

#include <QAbstractItemModelTester>
#include <QDirIterator>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSpinBox>
#include <QComboBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

using rlda::core::io::RunData;
using rlda::core::io::RunKind;
using rlda::widgets::RunBrowser;
using rlda::widgets::RunColumns;
using rlda::widgets::RunNotesPanel;

namespace {

void write(const QString& file, const std::string& text)
{
    QDir().mkpath(QFileInfo(file).path());
    std::ofstream out(file.toStdString(), std::ios::binary);
    out << text;
}

void trainingRun(const QString& dir, double finalAcc, bool finished, const std::string& config = "name = \"x\"\n[job]\nlr = 0.01\n")
{
    write(dir + "/config.toml", config);
    std::string acc = "epoch,time,value\n";
    for (int e = 1; e <= 6; ++e)
        acc += std::to_string(e) + "," + std::to_string(e * 4.7) + "," + std::to_string(finalAcc * e / 6) + "\n";
    std::string events = "{\"type\":\"allocation\",\"time\":20,\"change\":\"up\",\"effect\":\"consulting the agent\"}"
                         "\n"
                         "{\"type\":\"adaptation\",\"decision\":1,\"time\":20.1,\"time_left\":39.9,\"agent\":\"fixed\",\"action\":0,"
                         "\"did_nothing\":false,\"probabilities\":[],\"max_abs_diff\":2e-7,\"before\":{\"parameters\":1000},"
                         "\"after\":{\"parameters\":1300}}"
                         "\n";
    if (finished) {
        // NOLINTBEGIN(modernize-raw-string-literal): moc 6.4 reads no raw string with quotes inside
        events += "{\"type\":\"final\",\"time\":60,\"test_acc\":" + std::to_string(finalAcc) + "}\n";
        events += "{\"type\":\"finished\",\"final_test_acc\":" + std::to_string(finalAcc) +
                  ",\"epochs\":12,\"steps\":1128,\"actions\":[0,3],\"cancelled\":false,\"parameters\":1300}"
                  "\n";
        // NOLINTEND(modernize-raw-string-literal)
    } else {
        acc += "7,32.9,0.6"; // cut by the kill
        events += "{\"type\":\"message\",\"text\":\"half a li"; // NOLINT(modernize-raw-string-literal): moc
    }
    write(dir + "/metrics/test_acc.csv", acc);
    write(dir + "/events.jsonl", events);
}

// Accuracy rising from `start` towards 0.9; the episode counter starts at `first`.
void learningRun(const QString& dir, double start, std::int64_t first, int episodes)
{
    std::string rows = "episode,time,objective,accuracy,reward,lr,temperature,actions,probabilities\n";
    for (int i = 0; i < episodes; ++i) {
        const double acc = 0.9 - (0.9 - start) * std::exp(-i / 20.0);
        rows += std::to_string(first + i) + ",0.1," + std::to_string(-10 * (0.9 - acc)) + "," + std::to_string(acc) +
                ",0,0.0001,1,0 1 3,0.25 0.25 0.25 0.25 | 0.25 0.25 0.25 0.25 | 0.25 0.25 0.25 0.25\n";
    }
    write(dir + "/metrics/episodes.csv", rows);
    write(dir + "/policy.pt", "policy");
}

QStringList snapshot(const QString& root)
{
    QStringList out;
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        out << it.filePath() + QStringLiteral(" ") + QString::number(it.fileInfo().size()) + QStringLiteral(" ") +
                   it.fileInfo().lastModified().toString(Qt::ISODateWithMs);
    }
    out.sort();
    return out;
}

int indexOf(const RunBrowser& b, const QString& name)
{
    for (int i = 0; i < b.runs().size(); ++i)
        if (QString::fromStdString(b.runs()[i].name) == name)
            return i;
    return -1;
}

// The header and the first `n` rows of a table file.
std::string headAndRows(const QString& csv, int n)
{
    std::ifstream in(csv.toStdString());
    std::string line, out;
    for (int i = 0; i <= n && std::getline(in, line); ++i)
        out += line + "\n";
    return out;
}

// setRoot() lists off the GUI thread: true once its listing is shown.
bool list(RunBrowser& b, const QString& root)
{
    QSignalSpy listed(&b, &RunBrowser::listed);
    b.setRoot(root);
    return listed.wait(30000);
}

using rlda::tests::cell;
using rlda::tests::runColumns;
using rlda::tests::runModel;
using rlda::tests::runTable;
using rlda::tests::shownCell;

// The columns these tests show are remembered under a key of their own.
const QString kColumnsKey = QStringLiteral("tests/runBrowser/columns");

rlda::widgets::RunTransferBox* transferBox(RunBrowser& b)
{
    return b.findChild<rlda::widgets::RunTransferBox*>(QStringLiteral("transferBox"));
}

RunNotesPanel* notesPanel(RunBrowser& b) { return b.findChild<RunNotesPanel*>(QStringLiteral("notesPanel")); }

// Types into the filter, as the user does.
void setFilter(RunBrowser& b, const QString& text) { b.findChild<QLineEdit*>(QStringLiteral("filterEdit"))->setText(text); }

int visibleRows(RunBrowser& b) { return runTable(b)->model()->rowCount(); }

} // namespace

class TestRunBrowser : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QTemporaryDir tables_; // table folders: the real 16-row build, and cut-down copies of it

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the columns are remembered in a throw-away place
        QSettings().remove(kColumnsKey);
        QVERIFY(tmp_.isValid());
        QVERIFY(tables_.isValid());
        // What rlda simulate writes (config.toml, table.json, table.csv, warm_start.pt), 16 rows.
        namespace fs = std::filesystem;
        const fs::path complete = tables_.filePath("tiny-table").toStdString();
        const auto built = rlda::test::simulate_tiny_table(QString::fromStdString(complete.string()));
        QVERIFY2(built.code == 0, qPrintable(built.err));
        // Its workers' part files went into table.csv when it collected them; the copies below stand
        // for folders whose rows are only where they say.
        fs::remove_all(complete / "parts");
        const auto copy = [&](const QString& name) {
            const fs::path to = tables_.filePath(name).toStdString();
            fs::copy(complete, to, fs::copy_options::recursive);
            return QString::fromStdString(to.string());
        };
        // Interrupted before the end: 3 of 16 rows.
        const QString cut = copy("tiny-cut");
        write(cut + "/table.csv", headAndRows(cut + "/table.csv", 3));
        // A sweep still running: table.csv holds no row yet, its parts hold 5.
        const QString sweep = copy("tiny-sweep");
        const std::string rows = headAndRows(sweep + "/table.csv", 5);
        write(sweep + "/table.csv", headAndRows(sweep + "/table.csv", 0));
        write(sweep + "/parts/part-0-of-4.csv", rows);
        // Only the table and its metadata, copied elsewhere.
        const QString bare = tables_.filePath("bare");
        QDir().mkpath(bare);
        fs::copy(complete / "table.csv", bare.toStdString() + "/table.csv");
        fs::copy(complete / "table.json", bare.toStdString() + "/table.json");
        trainingRun(tmp_.filePath("convnet2-fixed"), 0.81, true);
        trainingRun(tmp_.filePath("convnet2-killed"), 0.75, false);
        learningRun(tmp_.filePath("learn/scratch"), 0.5, 1, 200);
        learningRun(tmp_.filePath("learn/transfer"), 0.7, 75001, 200);
        write(tmp_.filePath("notes/readme.txt"), "not a run");
    }

    void aReplicatedBuildSaysHowFarItIs()
    {
        // Issue 43, item 3: a live 2-seed build said "0/16 rows, incomplete" and "run ... again"
        // while most rows were done: table.csv holds a row once every seed has it. Its seeds'
        // folders count, and the process that holds the folder's lock is named.
        namespace fs = std::filesystem;
        QTemporaryDir root;
        const fs::path complete = tables_.filePath("tiny-table").toStdString();
        const fs::path out = root.filePath("replicated").toStdString();
        fs::copy(complete, out, fs::copy_options::recursive);
        auto meta = rlda::core::sim::load_table_meta(out / "table.json");
        meta.seeds = {5, 6};
        rlda::core::sim::save_table_meta(out / "table.json", meta);
        write(QString::fromStdString((out / "table.csv").string()),
              headAndRows(QString::fromStdString((complete / "table.csv").string()), 0));
        fs::create_directories(out / "seeds");
        for (const std::uint64_t seed : {5, 6})
            fs::copy(complete, rlda::core::sim::seed_folder(out, seed), fs::copy_options::recursive);
        const fs::path cut = rlda::core::sim::seed_folder(out, 6) / "table.csv";
        write(QString::fromStdString(cut.string()), headAndRows(QString::fromStdString(cut.string()), 3));
        {
            const auto lock = rlda::core::lock_output_folder(out);
            RunBrowser b;
            QVERIFY(list(b, root.path()));
            QCOMPARE(cell(b, "replicated", 3), QStringLiteral("building, 19/32 rows (2 seeds), pid %1")
                                                   .arg(QCoreApplication::applicationPid()));
        }
        {
            RunBrowser b;
            QVERIFY(list(b, root.path()));
            QCOMPARE(cell(b, "replicated", 3), QStringLiteral("19/32 rows (2 seeds), incomplete"));
        }
        // A build that failed for good says so (the sweep runner's record), until the next build
        // of the folder starts.
        const std::string why =
            "part 1/2 failed 3 times (exit code 1: boom); the rows of the other parts were "
            "collected; see parts/part-1-of-2.log";
        rlda::core::sim::record_build_failure(out, why);
        QCOMPARE(rlda::core::sim::build_failure(out), why);
        {
            RunBrowser b;
            QVERIFY(list(b, root.path()));
            QCOMPARE(cell(b, "replicated", 3),
                     QStringLiteral("failed, 19/32 rows (2 seeds): %1").arg(QString::fromStdString(why)));
        }
        rlda::core::sim::clear_build_failure(out);
        QCOMPARE(rlda::core::sim::build_failure(out), std::string());
    }

    void listsRunsReadOnly()
    {
        const QStringList before = snapshot(tmp_.path());
        RunBrowser b;
        QVERIFY(list(b, tmp_.path()));
        QCOMPARE(b.runs().size(), 4);
        QCOMPARE(runTable(b)->model()->rowCount(), 4);
        QCOMPARE(cell(b, "convnet2-fixed", 1), QStringLiteral("training"));
        QCOMPARE(cell(b, "convnet2-fixed", 2), QStringLiteral("acc 0.810"));
        QCOMPARE(cell(b, "convnet2-fixed", 3), QStringLiteral("finished"));
        QCOMPARE(cell(b, "convnet2-killed", 3), QStringLiteral("killed (truncated)"));
        QCOMPARE(cell(b, "convnet2-killed", 2), QStringLiteral("acc 0.750")); // the last whole row
        QCOMPARE(cell(b, "learn/scratch", 1), QStringLiteral("learning"));
        QVERIFY(cell(b, "learn/transfer", 2).startsWith(QStringLiteral("episode 75200 · acc ")));
        QVERIFY(!cell(b, "learn/scratch", 4).isEmpty());

        const int killed = indexOf(b, "convnet2-killed");
        QSignalSpy opened(&b, &RunBrowser::runOpened);
        QVERIFY(b.openRun(killed));
        QVERIFY(opened.wait(10000));
        QCOMPARE(opened.count(), 1);
        const auto run = opened.at(0).at(0).value<RunData>();
        QCOMPARE(run.name, std::string("convnet2-killed"));
        QVERIFY(!run.finished);
        auto* problems = b.findChild<QListWidget*>(QStringLiteral("problemList"));
        QStringList shown;
        for (int i = 0; i < problems->count(); ++i)
            shown << problems->item(i)->text();
        QVERIFY2(shown.contains(QStringLiteral("metrics/test_acc.csv:8: partial last line skipped")),
                 qPrintable(shown.join(" | ")));
        QVERIFY2(shown.contains(QStringLiteral("events.jsonl:3: partial last line skipped")),
                 qPrintable(shown.join(" | ")));
        QVERIFY(b.findChild<QPlainTextEdit*>(QStringLiteral("configText"))->toPlainText().contains("lr = 0.01"));
        QCOMPARE(b.findChild<QTableWidget*>(QStringLiteral("adaptationTable"))->rowCount(), 1);
        QVERIFY(b.findChild<QLabel*>(QStringLiteral("summaryLabel"))->text().contains(QStringLiteral("killed (truncated)")));

        QCOMPARE(snapshot(tmp_.path()), before); // nothing written, nothing touched
    }

    void overlay()
    {
        RunBrowser b;
        QVERIFY(list(b, tmp_.path()));
        auto* button = b.findChild<QPushButton*>(QStringLiteral("overlayButton"));
        QSignalSpy spy(&b, &RunBrowser::overlayRequested);
        b.selectRuns({indexOf(b, "convnet2-fixed")});
        QVERIFY(!button->isEnabled());
        b.selectRuns({indexOf(b, "convnet2-fixed"), indexOf(b, "convnet2-killed")});
        QVERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(spy.count(), 1);
        const auto runs = spy.at(0).at(0).value<QList<RunData>>();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].name, std::string("convnet2-fixed"));
        QCOMPARE(runs[1].name, std::string("convnet2-killed"));
        // Two training runs: no transfer metrics.
        QVERIFY(!b.findChild<QGroupBox*>(QStringLiteral("transferBox"))->isVisibleTo(&b));
        QVERIFY(!transferBox(b)->metrics());
        // Issue 43, item 17: two learning runs overlay too; a training and a learning run do not.
        b.selectRuns({indexOf(b, "scratch"), indexOf(b, "transfer")});
        QVERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(spy.count(), 2);
        const auto learning = spy.at(1).at(0).value<QList<RunData>>();
        QCOMPARE(learning.size(), 2);
        QVERIFY(learning[0].kind == rlda::core::io::RunKind::Learning && !learning[0].episodes.empty());
        b.selectRuns({indexOf(b, "convnet2-fixed"), indexOf(b, "scratch")});
        QVERIFY(!button->isEnabled());
    }

    void transfer()
    {
        RunBrowser b;
        QVERIFY(list(b, tmp_.path()));
        b.selectRuns({indexOf(b, "scratch"), indexOf(b, "transfer")});
        QCOMPARE(b.selectedRuns().size(), 2);
        QVERIFY(b.findChild<QGroupBox*>(QStringLiteral("transferBox"))->isVisibleTo(&b));
        // The run whose episode counter continues a trained policy is the transfer run.
        QCOMPARE(b.findChild<QComboBox*>(QStringLiteral("transferRun"))->currentText(), QStringLiteral("transfer"));
        b.findChild<QSpinBox*>(QStringLiteral("transferWindow"))->setValue(10);
        b.findChild<QDoubleSpinBox*>(QStringLiteral("transferThreshold"))->setValue(0.8);
        const auto m = transferBox(b)->metrics();
        QVERIFY(m);
        QCOMPARE(m->window, std::size_t(10));
        // Expected from the curves: first 10 means and the episode where the 10-window mean >= 0.8.
        const auto curve = [](double start, int i) { return 0.9 - (0.9 - start) * std::exp(-i / 20.0); };
        const auto reach = [&](double start) {
            for (int n = 10; n <= 200; ++n) {
                double s = 0;
                for (int i = n - 10; i < n; ++i)
                    s += std::stod(std::to_string(curve(start, i))); // as written: 6 decimals
                if (s / 10 >= 0.8)
                    return n;
            }
            return -1;
        };
        double t = 0, s = 0;
        for (int i = 0; i < 10; ++i) {
            t += std::stod(std::to_string(curve(0.7, i)));
            s += std::stod(std::to_string(curve(0.5, i)));
        }
        QVERIFY(std::abs(*m->jumpstart - (t - s) / 10) < 1e-9);
        QCOMPARE(*m->transfer_episodes, std::int64_t(reach(0.7)));
        QCOMPARE(*m->scratch_episodes, std::int64_t(reach(0.5)));
        QCOMPARE(*m->episodes_saved, std::int64_t(reach(0.5) - reach(0.7)));
        const QString text = b.findChild<QLabel*>(QStringLiteral("transferResult"))->text();
        QVERIFY2(text.contains(QStringLiteral("Jumpstart")) && text.contains(QStringLiteral("saved")), qPrintable(text));

        QVERIFY2(text.contains(QStringLiteral("transfer <b>")) &&
                     text.contains(QStringLiteral("scratch <b>")) &&
                     !text.contains(QStringLiteral("Neither run")),
                 qPrintable(text));

        // A threshold nobody reaches.
        b.findChild<QDoubleSpinBox*>(QStringLiteral("transferThreshold"))->setValue(0.95);
        QVERIFY(!transferBox(b)->metrics()->transfer_episodes);
        QVERIFY(b.findChild<QLabel*>(QStringLiteral("transferResult"))->text().contains(QStringLiteral("never")));

        // Two runs that both learned from scratch (two seeds): named by their runs, and said to be
        // no transfer (issue 43, item 17).
        QTemporaryDir seeds;
        learningRun(seeds.filePath("seed-1"), 0.5, 1, 200);
        learningRun(seeds.filePath("seed-2"), 0.6, 1, 200);
        RunBrowser plain;
        QVERIFY(list(plain, seeds.path()));
        plain.selectRuns({indexOf(plain, "seed-1"), indexOf(plain, "seed-2")});
        const QString compared = plain.findChild<QLabel*>(QStringLiteral("transferResult"))->text();
        QVERIFY2(compared.contains(QStringLiteral("Neither run started from a trained policy")) &&
                     compared.contains(QStringLiteral("seed-1 <b>")) &&
                     compared.contains(QStringLiteral("seed-2 <b>")),
                 qPrintable(compared));
    }

    void listsTables()
    {
        RunBrowser b;
        // The run table's model stays consistent while table rows are listed, refilled and reopened.
        QAbstractItemModelTester tester(runTable(b)->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester source(runModel(b), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(list(b, tables_.path()));
        QCOMPARE(b.runs().size(), 4);
        const auto best = rlda::core::sim::SimulationTable::load(tables_.filePath("tiny-table/table.csv").toStdString()).optimal();
        const QString bestText = QStringLiteral("best [%1] · acc %2")
                                     .arg(QString::fromStdString(rlda::core::sim::sequence_string(best.actions)))
                                     .arg(best.accuracy, 0, 'f', 3);
        QCOMPARE(cell(b, "tiny-table", 1), QStringLiteral("simulation"));
        QCOMPARE(cell(b, "tiny-table", 3), QStringLiteral("16/16 rows"));
        QCOMPARE(cell(b, "tiny-table", 2), bestText);
        QCOMPARE(cell(b, "tiny-cut", 3), QStringLiteral("3/16 rows, incomplete"));
        QVERIFY(cell(b, "tiny-cut", 2).startsWith(QStringLiteral("best ")));
        QCOMPARE(cell(b, "tiny-sweep", 3), QStringLiteral("5/16 rows, incomplete")); // its parts count
        QCOMPARE(cell(b, "bare", 3), QStringLiteral("16/16 rows"));                  // no config.toml
        QCOMPARE(cell(b, "bare", 2), bestText);

        const int index = indexOf(b, "tiny-table");
        const auto status = runModel(b)->tableStatus(index);
        QVERIFY(status && status->complete());
        QCOMPARE(status->rows, std::int64_t(16));
        QCOMPARE(rlda::widgets::tableStatusText(*status), QStringLiteral("16/16 rows"));
        QVERIFY(!runModel(b)->tableStatus(-1));

        // Open: the Tables page gets the table; the Training page gets nothing.
        QSignalSpy tables(&b, &RunBrowser::tableOpened);
        QSignalSpy runs(&b, &RunBrowser::runOpened);
        b.selectRuns({index});
        auto* open = b.findChild<QPushButton*>(QStringLiteral("openButton"));
        QVERIFY(open->isEnabled());
        QTest::mouseClick(open, Qt::LeftButton);
        QTRY_COMPARE(tables.count(), 1);
        QCOMPARE(runs.count(), 0);
        QCOMPARE(QFileInfo(tables.at(0).at(0).toString()), QFileInfo(tables_.filePath("tiny-table/table.csv")));
        QCOMPARE(b.root(), tables_.path());
        const QString summary = b.findChild<QLabel*>(QStringLiteral("summaryLabel"))->text();
        QVERIFY2(summary.contains(QStringLiteral("16/16 rows")) && summary.contains(QStringLiteral("Best sequence")) &&
                     summary.contains(QStringLiteral("ConvNet2 on 3x12x12, 4 classes")),
                 qPrintable(summary));
        b.selectRuns({indexOf(b, "tiny-cut")});
        QVERIFY(b.findChild<QLabel*>(QStringLiteral("summaryLabel"))->text().contains(QStringLiteral("rlda simulate")));
        // Tables are not training runs: nothing to overlay.
        b.selectRuns({indexOf(b, "tiny-table"), indexOf(b, "tiny-cut")});
        QVERIFY(!b.findChild<QPushButton*>(QStringLiteral("overlayButton"))->isEnabled());
    }

    void aListingInFlightIsOvertakenOrDropped()
    {
        {
            RunBrowser b;
            QSignalSpy listed(&b, &RunBrowser::listed);
            b.setRoot(tables_.path());
            b.setRoot(tmp_.path()); // the first listing's answer is not wanted any more
            QVERIFY(listed.wait(30000));
            QVERIFY(rlda::widgets::waitForJobs(std::chrono::seconds(30)));
            QCoreApplication::processEvents();
            QCOMPARE(listed.count(), 1);
            QCOMPARE(b.root(), tmp_.path());
            QCOMPARE(b.runs().size(), 4);
            QVERIFY(indexOf(b, "convnet2-fixed") >= 0);
            b.setRoot(tables_.path());
            QVERIFY(b.isListing());
        } // closed while it lists: its answer goes nowhere
        QVERIFY(rlda::widgets::waitForJobs(std::chrono::seconds(30)));
        QCoreApplication::processEvents();
    }

    // Columns from each run's config and results, chosen from the header menu, remembered, sorted
    // as numbers; the filter keeps the rows where a visible column holds its text.
    void columnsFilterAndSort()
    {
        QTemporaryDir dir;
        trainingRun(dir.filePath("a"), 0.9, true, "name = \"a\"\n[job]\nlr = 0.01\nseed = 9\n");
        trainingRun(dir.filePath("b"), 0.85, true, "name = \"b\"\n[job]\nlr = 0.1\nseed = 10\n");
        trainingRun(dir.filePath("c"), 0.1, true, "name = \"c\"\n[job]\nlr = 0.001\nseed = 100\n"
                                                   "[agent]\nkind = \"random\"\n");
        RunBrowser b(kColumnsKey);
        QVERIFY(list(b, dir.path()));
        QCOMPARE(runColumns(b)->shown(), RunColumns::defaults());
        auto* t = runTable(b);

        // From the header's menu: the seed, in its [job] submenu.
        std::unique_ptr<QMenu> menu(runColumns(b)->menu(nullptr));
        QAction* seed = nullptr;
        for (QMenu* sub : menu->findChildren<QMenu*>())
            for (QAction* a : sub->actions())
                if (a->data().toString() == QStringLiteral("job.seed"))
                    seed = a;
        QVERIFY(seed);
        QVERIFY(!seed->isChecked());
        seed->setChecked(true);
        QVERIFY(runColumns(b)->shown().contains(QStringLiteral("job.seed")));
        runColumns(b)->setShown(runColumns(b)->shown() << QStringLiteral("final_accuracy") << QStringLiteral("agent.kind"));
        const int cSeed = runColumns(b)->modelColumn(QStringLiteral("job.seed"));
        const int cAcc = runColumns(b)->modelColumn(QStringLiteral("final_accuracy"));
        QCOMPARE(t->model()->headerData(cSeed, Qt::Horizontal).toString(), QStringLiteral("job.seed"));
        QCOMPARE(t->model()->headerData(cAcc, Qt::Horizontal).toString(), QStringLiteral("final accuracy"));
        QCOMPARE(cell(b, "a", cSeed), QStringLiteral("9"));
        QCOMPARE(cell(b, "c", cAcc), QStringLiteral("0.1"));
        QCOMPARE(cell(b, "c", cAcc + 1), QStringLiteral("random"));
        QCOMPARE(cell(b, "a", cAcc + 1), QStringLiteral("fixed")); // the default, from the schema

        // Numbers sort as numbers: 9 < 10 < 100, which text would put 10, 100, 9.
        t->sortByColumn(cSeed, Qt::AscendingOrder);
        QCOMPARE(shownCell(b, 0, 0), QStringLiteral("a"));
        QCOMPARE(shownCell(b, 2, 0), QStringLiteral("c"));
        t->sortByColumn(cAcc, Qt::DescendingOrder);
        QCOMPARE(shownCell(b, 0, 0), QStringLiteral("a"));
        QCOMPARE(shownCell(b, 1, 0), QStringLiteral("b"));

        // The filter: any visible column, case-insensitive; a hidden column's text does not count.
        setFilter(b, QStringLiteral("RANDOM"));
        QCOMPARE(visibleRows(b), 1);
        QCOMPARE(b.findChild<QLabel*>(QStringLiteral("filterCount"))->text(), QStringLiteral("1 of 3 runs"));
        QCOMPARE(shownCell(b, 0, 0), QStringLiteral("c"));
        setFilter(b, QStringLiteral("0.85"));
        QCOMPARE(visibleRows(b), 1);
        runColumns(b)->setShown(runColumns(b)->shown().mid(0, cAcc)); // hides final accuracy and agent.kind
        QCOMPARE(visibleRows(b), 1);       // "acc 0.850" in Result still
        setFilter(b, QStringLiteral("random"));
        QCOMPARE(visibleRows(b), 0);
        setFilter(b, QString());
        QCOMPARE(visibleRows(b), 3);

        // Remembered: a new browser shows the same columns, and unknown ids are dropped.
        RunBrowser again(kColumnsKey);
        QCOMPARE(runColumns(again)->shown(), runColumns(b)->shown());
        QSettings().setValue(kColumnsKey,
                             QStringList{QStringLiteral("kind"), QStringLiteral("no.such.key")});
        RunBrowser third(kColumnsKey);
        QCOMPARE(runColumns(third)->shown(), (QStringList{QStringLiteral("run"), QStringLiteral("kind")}));
        QVERIFY(runTable(third)->isColumnHidden(3));
        QSettings().remove(kColumnsKey);
    }

    void tagsAndNotes()
    {
        QTemporaryDir dir;
        trainingRun(dir.filePath("a"), 0.9, true);
        trainingRun(dir.filePath("b"), 0.8, true);
        write(dir.filePath("b/notes.json"), "{ broken");
        RunBrowser b(kColumnsKey);
        QVERIFY(list(b, dir.path()));
        QCOMPARE(b.runs().size(), 2); // a bad notes file hides no run
        b.selectRuns({indexOf(b, "b")});
        auto* status = b.findChild<QLabel*>(QStringLiteral("notesStatus"));
        QVERIFY2(status->text().contains(QStringLiteral("notes.json: not a JSON object")), qPrintable(status->text()));

        b.selectRuns({indexOf(b, "a")});
        QVERIFY(!notesPanel(b)->save(QString(65, QLatin1Char('t')), QString())); // a tag too long: refused here
        QVERIFY(status->text().contains(QStringLiteral("longer than")));
        QSignalSpy saved(notesPanel(b), &RunNotesPanel::notesSaved);
        QVERIFY(notesPanel(b)->save(QStringLiteral("baseline, lr sweep"), QStringLiteral("first try\nsecond line")));
        QVERIFY(saved.wait(10000));
        QCOMPARE(saved.front().front().toString(), QString());
        const auto notes = rlda::core::io::read_notes(dir.filePath("a").toStdString());
        QCOMPARE(notes.tags, (std::vector<std::string>{"baseline", "lr sweep"}));
        QCOMPARE(notes.note, std::string("first try\nsecond line"));
        const int cTags = runColumns(b)->modelColumn(QStringLiteral("tags"));
        QCOMPARE(cell(b, "a", cTags), QStringLiteral("baseline, lr sweep"));
        setFilter(b, QStringLiteral("baseline"));
        QCOMPARE(visibleRows(b), 1);
        // The run's reader never looks at it.
        QVERIFY(rlda::core::io::read_run(dir.filePath("a").toStdString()).problems.empty());
        // Read back by a new browser, shown in the editors and the note column.
        runColumns(b)->setShown(runColumns(b)->shown() << QStringLiteral("note"));
        QCOMPARE(cell(b, "a", runColumns(b)->modelColumn(QStringLiteral("note"))), QStringLiteral("first try"));
        RunBrowser again;
        QVERIFY(list(again, dir.path()));
        again.selectRuns({indexOf(again, "a")});
        QCOMPARE(again.findChild<QLineEdit*>(QStringLiteral("tagsEdit"))->text(), QStringLiteral("baseline, lr sweep"));
        QCOMPARE(again.findChild<QPlainTextEdit*>(QStringLiteral("noteEdit"))->toPlainText(),
                 QStringLiteral("first try\nsecond line"));
        QSettings().remove(kColumnsKey);
    }

    void compareConfigs()
    {
        QTemporaryDir dir;
        trainingRun(dir.filePath("a"), 0.9, true, "name = \"x\"\n[job]\nlr = 0.01\nseed = 9\n");
        trainingRun(dir.filePath("b"), 0.8, true, "name = \"x\"\n[job]\nlr = 0.1\nseed = 9\n[scheduler]\nbudget = 30\n");
        trainingRun(dir.filePath("c"), 0.8, true, "name = \"x\"\n[job]\nlr = 0.01\nseed = 9\n");
        RunBrowser b;
        QVERIFY(list(b, dir.path()));
        auto* button = b.findChild<QPushButton*>(QStringLiteral("compareButton"));
        b.selectRuns({indexOf(b, "a")});
        QVERIFY(!button->isEnabled());
        QVERIFY(!b.compareConfigs());
        b.selectRuns({indexOf(b, "a"), indexOf(b, "b")});
        QVERIFY(button->isEnabled());
        std::unique_ptr<rlda::widgets::ConfigCompareDialog> d(b.compareConfigs());
        QVERIFY(d);
        QCOMPARE(d->differences(), 2);
        auto* t = d->table();
        QCOMPARE(t->item(0, 0)->text(), QStringLiteral("job.lr"));
        QCOMPARE(t->item(0, 1)->text(), QStringLiteral("0.01"));
        QCOMPARE(t->item(0, 2)->text(), QStringLiteral("0.1"));
        QCOMPARE(t->item(1, 0)->text(), QStringLiteral("scheduler.budget"));
        QCOMPARE(t->horizontalHeaderItem(1)->text(), QStringLiteral("a"));
        QVERIFY(!t->item(0, 0)->toolTip().isEmpty()); // the key's help
        b.selectRuns({indexOf(b, "a"), indexOf(b, "c")});
        std::unique_ptr<rlda::widgets::ConfigCompareDialog> same(b.compareConfigs());
        QCOMPARE(same->differences(), 0);
        QVERIFY(same->findChild<QLabel*>(QStringLiteral("compareSummary"))->text().contains(QStringLiteral("the same")));
    }

    // docs/screenshots/runs-*.png: written when RLDA_SCREENSHOT_DIR names a folder.
    void screenshotColumnsNotesCompare()
    {
        QTemporaryDir dir;
        trainingRun(dir.filePath("convnet2-lr0.01"), 0.81, true,
                    "name = \"convnet2\"\n[job]\nmodel = \"ConvNet2\"\nlr = 0.01\nseed = 7\n[scheduler]\nbudget = 60\n");
        trainingRun(dir.filePath("convnet2-lr0.1"), 0.64, true,
                    "name = \"convnet2\"\n[job]\nmodel = \"ConvNet2\"\nlr = 0.1\nseed = 7\n[scheduler]\nbudget = 60\n");
        trainingRun(dir.filePath("convnet3-random"), 0.72, true,
                    "name = \"convnet3\"\n[job]\nmodel = \"ConvNet3\"\nlr = 0.01\nseed = 8\n[scheduler]\nbudget = 90\n"
                    "[agent]\nkind = \"random\"\n");
        trainingRun(dir.filePath("convnet3-live"), 0.55, false,
                    "name = \"convnet3\"\n[job]\nmodel = \"ConvNet3\"\nlr = 0.01\nseed = 9\n[scheduler]\nbudget = 90\n");
        rlda::core::io::write_notes(dir.filePath("convnet2-lr0.01").toStdString(),
                                    {{"baseline", "paper"}, "The paper's setting: lr 0.01, 60 s."});
        rlda::core::io::write_notes(dir.filePath("convnet3-random").toStdString(), {{"random agent"}, ""});
        RunBrowser b(kColumnsKey);
        b.resize(1100, 640);
        runColumns(b)->setShown({QStringLiteral("run"), QStringLiteral("kind"), QStringLiteral("result"), QStringLiteral("status"),
                      QStringLiteral("job.model"), QStringLiteral("job.lr"), QStringLiteral("job.seed"),
                      QStringLiteral("scheduler.budget"), QStringLiteral("agent.kind"), QStringLiteral("final_accuracy"),
                      QStringLiteral("tags")});
        QVERIFY(list(b, dir.path()));
        b.show();
        QVERIFY(QTest::qWaitForWindowExposed(&b));
        auto* t = runTable(b);
        t->sortByColumn(runColumns(b)->modelColumn(QStringLiteral("final_accuracy")), Qt::DescendingOrder);
        QCOMPARE(runColumns(b)->modelColumn(QStringLiteral("modified")), -1); // not chosen: hidden
        b.selectRuns({indexOf(b, "convnet2-lr0.01")});
        b.findChild<QTabWidget*>(QStringLiteral("details"))->setCurrentIndex(4);
        rlda::test::shot(b, QStringLiteral("runs-columns-notes"));
        setFilter(b, QStringLiteral("convnet2"));
        QCoreApplication::processEvents(); // the layout makes room for "2 of 4 runs"
        rlda::test::shot(b, QStringLiteral("runs-filter"));
        setFilter(b, QString());
        b.selectRuns({indexOf(b, "convnet2-lr0.01"), indexOf(b, "convnet3-random")});
        std::unique_ptr<rlda::widgets::ConfigCompareDialog> d(b.compareConfigs());
        QVERIFY(d);
        d->show();
        QVERIFY(QTest::qWaitForWindowExposed(d.get()));
        rlda::test::shot(*d, QStringLiteral("runs-compare-configs"));
        QSettings().remove(kColumnsKey);
    }

    void notARoot()
    {
        RunBrowser b;
        QVERIFY(list(b, tmp_.filePath("notes")));
        QCOMPARE(b.runs().size(), 0);
        QVERIFY(list(b, tmp_.filePath("missing")));
        QCOMPARE(b.runs().size(), 0);
        QVERIFY(!b.openRun(0));
    }

    void screenshot()
    {
        RunBrowser b;
        b.resize(760, 620);
        QVERIFY(list(b, tmp_.path()));
        b.show();
        QVERIFY(QTest::qWaitForWindowExposed(&b));
        b.selectRuns({indexOf(b, "convnet2-killed")});
        QSignalSpy opened(&b, &RunBrowser::runOpened);
        QVERIFY(b.openRun(indexOf(b, "convnet2-killed")));
        QVERIFY(opened.wait(10000));
        rlda::test::shot(b, QStringLiteral("browser_killed"));
        b.selectRuns({indexOf(b, "scratch"), indexOf(b, "transfer")});
        b.findChild<QSpinBox*>(QStringLiteral("transferWindow"))->setValue(10);
        rlda::test::shot(b, QStringLiteral("browser_transfer"));
        QVERIFY(list(b, tables_.path()));
        b.selectRuns({indexOf(b, "tiny-sweep")});
        rlda::test::shot(b, QStringLiteral("browser_tables"));
    }
};

RLDA_SUITE_MAIN(TestRunBrowser)
#include "test_run_browser.moc"
