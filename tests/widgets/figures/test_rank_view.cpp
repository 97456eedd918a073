// RankView on reference tables: one chart per table, the summary rows, export of the chart grid.
#include "widgets/figures/rank_view.h"

#include "tests/common/suite.h"
#include "tests/widgets/figures/reference_tables.h"

#include "tests/common/screenshots.h"
#include "widgets/qcp.h"

#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace rlda;
using rlda::widgets::RankView;

class TestRankView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void summaryRowsAndCharts()
    {
        RankView view;
        std::vector<widgets::RankedTable> tables{test::referenceTable("ConvNet2", "early", {0, 1, 3}),
                                                 test::referenceTable("ConvNet2", "late", {3, 3, 3}),
                                                 test::referenceTable("ConvNet3", "middle", {2, 0, 3})};
        view.setTables(tables);
        QCOMPARE(view.charts().size(), std::size_t(3));
        QCOMPARE(view.plot()->axisRectCount(), 3);
        QTableWidget* s = view.summary();
        QCOMPARE(s->rowCount(), 3);
        QCOMPARE(s->columnCount(), int(RankView::ColumnCount));
        QCOMPARE(s->horizontalHeaderItem(RankView::NoAdaptationColumn)->text(), QStringLiteral("no adaptation"));
        for (int r = 0; r < 3; ++r) {
            const auto& e = tables[static_cast<std::size_t>(r)].evaluation;
            QCOMPARE(s->item(r, RankView::ScenarioColumn)->text(), tables[static_cast<std::size_t>(r)].title());
            QCOMPARE(s->item(r, RankView::GreedyColumn)->text(),
                     QString::fromStdString(core::sim::sequence_string(e.greedy)));
            QCOMPARE(s->item(r, RankView::RankColumn)->text(), QStringLiteral("%1/64").arg(e.rank));
            QCOMPARE(s->item(r, RankView::RankColumn)->data(RankView::ValueRole).toInt(), e.rank);
            QCOMPARE(s->item(r, RankView::AccuracyColumn)->data(RankView::ValueRole).toDouble(), e.accuracy);
            QCOMPARE(s->item(r, RankView::RegretColumn)->data(RankView::ValueRole).toDouble(), e.regret);
            QCOMPARE(s->item(r, RankView::OptimalColumn)->data(RankView::ValueRole).toDouble(), e.optimal);
            QCOMPARE(s->item(r, RankView::NoAdaptationColumn)->data(RankView::ValueRole).toDouble(), e.no_adaptation);
            QCOMPARE(s->item(r, RankView::RandomMeanColumn)->data(RankView::ValueRole).toDouble(), e.random_mean);
            QCOMPARE(s->item(r, RankView::AccuracyColumn)->text(), QString::number(e.accuracy, 'f', 4));
            // The chart of row r highlights the same sequence at its rank.
            QCOMPARE(view.charts()[static_cast<std::size_t>(r)].greedy->data()->at(0)->key, double(e.rank));
        }
        // All no adaptation: rank of {3,3,3} on the late table, drawn at the no-adaptation line.
        const auto& late = view.charts()[1];
        QCOMPARE(late.greedy->data()->at(0)->value, late.noAdaptation->data()->at(0)->value);

        QSignalSpy spy(&view, &RankView::tableActivated);
        Q_EMIT s->cellActivated(2, 0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 2);
    }

    // A replicated table's rank cell gives the interval over its seeds beside the rank of the mean.
    void aReplicatedTableShowsItsRankInterval()
    {
        RankView view;
        const auto replicated = test::replicatedReferenceTable("ConvNet2", "middle", {2, 0, 3});
        view.setTables({replicated, test::referenceTable("ConvNet2", "late", {3, 3, 3})});
        const auto& e = replicated.evaluation;
        auto* cell = view.summary()->item(0, RankView::RankColumn);
        QCOMPARE(cell->text(), QStringLiteral("%1/64 (%2–%3)").arg(e.rank).arg(e.greedy_spread.low).arg(e.greedy_spread.high));
        QCOMPARE(cell->data(RankView::ValueRole).toInt(), e.rank);
        QVERIFY(cell->toolTip().contains(QStringLiteral("over 3 seeds")));
        QCOMPARE(view.summary()->item(1, RankView::RankColumn)->text(),
                 QStringLiteral("%1/64").arg(view.summary()->item(1, RankView::RankColumn)->data(RankView::ValueRole).toInt()));
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty()) {
            view.resize(1000, 700);
            QVERIFY(view.grab().save(shots + QStringLiteral("/policy_ranks_replicated.png")));
        }
    }

    void exportAndClear()
    {
        RankView view;
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* button = view.findChild<QPushButton*>();
        QVERIFY(button);
        QVERIFY(!button->isEnabled()); // nothing to export yet
        view.setTables({test::referenceTable("ConvNet2", "middle", {1, 1, 1}),
                        test::referenceTable("ConvNet3", "late", {0, 0, 0}),
                        test::referenceTable("ConvNet3", "early", {2, 0, 3})});
        QVERIFY(button->isEnabled());
        // For a person to look at: RLDA_SCREENSHOT_DIR=DIR keeps a picture of the view.
        if (const QString keep = rlda::test::screenshotDir(); !keep.isEmpty())
            QVERIFY(view.grab().save(keep + "/rank_view.png"));
        QTemporaryDir dir;
        for (const char* suffix : {"png", "pdf", "svg"}) {
            const QString path = dir.filePath(QStringLiteral("ranks.") + suffix);
            QCOMPARE(view.exportTo(path), QString());
            QVERIFY(QFile(path).size() > 1000);
        }
        QVERIFY(view.exportTo(dir.filePath("ranks.bmp")).contains("ranks.bmp"));
        view.clear();
        QCOMPARE(view.summary()->rowCount(), 0);
        QCOMPARE(view.plot()->axisRectCount(), 0);
        QVERIFY(!button->isEnabled());
    }
};

RLDA_SUITE_MAIN(TestRankView)
#include "test_rank_view.moc"
