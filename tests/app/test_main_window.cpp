// The assembled workbench: a run started from the window fills every page, its plots export to
// valid files, a truncated run opens read-only, and closing the window mid-run cancels cleanly.
#include "app/workbench/close_guard.h"
#include "app/workbench/learning_page.h"
#include "app/workbench/main_window.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/torch_engine.h"
#include "core/config/experiment_io.h"
#include "core/io/run_reader.h"
#include "core/model/zoo.h"
#include "core/run/experiment_run.h"
#include "core/sim/build.h"
#include "core/util/data_dir.h"
#include "core/util/tensor_file.h"
#include "tests/common/old_policy.h"
#include "tests/common/run_state.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/common/synthetic_table.h"
#include "tests/common/tiny_sim.h"
#include "tests/widgets/plot/plot_reading.h"
#include "widgets/figures/lineup_view.h"
#include "widgets/figures/rank_view.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/inspect/table_explorer.h"
#include "widgets/job_tracker.h"
#include "widgets/plot/learning_view.h"
#include "widgets/plot/series_plot.h"
#include "widgets/plot/training_view.h"
#include "widgets/qcp.h"
#include "widgets/run/experiment_editor.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/run_control.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using namespace rlda;
using app::CloseGuard;
using app::MainWindow;
using app::RunState;

namespace {

QByteArray head(const QString& path, int n)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

bool svgParses(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    QXmlStreamReader xml(&f);
    bool root = false;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && !root)
            root = xml.name() == QLatin1String("svg");
    return root && !xml.hasError();
}

// The row of `name` in the Runs page's table, and the text of one of its cells.
int runIndex(widgets::RunBrowser& b, const QString& name)
{
    for (int i = 0; i < b.runs().size(); ++i)
        if (QString::fromStdString(b.runs()[i].name) == name)
            return i;
    return -1;
}

QString runCell(widgets::RunBrowser& b, const QString& name, int column)
{
    const auto* m = b.findChild<QTableView*>(QStringLiteral("runTable"))->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, 0).data().toString() == name)
            return m->index(r, column).data().toString();
    return {};
}

void click(QWidget& parent, const char* button)
{
    auto* b = parent.findChild<QPushButton*>(QLatin1String(button));
    QVERIFY2(b && b->isEnabled(), button);
    QTest::mouseClick(b, Qt::LeftButton);
}

// The policy page evaluates off the GUI thread: its answer, an empty string or the reason.
QString evaluated(app::PolicyPage& page, const QString& policy, const QStringList& tables)
{
    QSignalSpy answer(&page, &app::PolicyPage::evaluated);
    page.evaluate(policy, tables);
    return answer.wait(60000) ? answer.at(0).at(0).toString() : QStringLiteral("no answer within 60 s");
}

// openTable and openRun read off the GUI thread: their answer, an empty string or the reason.
QString opened(MainWindow& w, void (MainWindow::*open)(const QString&), void (MainWindow::*shown)(const QString&),
               const QString& path)
{
    QSignalSpy answer(&w, shown);
    (w.*open)(path);
    return answer.wait(60000) ? answer.at(0).at(0).toString() : QStringLiteral("no answer within 60 s");
}
QString openedTable(MainWindow& w, const QString& path)
{
    return opened(w, &MainWindow::openTable, &MainWindow::tableShown, path);
}
QString openedRun(MainWindow& w, const QString& path) { return opened(w, &MainWindow::openRun, &MainWindow::runShown, path); }

