// The Policy page's Transfer tab: a transfer run (rlda transfer --out) read off the GUI thread and
// shown as the table the command line prints and its figure; a folder that is not one is named in
// one line. Written to $RLDA_SCREENSHOT_DIR/policy-transfer.png when set (docs/screenshots).
#include "app/workbench/policy_page.h"
#include "core/run/transfer_protocol.h"
#include "core/table/open_table.h"
#include "core/transfer/lineup.h"
#include "core/transfer/references.h"
#include "core/transfer/summary.h"
#include "core/util/data_dir.h"
#include "core/util/statistics.h"
#include "widgets/figures/lineup_view.h"
#include "widgets/figures/transfer_view.h"
#include "widgets/qcp.h"

#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/common/text_file.h"
#include "tests/common/throwaway_settings.h"

#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

namespace run = rlda::core::run;

namespace {

// Shows `page` and opens the transfer folder `out` in it: true once it is shown without an error.
bool open_transfer_in(rlda::app::PolicyPage& page, const std::filesystem::path& out)
{
    page.resize(1500, 900);
    page.show();
    QSignalSpy opened(&page, &rlda::app::PolicyPage::transferOpened);
    page.openTransfer(QString::fromStdString(out.string()));
    return opened.wait(20000) && opened.first().first().toString().isEmpty();
}

} // namespace

class TestTransferPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY(settings_.isValid());
        rlda::test::use_throwaway_settings(settings_);
    }

    void a_transfer_run_shows_its_table_and_figure()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        run::TransferSettings s;
        for (const auto& t : rlda::core::sim::expand_tables({rlda::core::paper_tables_dir().string()}))
            s.tables.push_back(t);
        s.episodes = 60;
        s.seeds = {1, 2};
        const auto out = std::filesystem::path(dir.path().toStdString()) / "transfer";
        const auto result = run::run_transfer(s, out, false); // both models held out in turn

        rlda::app::PolicyPage page;
        QVERIFY(open_transfer_in(page, out));
        auto* view = page.transfer();
        QCOMPARE(view->models()->count(), 3); // each held-out model, then every held-out model
        QCOMPARE(view->models()->itemText(0), QStringLiteral("ConvNet2"));
        // 5 tables and the means; table, 2 seeds, mean, worst, no adaptation, best fixed, then the
        // references the paper's tables (no decision features) can judge: first, last, random.
        QCOMPARE(view->table()->rowCount(), 6);
        QCOMPARE(view->table()->columnCount(), 10);
        QCOMPARE(view->table()->horizontalHeaderItem(7)->text(), QStringLiteral("first"));
        QCOMPARE(view->table()->horizontalHeaderItem(9)->text(), QStringLiteral("random"));
        const auto summary = run::summarize_transfer(result);
        // A random sequence's expected rank, ties counted (expected_random_rank).
        const double random = rlda::core::expected_random_rank(
            run::sequence_ranks(rlda::core::sim::SimulationTable::load(summary[0].rows[0].table)));
        QCOMPARE(view->table()->item(0, 9)->text(), QString::number(random, 'g', 4));
        QCOMPARE(view->table()->item(0, 1)->text(), QString::number(*summary[0].rows[0].ranks[0]));
        QCOMPARE(view->table()->item(5, 3)->text(), QString::number(*summary[0].mean, 'f', 1));
        QVERIFY(view->plot()->plottableCount() >= 5);
        view->models()->setCurrentIndex(1);
        QCOMPARE(view->table()->item(5, 6)->text(), QStringLiteral("13.4")); // ConvNet3's best fixed (0 0 0)
        QCOMPARE(view->table()->item(5, 7)->text(), QStringLiteral("13.4")); // and first's, the same sequence
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty())
            QVERIFY(page.grab().toImage().save(shots + QStringLiteral("/policy-transfer.png")));

        // Not a transfer run: one line naming the file, and what was shown stays.
        QSignalSpy opened(&page, &rlda::app::PolicyPage::transferOpened);
        page.openTransfer(dir.path());
        QVERIFY(opened.wait(20000));
        const QString error = opened.last().first().toString();
        QVERIFY2(error.contains(QStringLiteral("folds.csv")), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
        QCOMPARE(view->models()->count(), 3);
    }

    // Two runs side by side (rlda transfer-compare's table and figure): every held-out model's mean
    // rank per run beside the references; a run that judged a model on other tables is refused in
    // one line, and what was shown stays.
    void transfer_runs_compare_side_by_side()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        run::TransferSettings s;
        for (const auto& t : rlda::core::sim::expand_tables({rlda::core::paper_tables_dir().string()}))
            s.tables.push_back(t);
        s.episodes = 40;
        s.seeds = {1, 2};
        const auto root = std::filesystem::path(dir.path().toStdString());
        const auto first = run::run_transfer(s, root / "first", false);
        s.seeds = {3};
        const auto second = run::run_transfer(s, root / "second", false);
        s.tables.pop_back(); // a ConvNet3 table fewer: not comparable
        (void)run::run_transfer(s, root / "fewer", false);

        rlda::app::PolicyPage page;
        QVERIFY(open_transfer_in(page, root / "first"));
        QSignalSpy opened(&page, &rlda::app::PolicyPage::transferOpened);
        page.compareTransfer(QString::fromStdString((root / "second").string()));
        QVERIFY(opened.wait(20000));
        QVERIFY2(opened.last().first().toString().isEmpty(), qPrintable(opened.last().first().toString()));
        auto* view = page.transfer();
        QCOMPARE(view->models()->count(), 5); // 2 runs x 2 models, then every held-out model
        QCOMPARE(view->models()->itemText(1), QStringLiteral("ConvNet3 · first"));
        QCOMPARE(view->models()->currentIndex(), 4); // the comparison is shown
        auto* table = view->table();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->columnCount(), 8);
        QCOMPARE(table->horizontalHeaderItem(2)->text(), QStringLiteral("first"));
        QCOMPARE(table->horizontalHeaderItem(3)->text(), QStringLiteral("second"));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("ConvNet3"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("64"));
        const auto mean = [](const run::TransferResult& r) { return *run::summarize_transfer(r)[1].mean; };
        QVERIFY(table->item(1, 2)->text().startsWith(QString::number(mean(first), 'f', 1)));
        QVERIFY(table->item(1, 3)->text().startsWith(QString::number(mean(second), 'f', 1)));
        QVERIFY(table->item(1, 5)->text().startsWith(QStringLiteral("32.5 [")));
        QCOMPARE(table->item(1, 7)->text(), QStringLiteral("13.4"));
        QVERIFY(view->plot()->plottableCount() >= 6); // 2 runs' bars, 4 references, random's interval
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty())
            QVERIFY(page.grab().toImage().save(shots + QStringLiteral("/policy-transfer-study.png")));

        page.compareTransfer(QString::fromStdString((root / "fewer").string()));
        QVERIFY(opened.wait(20000));
        const QString error = opened.last().first().toString();
        QVERIFY2(error.contains(QStringLiteral("different tables")) && error.contains(QStringLiteral("fewer")),
                 qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
        QCOMPARE(view->models()->count(), 5);
    }

    // The study that ships (data/fashion-mnist/study, docs/agent.md): both runs side by side, the
    // comparison shown, a row per held-out model.
    void the_shipped_study_opens_side_by_side()
    {
        rlda::app::PolicyPage page;
        page.resize(1500, 900);
        page.show();
        QSignalSpy opened(&page, &rlda::app::PolicyPage::transferOpened);
        page.openStudy();
        QVERIFY(opened.wait(20000));
        QVERIFY2(opened.last().first().toString().isEmpty(), qPrintable(opened.last().first().toString()));
        auto* view = page.transfer();
        QCOMPARE(view->runs().size(), std::size_t{2});
        QCOMPARE(view->models()->currentIndex(), view->models()->count() - 1);
        auto* table = view->table();
        QCOMPARE(table->rowCount(), 6);
        QCOMPARE(table->horizontalHeaderItem(2)->text(), QStringLiteral("state"));
        QCOMPARE(table->horizontalHeaderItem(3)->text(), QStringLiteral("structural"));
        QStringList models;
        for (int r = 0; r < table->rowCount(); ++r)
            models << table->item(r, 0)->text();
        QCOMPARE(models.join(' '), QStringLiteral("FeedForwardNet2 FeedForwardNet3 TinyConvNet3 WideConvNet4 "
                                                  "SlimConvNet5 DeepConvNet6"));
        QVERIFY(table->item(0, 5)->text().contains(QLatin1Char('['))); // random with its interval
        // The tests `rlda transfer-compare` prints, under the table: no agent is named the best, so no
        // policy's mean is bold; the state-aware policy beats chance on the two feed-forward models.
        QVERIFY(view->tests()->isVisible());
        const QString tests = view->tests()->toPlainText();
        QVERIFY2(tests.contains(QStringLiteral("state against structural")) &&
                     tests.contains(QStringLiteral("best agent: not distinguishable")) &&
                     tests.contains(QStringLiteral("chosen per model in hindsight")),
                 qPrintable(tests));
        for (int r = 0; r < table->rowCount(); ++r)
            for (const int c : {2, 3})
                QVERIFY(!table->item(r, c)->font().bold());
        QVERIFY(table->item(0, 2)->text().endsWith(QStringLiteral(" <"))); // FeedForwardNet2, p = 0.021
        QVERIFY(
            !table->item(2, 2)->text().endsWith(QStringLiteral(" <"))); // TinyConvNet3: one draw, p = 0.56
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty())
            QVERIFY(page.grab().toImage().save(shots + QStringLiteral("/policy-transfer-shipped-study.png")));
    }

    // Replicates of the held-out model's tables: a row each, and the rank's spread under the table.
    void replicates_show_the_spread_of_the_rank()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // The single-seed fixtures: seed 42, and the same tables at seeds 43 and 44.
        const auto fashion = rlda::core::fashion_mnist_tables_dir().parent_path() / "single-seed";
        run::TransferSettings s;
        for (const auto* model : {"feedforwardnet2", "feedforwardnet3"})
            for (const auto* scenario : {"early", "middle", "late"}) {
                const std::string stem = std::string(model) + "_" + scenario;
                s.tables.push_back(fashion / (stem + ".csv"));
                for (const auto* seed : {"43", "44"})
                    s.replicates.push_back(fashion / (stem + "_seed" + seed + ".csv"));
            }
        s.held_out = {"FeedForwardNet2"};
        s.episodes = 40;
        s.seeds = {1, 2};
        const auto out = std::filesystem::path(dir.path().toStdString()) / "transfer";
        (void)run::run_transfer(s, out, false);

        rlda::app::PolicyPage page;
        QVERIFY(open_transfer_in(page, out));
        auto* view = page.transfer();
        QCOMPARE(view->table()->rowCount(), 10); // 3 tables, 6 replicates, the means
        const QString text = view->summary()->text();
        QVERIFY2(text.contains(QStringLiteral("over replicates (tables built at other seeds): early")) &&
                     text.contains(QStringLiteral("(3 tables)")),
                 qPrintable(text));
        // Each table's replicates follow it: early at seeds 42, 43, 44, then middle.
        QVERIFY(view->table()->item(0, 0)->text().startsWith(QStringLiteral("feedforwardnet2_early")));
        QVERIFY(view->table()->item(2, 0)->text().startsWith(QStringLiteral("feedforwardnet2_early_seed44")));
        QVERIFY(view->table()->item(3, 0)->text().startsWith(QStringLiteral("feedforwardnet2_middle")));
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty())
            QVERIFY(page.grab().toImage().save(shots + QStringLiteral("/policy-transfer-replicates.png")));
    }

    // Issue 43, item 20: every agent on one table, the rows and verdicts the command line prints
    // (core/transfer/lineup.h), exported as CSV and Markdown off the GUI thread; a folder that
    // cannot be written is named. The policy among them: test_main_window learning_from_a_table.
    void every_agent_on_a_table()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto file = rlda::core::fashion_mnist_tables_dir() / "tinyconvnet3_middle.csv";
        const QString table = QString::fromStdString(file.string());
        rlda::app::PolicyPage page;
        page.resize(1366, 700);
        page.show();
        auto* view = page.lineup();
        QVERIFY(!view->hasLineup());
        QSignalSpy shown(&page, &rlda::app::PolicyPage::lineupShown);
        page.judgeEveryAgent(table);
        QVERIFY(shown.wait(20000));
        QCOMPARE(shown.first().first().toString(), QString());

        const auto opened = rlda::core::sim::open_table(file);
        const auto expected = run::judge_lineup(rlda::core::sim::learn_task(opened));
        QCOMPARE(view->table()->rowCount(), static_cast<int>(expected.entries.size()));
        for (int r = 0; r < view->table()->rowCount(); ++r) {
            const auto cells = run::lineup_cells(expected, expected.entries[static_cast<std::size_t>(r)]);
            for (int c = 0; c < view->table()->columnCount(); ++c)
                QCOMPARE(view->table()->item(r, c)->text().toStdString(), cells[static_cast<std::size_t>(c)]);
        }
        QCOMPARE(view->table()->item(0, 0)->text(), QStringLiteral("gradient")); // no policy evaluated yet
        QVERIFY(
            view->caption()->text().contains(QStringLiteral("the 95 % confidence set for the best holds 3")));

        const QString csv = dir.filePath(QStringLiteral("agents.csv"));
        QSignalSpy exported(view, &rlda::widgets::LineupView::exported);
        view->exportTo(csv, rlda::widgets::LineupView::Format::Csv);
        QVERIFY(exported.wait(10000));
        QCOMPARE(exported.first().at(1).toString(), QString());
        QCOMPARE(rlda::test::slurp(csv.toStdString()), run::lineup_csv(expected));
        const QString md = dir.filePath(QStringLiteral("agents.md"));
        view->exportTo(md, rlda::widgets::LineupView::Format::Markdown);
        QVERIFY(exported.wait(10000));
        QCOMPARE(rlda::test::slurp(md.toStdString()), run::lineup_markdown(expected));
        view->exportTo(dir.filePath(QStringLiteral("no/such/folder/agents.csv")),
                       rlda::widgets::LineupView::Format::Csv);
        QVERIFY(exported.wait(10000));
        QVERIFY2(exported.last().at(1).toString().contains(QStringLiteral("no/such/folder/agents.csv")),
                 qPrintable(exported.last().at(1).toString()));

        // A file that is no table is named, and what was shown stays.
        page.judgeEveryAgent(dir.filePath(QStringLiteral("agents.md")));
        QVERIFY(shown.wait(20000));
        QVERIFY2(shown.last().first().toString().contains(QStringLiteral("agents.md")),
                 qPrintable(shown.last().first().toString()));
        QCOMPARE(view->table()->rowCount(), static_cast<int>(expected.entries.size()));
    }

private:
    QTemporaryDir settings_;
};

RLDA_SUITE_MAIN(TestTransferPage)
#include "test_transfer_page.moc"