// The run folder's only child of `root`.
QString onlyRun(const QString& root)
{
    const auto entries = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    return entries.size() == 1 ? QDir(root).filePath(entries.front()) : QString();
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { app::installEngine(app::makeTorchEngine()); } // the suite trains

    void a_run_fills_every_page_and_exports()
    {
        QTemporaryDir tmp;
        MainWindow w;
        w.setRunsRoot(tmp.filePath(QStringLiteral("runs")));
        QVERIFY(w.openExperiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml"));
        QVERIFY(w.editor()->isValid());
        w.show();
        QVERIFY(w.startTraining());
        QCOMPARE(w.runControl()->state(), widgets::RunControl::State::Running);
        QTRY_COMPARE_WITH_TIMEOUT(w.controller().state(), RunState::Finished, 60000);
        QCOMPARE(w.runControl()->state(), widgets::RunControl::State::Finished);

        QTRY_VERIFY(w.training()->plot()->pointCount(widgets::TrainingView::seriesIds().front()) >= 2);
        QCOMPARE(w.architecture()->stepCount(), 3); // the start and two deepenings
        QCOMPARE(w.policy()->decisions()->decisionCount(), 2);
        QCOMPARE(w.currentRun(), onlyRun(tmp.filePath(QStringLiteral("runs"))));

        const QString out = tmp.filePath(QStringLiteral("export"));
        const QString problems = w.pages()->exportAll(out, {QSize(900, 500), 96});
        // The learning and policy pages have nothing yet; training, the decisions and the graphs do.
        for (const QString& name : {QStringLiteral("training"), QStringLiteral("policy"),
                                    QStringLiteral("architecture"), QStringLiteral("model")}) {
            QCOMPARE(head(out + "/" + name + ".png", 4), QByteArray("\x89PNG"));
            QCOMPARE(head(out + "/" + name + ".pdf", 4), QByteArray("%PDF"));
            QVERIFY2(svgParses(out + "/" + name + ".svg"), qPrintable(problems));
        }
        QVERIFY(QFileInfo(out + "/training.csv").size() > 0);
        QVERIFY(!w.pages()->exportPlot(MainWindow::Page::Runs, out + "/runs.png", {}).isEmpty()); // no plot there
    }

    void learning_from_a_table()
    {
        QTemporaryDir tmp;
        MainWindow w;
        w.setRunsRoot(tmp.path());
        const QString table = QString::fromStdString(
            test::write_synthetic_table(tmp.filePath(QStringLiteral("table.csv")).toStdString()));
        QCOMPARE(openedTable(w, table), QString());
        QCOMPARE(w.learning()->table(), table);
        w.learning()->setEpisodes(1500);
        QVERIFY(w.startLearning());
        QTRY_COMPARE_WITH_TIMEOUT(w.controller().state(), RunState::Finished, 60000);
        QCOMPARE(w.learning()->view()->plot()->pointCount(QStringLiteral("objective")), 1500); // a point per episode
        QTRY_COMPARE(w.policy()->ranks()->tables().size(), std::size_t{1}); // the final evaluation
        QCOMPARE(w.policy()->ranks()->tables().front().evaluation.sequences, 64);

        // The same policy judged on two tables at once.
        const QString policy = w.currentRun() + "/policy.pt";
        const QString other = QString::fromStdString(
            test::write_synthetic_table(tmp.filePath(QStringLiteral("other.csv")).toStdString()));
        QSignalSpy lineup(w.policy(), &app::PolicyPage::lineupShown);
        QCOMPARE(evaluated(*w.policy(), policy, {table, other}), QString());
        QCOMPARE(w.policy()->ranks()->tables().size(), std::size_t{2});
        // Issue 43, item 20: the first table's every-agent table follows, the policy first among them.
        QVERIFY(lineup.wait(60000));
        QCOMPARE(lineup.first().first().toString(), QString());
        const auto& agents = w.policy()->lineup()->lineup();
        QCOMPARE(agents.table, table.toStdString());
        QCOMPARE(agents.entries.front().agent, std::string("policy"));
        QVERIFY(agents.entries.front().in_sample);
        QCOMPARE(static_cast<int>(agents.entries.front().rank),
                 w.policy()->ranks()->tables()[0].evaluation.rank);
        QCOMPARE(w.policy()->lineup()->table()->item(0, 0)->text(), QStringLiteral("policy (in-sample)"));
        QCOMPARE(w.policy()->ranks()->tables()[1].scenario, QStringLiteral("other")); // no index.csv: the file
        // Issue 43, item 7: the rank on the table it learned on is marked in-sample; the other is not.
        QVERIFY2(w.policy()->ranks()->tables()[0].agent.endsWith(
                     QStringLiteral("in-sample (learned on this table)")),
                 qPrintable(w.policy()->ranks()->tables()[0].agent));
        QVERIFY(!w.policy()->ranks()->tables()[1].agent.contains(QStringLiteral("in-sample")));
        QVERIFY(!evaluated(*w.policy(), tmp.filePath("none.pt"), {table}).isEmpty());
        QCOMPARE(w.policy()->ranks()->tables().size(), std::size_t{2}); // a failure leaves the ranks shown
        // A policy of the format before tensor files is evaluated, and the page says it is unverified.
        const QString older = tmp.filePath(QStringLiteral("older.pt"));
        test::write_old_policy(core::agent::PolicyLearner::load(policy.toStdString()), older.toStdString());
        QSignalSpy said(w.policy(), &app::PolicyPage::statusMessage);
        QCOMPARE(evaluated(*w.policy(), older, {table}), QString());
        QVERIFY2(said.last().at(0).toString().contains(
                     QString::fromStdString(core::unverified_warning(older.toStdString()))),
                 qPrintable(said.last().at(0).toString()));
        // A table named by the paper's index.csv gets its model from there.
        const QString reference = RLDA_PAPER_DIR "/tables/convnet3_late.csv";
        QCOMPARE(evaluated(*w.policy(), policy, {reference}), QString());
        QCOMPARE(w.policy()->ranks()->tables()[0].model, QStringLiteral("ConvNet3"));
    }

    // Issue 43, item 6: the Learning page reads the table's model when the table is chosen. For a
    // model of the user's own, whose layers the original encoder reads as <unk>, it chooses the
    // structural encoder and says why; "original" chosen anyway is warned about before Start; a
    // table of the zoo's model goes back to the paper's encoder; the user's own choice stands.
    void the_learning_page_chooses_an_encoder_that_reads_the_table()
    {
        app::LearningPage page;
        auto* encoder = page.findChild<QComboBox*>(QStringLiteral("learnEncoder"));
        const auto tables = core::fashion_mnist_tables_dir();
        const QString own = QString::fromStdString((tables / "tinyconvnet3_middle.csv").string());
        const QString zoo = QString::fromStdString((tables / "feedforwardnet2_middle.csv").string());
        const auto choose = [&](const QString& table) {
            QSignalSpy identified(&page, &app::LearningPage::tableIdentified);
            page.setTable(table);
            return identified.wait(20000);
        };
        QCOMPARE(encoder->currentText(), QStringLiteral("original"));
        QVERIFY(choose(zoo));
        QVERIFY(page.unreadableLayers().isEmpty());
        QCOMPARE(encoder->currentText(), QStringLiteral("original"));
        QVERIFY(page.encoderNote().isEmpty());
        QVERIFY(choose(own));
        QCOMPARE(page.unreadableLayers().size(),
                 5); // as rlda learn warns: 5 of the 10 layers of TinyConvNet3
        QCOMPARE(encoder->currentText(), QStringLiteral("structural"));
        QVERIFY2(page.encoderNote().startsWith(
                     QStringLiteral("Encoder structural, chosen for this table: the original "
                                    "encoder reads 5 of the 10 layers of TinyConvNet3 as <unk>")),
                 qPrintable(page.encoderNote()));
        QVERIFY(page.settings().policy.encoder == core::config::PolicyEncoder::Structural);
        QVERIFY(choose(zoo));
        QCOMPARE(encoder->currentText(), QStringLiteral("original")); // the paper's again
        QVERIFY(choose(own));
        // The user picks "original" anyway: the warning, and later tables leave the choice alone.
        encoder->setCurrentIndex(encoder->findText(QStringLiteral("original")));
        Q_EMIT encoder->activated(encoder->currentIndex());
        QVERIFY2(
            page.encoderNote().startsWith(QStringLiteral("Warning: the original encoder reads 5 of the 10")),
            qPrintable(page.encoderNote()));
        QVERIFY(choose(zoo));
        QVERIFY(choose(own));
        QCOMPARE(encoder->currentText(), QStringLiteral("original"));
    }

    void a_truncated_run_opens_read_only()
    {
        QTemporaryDir tmp;
        QString run;
        {
            MainWindow w;
            w.setRunsRoot(tmp.filePath(QStringLiteral("runs")));
            QVERIFY(w.openExperiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml"));
            QVERIFY(w.startTraining());
            QTRY_COMPARE_WITH_TIMEOUT(w.controller().state(), RunState::Finished, 60000);
            run = w.currentRun();
        }
        // What a kill mid-write leaves: half a CSV row and half a JSON line.
        {
            std::ofstream(run.toStdString() + "/metrics/test_acc.csv", std::ios::app) << "9,4.5,0.3";
            std::ofstream(run.toStdString() + "/events.jsonl", std::ios::app) << "{\"type\":\"adaptation\",\"deci";
        }
        const auto before = QFileInfo(run + "/events.jsonl").lastModified();
        MainWindow w;
        QCOMPARE(openedRun(w, run), QString());
        QVERIFY(w.training()->plot()->pointCount(widgets::TrainingView::seriesIds().front()) >= 2);
        QCOMPARE(w.architecture()->stepCount(), 3);
        QCOMPARE(QFileInfo(run + "/events.jsonl").lastModified(), before); // never written to
        QVERIFY(!openedRun(w, tmp.filePath(QStringLiteral("not-a-run"))).isEmpty());
    }

    void closing_during_a_run_cancels_and_keeps_the_files()
    {
        QTemporaryDir tmp;
        QString run;
        {
            MainWindow w;
            w.setRunsRoot(tmp.path());
            QVERIFY(w.openExperiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml"));
            auto config = w.editor()->config();
            config.scheduler.budget = 1000.0; // far longer than the test
            w.editor()->setConfig(config);
            w.show();
            QSignalSpy epochs(w.controller().worker(), &app::Worker::epoch);
            QVERIFY(w.startTraining());
            QTRY_VERIFY_WITH_TIMEOUT(epochs.count() >= 2, 60000);
            run = w.currentRun();
            // The close prompt's default answer (tests/app/test_workspace.cpp answers the box itself).
            w.closeGuard()->setPrompt([](const QString&) { return CloseGuard::Choice::CancelAndClose; });
            QVERIFY(w.close()); // returns once the worker has stopped
            QVERIFY(!w.controller().isActive());
        }
        const auto data = core::io::read_run(run.toStdString());
        QVERIFY(data.finished.has_value() && data.finished->cancelled);
        QVERIFY(data.series.at("test_acc").size() >= 2);
        QVERIFY(data.problems.empty());
    }

    void closing_while_reads_are_in_flight()
    {
        QTemporaryDir tmp;
        {
            MainWindow w;
            w.setRunsRoot(tmp.path());
            w.show();
            w.openTable(RLDA_PAPER_DIR "/tables/convnet3_late.csv");
            w.openRun(tmp.filePath(QStringLiteral("not-a-run")));
            w.policy()->evaluate(tmp.filePath(QStringLiteral("none.pt")), {RLDA_PAPER_DIR "/tables/convnet3_late.csv"});
            w.showPage(MainWindow::Page::Runs); // lists the runs root
            auto* evaluate = w.policy()->findChild<QPushButton*>(QStringLiteral("evaluatePolicyButton"));
            QVERIFY(!evaluate->isEnabled()); // evaluating
        } // the window goes with its reads in flight: it waits for them, bounded, and nothing is delivered
        QVERIFY(widgets::waitForJobs(std::chrono::seconds(10)));
        QCoreApplication::processEvents();
    }

    void runs_page_tables_overlays_and_a_chosen_folder();
    void parameter_count_at_the_experiments_input();
};

void TestMainWindow::runs_page_tables_overlays_and_a_chosen_folder()
{
    QTemporaryDir tmp;
    const QString root = tmp.filePath(QStringLiteral("runs"));
    const QString chosen = tmp.filePath(QStringLiteral("elsewhere"));
    // What rlda simulate writes, 16 rows, under the runs root; three small training runs elsewhere.
    QVERIFY(core::sim::build_table(test::tiny_config(), (root + "/tiny-table").toStdString(), false).complete());
    auto c = core::config::load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
    const std::vector<std::pair<QString, std::vector<int>>> agents{
        {QStringLiteral("fixed-0-1"), {0, 1}}, {QStringLiteral("fixed-1-0"), {1, 0}}, {QStringLiteral("none"), {3, 3}}};
    for (const auto& [name, sequence] : agents) {
        c.agent.sequence = sequence;
        core::run::run_experiment(c, (chosen + "/" + name).toStdString(), false);
    }

    MainWindow w;
    w.setRunsRoot(root);
    w.show();
    widgets::RunBrowser& runs = *w.runs();
    QSignalSpy listed(&runs, &widgets::RunBrowser::listed);
    w.showPage(MainWindow::Page::Runs); // lists the runs root off the GUI thread
    QCOMPARE(runs.root(), root);
    QVERIFY(listed.wait(30000));
    QCOMPARE(runCell(runs, "tiny-table", 3), QStringLiteral("16/16 rows")); // complete, not "incomplete"
    QVERIFY(runCell(runs, "tiny-table", 2).startsWith(QStringLiteral("best [")));

    // Open on a table: the Tables page shows its 16 rows.
    runs.selectRuns({runIndex(runs, "tiny-table")});
    rlda::test::shot(w, QStringLiteral("window_runs_table"));
    click(runs, "openButton");
    QTRY_COMPARE(w.currentPage(), MainWindow::Page::Tables);
    QVERIFY(w.tables()->table().has_value());
    QCOMPARE(w.tables()->table()->rows().size(), std::size_t(16));

    // A folder chosen on the Runs page (typed, as Choose… sets it) survives Open, Overlay and
    // showing the page again.
    w.showPage(MainWindow::Page::Runs);
    auto* edit = runs.findChild<QLineEdit*>(QStringLiteral("rootEdit"));
    edit->clear();
    QTest::keyClicks(edit, chosen);
    listed.clear();
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(runs.root(), chosen);
    QVERIFY(listed.wait(30000));
    QCOMPARE(runs.runs().size(), 3);
    runs.selectRuns({runIndex(runs, "fixed-0-1")});
    click(runs, "openButton");
    QTRY_COMPARE(w.currentPage(), MainWindow::Page::Training);
    w.showPage(MainWindow::Page::Runs);
    QCOMPARE(runs.root(), chosen);
    QCOMPARE(edit->text(), chosen);

    runs.selectRuns({0, 1, 2});
    click(runs, "overlayButton");
    QCOMPARE(w.currentPage(), MainWindow::Page::Training);
    w.training()->plot()->flush();
    w.training()->plot()->plot()->replot(); // now, not queued: the shot sees this overlay
    rlda::test::shot(w, QStringLiteral("window_overlay"));
    const QStringList names{QStringLiteral("fixed-0-1"), QStringLiteral("fixed-1-0"), QStringLiteral("none")};
    QCOMPARE(w.training()->runNames(), names);
    widgets::SeriesPlot* plot = w.training()->plot();
    const auto colour = [plot](const QString& series) {
        return plot_reading::line(*plot, series)->pen().color().rgb();
    };
    const QSet<QRgb> colours{colour(QStringLiteral("test_acc")), colour(QStringLiteral("fixed-1-0: test_acc")),
                             colour(QStringLiteral("none: test_acc"))};
    QCOMPARE(colours.size(), 3);
    const QStringList legend = plot_reading::legendLabels(*plot);
    for (const QString& name : names)
        QVERIFY2(legend.contains(name), qPrintable(legend.join(QStringLiteral(" | "))));
    // Each run's "up" is marked in its colour (the three share its time; the labels stack).
    QSet<QRgb> marked;
    for (const QColor& m : plot_reading::markerColors(*plot))
        marked << m.rgb();
    QVERIFY(QSet<QRgb>(colours).subtract(marked).isEmpty());
    w.showPage(MainWindow::Page::Runs);
    QCOMPARE(runs.root(), chosen);

    // A new runs root moves the page again.
    w.setRunsRoot(root);
    QCOMPARE(runs.root(), root);
}

void TestMainWindow::parameter_count_at_the_experiments_input()
{
    MainWindow w;
    QVERIFY(w.openExperiment(RLDA_SOURCE_DIR "/config/default.toml")); // ConvNet2 on Fashion-MNIST: 1x28x28
    QVERIFY(w.editor()->config().dataset.kind == rlda::core::config::DatasetKind::FashionMnist);
    const auto count = [&w] {
        const auto m = QRegularExpression(QStringLiteral(": ([^:]*) parameters"))
                           .match(w.statusBar()->currentMessage());
        return m.hasMatch() ? m.captured(1).remove(QRegularExpression(QStringLiteral("[^0-9]"))) : QString();
    };
    w.previewModel(QStringLiteral("ConvNet2"));
    QCOMPARE(count(), QStringLiteral("10026"));
    // An input given explicitly wins: CIFAR-10's shape gives the reference's count.
    w.previewModel(QStringLiteral("ConvNet2"), QStringLiteral("3x32x32"));
    QCOMPARE(count(), QStringLiteral("10602"));
    // Another experiment, another shape: synthetic 3x16x16 with 4 classes.
    QVERIFY(w.openExperiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml"));
    w.previewModel(QStringLiteral("ConvNet2"));
    const auto spec = core::model::load_model("ConvNet2", {3, 16, 16}, 4);
    QCOMPARE(count(), QString::number(core::model::summarize(spec).parameters));
}

RLDA_SUITE_MAIN(TestMainWindow)
#include "test_main_window.moc"
