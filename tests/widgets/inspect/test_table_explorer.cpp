// TableExplorer: the reference ConvNet2 table sorted, filtered and mapped; other shapes and partial tables.
#include "core/table/results.h"
#include "core/table/table.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/widgets/inspect/synthetic_tables.h"
#include "widgets/inspect/action_heatmap.h"
#include "widgets/inspect/sorted_accuracy_chart.h"
#include "widgets/inspect/table_explorer.h"
#include "widgets/qcp.h"

#include <QDir>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace s = rlda::core::sim;
using rlda::widgets::SimulationTableModel;
using rlda::widgets::SortedAccuracyChart;
using rlda::widgets::TableExplorer;

namespace {

const std::string kEarly = std::string(RLDA_PAPER_DIR) + "/tables/convnet2_early.csv";

// The explorer's parts, found as the user sees them.
QTableView* tableView(const TableExplorer& w) { return w.findChild<QTableView*>(QStringLiteral("tableView")); }
QSortFilterProxyModel* proxyModel(const TableExplorer& w)
{
    return qobject_cast<QSortFilterProxyModel*>(tableView(w)->model());
}
QString baselineText(const TableExplorer& w) { return w.findChild<QLabel*>(QStringLiteral("baselines"))->text(); }
rlda::widgets::ActionHeatmap* actionHeatmap(const TableExplorer& w)
{
    return w.findChild<rlda::widgets::ActionHeatmap*>();
}
QSize heatmapSize(const TableExplorer& w) { return actionHeatmap(w)->cells(); } // columns × rows
int heatmapCellCount(const TableExplorer& w) { return heatmapSize(w).width() * heatmapSize(w).height(); }
// What the sorted chart draws: one graph per seed, and error bars or none.
int seedGraphs(const TableExplorer& w)
{
    return int(w.findChild<SortedAccuracyChart*>()->plot()->findChildren<QCPGraph*>(QStringLiteral("seed")).size());
}
bool hasErrorBars(const TableExplorer& w)
{
    const QCustomPlot* plot = w.findChild<SortedAccuracyChart*>()->plot();
    return plot->findChild<QCPErrorBars*>(QStringLiteral("errorBars")) != nullptr;
}

int proxyRank(TableExplorer& w, int proxyRow)
{
    auto* p = proxyModel(w);
    return p->index(proxyRow, w.sourceModel()->rankColumn()).data(SimulationTableModel::SortRole).toInt();
}

} // namespace

class TestTableExplorer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void referenceTableColumns()
    {
        const auto table = s::SimulationTable::load(kEarly);
        TableExplorer w;
        w.setTable(table, QStringLiteral("convnet2_early"));
        auto* model = w.sourceModel();
        QCOMPARE(model->rowCount(), 64);
        QCOMPARE(model->columnCount(), 3 + 1 + 3 + 3);
        QCOMPARE(model->headerData(0, Qt::Horizontal).toString(), QStringLiteral("a1"));
        QCOMPARE(model->headerData(model->timeLeftColumn(2), Qt::Horizontal).toString(), QStringLiteral("timeleft3"));
        QCOMPARE(model->headerData(model->accuracyColumn(), Qt::Horizontal).toString(), QStringLiteral("accuracy"));

        // Row 0 of the file: 0,0,0,328.882122,316.298394,304.282371,400,0.7194
        QCOMPARE(model->index(0, model->sequenceColumn()).data().toString(), QStringLiteral("0 0 0"));
        QCOMPARE(model->index(0, model->accuracyColumn()).data(SimulationTableModel::SortRole).toDouble(), 0.7194);
        QCOMPARE(model->index(0, model->timeLeftColumn(0)).data(SimulationTableModel::SortRole).toDouble(), 328.882122);
        QCOMPARE(model->index(0, model->rankColumn()).data(SimulationTableModel::SortRole).toInt(), table.rank({0, 0, 0}));
        const double opt = table.optimal().accuracy;
        QCOMPARE(model->index(0, model->deltaColumn()).data(SimulationTableModel::SortRole).toDouble(), 0.7194 - opt);

        // The header line carries the baselines.
        const QString b = baselineText(w);
        QVERIFY2(b.contains(QString::fromStdString(s::sequence_string(table.optimal().actions))), qPrintable(b));
        QVERIFY2(b.contains(QString::number(100.0 * opt, 'f', 2)), qPrintable(b));
        QVERIFY2(b.contains(QLatin1String("no adaptation (3 3 3)")), qPrintable(b));
        QVERIFY2(b.contains(QString::number(100.0 * table.random_mean(10, 0), 'f', 2)), qPrintable(b));
        QVERIFY2(b.contains(QString::number(100.0 * table.expected_random(), 'f', 2)), qPrintable(b));
        QVERIFY2(!b.contains(QLatin1String("ranks nothing")), qPrintable(b));

        // Issue 43, item 8: a table whose sequences all end at one accuracy says that it ranks nothing.
        s::SimulationTable flat(table.decisions(), table.num_actions());
        for (auto row : table.rows()) {
            row.accuracy = 0.75;
            flat.add(row);
        }
        w.setTable(flat, QStringLiteral("flat"));
        QVERIFY2(
            baselineText(w).contains(QLatin1String("all 64 sequences end at the same accuracy (0.75), so the "
                                                   "table ranks nothing")),
            qPrintable(baselineText(w)));
    }

    void sortByAccuracyPutsRankOneFirst()
    {
        const auto table = s::SimulationTable::load(kEarly);
        TableExplorer w;
        w.setTable(table, QStringLiteral("convnet2_early"));
        auto* model = w.sourceModel();
        tableView(w)->sortByColumn(model->accuracyColumn(), Qt::DescendingOrder);
        QCOMPARE(proxyRank(w, 0), 1);
        QCOMPARE(proxyModel(w)->index(0, model->sequenceColumn()).data().toString(),
                 QString::fromStdString(s::sequence_string(table.optimal().actions)));
        for (int r = 1; r < proxyModel(w)->rowCount(); ++r)
            QVERIFY(proxyRank(w, r - 1) <= proxyRank(w, r));

        tableView(w)->sortByColumn(model->rankColumn(), Qt::DescendingOrder);
        std::vector<int> worst;
        double lo = 2.0;
        for (const auto& row : table.rows())
            if (row.accuracy < lo) {
                lo = row.accuracy;
                worst = row.actions;
            }
        QCOMPARE(proxyRank(w, 0), table.rank(worst));
    }

    void filterNarrowsRows()
    {
        TableExplorer w;
        w.setTable(s::SimulationTable::load(kEarly), QStringLiteral("convnet2_early"));
        QCOMPARE(w.visibleRowCount(), 64);
        QVERIFY(w.setFilter(QStringLiteral("2 0 *")));
        QCOMPARE(w.visibleRowCount(), 4);
        for (int r = 0; r < 4; ++r)
            QVERIFY(proxyModel(w)->index(r, 0).data(SimulationTableModel::SequenceRole).toString().startsWith(QLatin1String("2 0 ")));
        QVERIFY(w.setFilter(QStringLiteral("2")));       // a prefix
        QCOMPARE(w.visibleRowCount(), 16);
        QVERIFY(w.setFilter(QStringLiteral("* * 3")));
        QCOMPARE(w.visibleRowCount(), 16);
        QVERIFY(w.setFilter(QStringLiteral("?1?")));     // compact form
        QCOMPARE(w.visibleRowCount(), 16);
        QVERIFY(w.setFilter(QStringLiteral("^3 .* 3$"))); // a regex
        QCOMPARE(w.visibleRowCount(), 4);
        QVERIFY(!w.setFilter(QStringLiteral("(")));      // invalid regex: no filtering by it
        QCOMPARE(w.visibleRowCount(), 64);

        const auto& t = *w.table();
        const double opt = t.optimal().accuracy;
        QVERIFY(w.setFilter(QString(), opt));
        QCOMPARE(w.visibleRowCount(), 1);
        int above = 0;
        for (const auto& r : t.rows())
            above += r.accuracy >= 0.72 ? 1 : 0;
        QVERIFY(w.setFilter(QStringLiteral("*"), 0.72));
        QCOMPARE(w.visibleRowCount(), above);
        QVERIFY(w.setFilter(QString()));
        QCOMPARE(w.visibleRowCount(), 64);
    }

    void heatmapOfReferenceTable()
    {
        const auto table = s::SimulationTable::load(kEarly);
        TableExplorer w;
        w.setTable(table, QStringLiteral("convnet2_early"));
        QCOMPARE(heatmapSize(w), QSize(16, 4)); // rows a1, columns a2·4+a3
        QCOMPARE(heatmapCellCount(w), 64);
        QCOMPARE(w.cellOf({2, 1, 3}), QPoint(1 * 4 + 3, 2));
        QCOMPARE(w.sequenceAt(QPoint(7, 2)), (std::vector<int>{2, 1, 3}));
        for (const auto& row : table.rows())
            QCOMPARE(*w.cellAccuracy(w.cellOf(row.actions)), row.accuracy);
        QCOMPARE(w.optimalCell(), w.cellOf(table.optimal().actions));
        QCOMPARE(w.selectedCell(), QPoint(-1, -1));

        // A click on a cell selects its row, even when a filter hid it.
        w.resize(1100, 500);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.setFilter(QStringLiteral("0 * *")));
        QSignalSpy spy(&w, &TableExplorer::sequenceSelected);
        auto* plot = w.heatmap();
        plot->replot();
        // Each row's sequence stays in sight when the view scrolls right to the last columns: the
        // rows' header shows it, in the proxy's (sorted, filtered) order (issue 43, item 21).
        auto* view = w.findChild<QTableView*>(QStringLiteral("tableView"));
        QVERIFY(view && view->verticalHeader()->isVisible());
        for (int r = 0; r < std::min(view->model()->rowCount(), 5); ++r) {
            const QString header = view->model()->headerData(r, Qt::Vertical).toString();
            const auto row = view->model()->index(r, 0).data(SimulationTableModel::RowRole).toInt();
            const auto& actions = table.rows()[static_cast<std::size_t>(row)].actions;
            QCOMPARE(header.split(QLatin1Char(' '), Qt::SkipEmptyParts).size(),
                     static_cast<qsizetype>(actions.size()));
            QVERIFY2(header.startsWith(QString::number(actions.front())), qPrintable(header));
        }
        view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->maximum());
        QVERIFY(view->verticalHeader()->isVisible() && view->verticalHeader()->width() > 0);
        // The colour bar in the table's unit, percent (issue 43, item 21).
        const QCPAxis* bar = actionHeatmap(w)->colorScale()->axis();
        QCOMPARE(bar->label(), QStringLiteral("test accuracy (%)"));
        QVERIFY(!bar->tickVectorLabels().isEmpty());
        for (const QString& tick : bar->tickVectorLabels()) {
            bool number = false;
            const double value = QLocale().toDouble(tick, &number);
            QVERIFY2(number && value > 1.0 && value <= 100.0, qPrintable(tick));
        }
        const QPoint cell = w.cellOf({2, 1, 3});
        const QPoint pixel(static_cast<int>(plot->xAxis->coordToPixel(cell.x())),
                           static_cast<int>(plot->yAxis->coordToPixel(cell.y())));
        QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, pixel);
        QVERIFY(w.selectedSequence().has_value());
        QCOMPARE(*w.selectedSequence(), (std::vector<int>{2, 1, 3}));
        QCOMPARE(w.visibleRowCount(), 64);
        QCOMPARE(w.selectedCell(), cell);
        QCOMPARE(spy.count(), 1);
        const int tableRow = spy.takeFirst().at(0).toInt();
        QCOMPARE(table.rows()[static_cast<std::size_t>(tableRow)].actions, (std::vector<int>{2, 1, 3}));

        // And selecting in the table moves the marker on the map.
        tableView(w)->selectRow(0);
        QCOMPARE(w.selectedCell(), w.cellOf(*w.selectedSequence()));

        // Issue 27: a column's two actions stand one above the other, so that sixteen columns'
        // labels do not run together into "0 0 0 1 0 2…".
        auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot->xAxis->ticker());
        QCOMPARE(ticker->ticks().value(1), QStringLiteral("0\n1"));
        QCOMPARE(ticker->ticks().value(7), QStringLiteral("1\n3"));
        // The selected cell is the user's pointer, not part of the figure: an export leaves it out
        // (its red appears nowhere in the picture) and the screen keeps it.
        QTemporaryDir tmp;
        const QString png = tmp.filePath(QStringLiteral("heatmap.png"));
        const QString error = w.exportHeatmap(png, {QSize(900, 400), 96});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(900, 400));
        // Viridis has no red; the marker is 0xe02020 (its edges blend, so "red enough" counts).
        const auto reds = [](const QImage& image) {
            int red = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    red += c.red() > 180 && c.green() < 90 && c.blue() < 90;
                }
            return red;
        };
        QCOMPARE(reds(image), 0);
        QVERIFY(reds(plot->toPixmap(900, 400).toImage()) > 0); // on screen it is drawn
        QCOMPARE(w.selectedCell(), w.cellOf(*w.selectedSequence()));
    }

    void otherShapes_data()
    {
        QTest::addColumn<int>("decisions");
        QTest::addColumn<int>("actions");
        QTest::addColumn<QSize>("size");
        QTest::newRow("k1 n+1=2") << 1 << 2 << QSize(2, 1);
        QTest::newRow("k2 n+1=3") << 2 << 3 << QSize(3, 3);
        QTest::newRow("k3 n+1=6") << 3 << 6 << QSize(36, 6);
        QTest::newRow("k4 n+1=5") << 4 << 5 << QSize(25, 25);
        QTest::newRow("k4 n+1=6") << 4 << 6 << QSize(36, 36);
    }

    void otherShapes()
    {
        QFETCH(int, decisions);
        QFETCH(int, actions);
        QFETCH(QSize, size);
        std::vector<int> best(static_cast<std::size_t>(decisions), actions - 1);
        best.front() = 0;
        const auto table = rlda::test::syntheticTable(decisions, actions, best);
        TableExplorer w;
        w.setTable(table, QStringLiteral("synthetic"));
        QCOMPARE(heatmapSize(w), size);
        QCOMPARE(static_cast<std::int64_t>(heatmapCellCount(w)), table.sequences());
        QCOMPARE(w.optimalCell(), w.cellOf(best));
        QCOMPARE(w.sequenceAt(w.cellOf(best)), best);
        QCOMPARE(w.sourceModel()->columnCount(), 2 * decisions + 4);
        for (const auto& row : table.rows()) {
            QCOMPARE(w.sequenceAt(w.cellOf(row.actions)), row.actions);
            QCOMPARE(*w.cellAccuracy(w.cellOf(row.actions)), row.accuracy);
        }
        tableView(w)->sortByColumn(w.sourceModel()->accuracyColumn(), Qt::DescendingOrder);
        QCOMPARE(proxyRank(w, 0), 1);
    }

    void partialTable()
    {
        const std::vector<int> best{1, 2, 0};
        const auto table = rlda::test::syntheticTable(3, 4, best, 5); // every 5th sequence missing
        QVERIFY(!table.complete());
        TableExplorer w;
        w.setTable(table, QStringLiteral("partial"));
        QCOMPARE(w.sourceModel()->rowCount(), static_cast<int>(table.rows().size()));
        QCOMPARE(heatmapCellCount(w), 64);
        int blank = 0;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 16; ++c) {
                const auto seq = w.sequenceAt({c, r});
                const bool present = table.find(seq) != nullptr;
                QCOMPARE(w.cellAccuracy({c, r}).has_value(), present);
                blank += present ? 0 : 1;
            }
        QCOMPARE(blank, 64 - static_cast<int>(table.rows().size()));
        QCOMPARE(w.optimalCell(), w.cellOf(best));
        // A click on a missing cell selects nothing.
        const auto missing = [&] {
            for (int c = 0; c < 16; ++c)
                if (!w.cellAccuracy({c, 0}))
                    return QPoint(c, 0);
            return QPoint(-1, -1);
        }();
        QVERIFY(missing.x() >= 0);
        Q_EMIT actionHeatmap(w)->cellClicked(missing);
        QVERIFY(!w.selectedSequence());
        QVERIFY(baselineText(w).contains(QStringLiteral("%1 of 64").arg(static_cast<int>(table.rows().size()))));

        w.clear();
        QCOMPARE(heatmapCellCount(w), 0);
        QCOMPARE(w.sourceModel()->rowCount(), 0);
        QCOMPARE(w.optimalCell(), QPoint(-1, -1));
    }

    // A table of deepen and widen actions names them: ConvNet's 4 blocks give 4 deepen, 3 widen
    // and Do Nothing, 8 actions a decision, in the sequences, the summary line and the map.
    void actionsOfSeveralOperationsAreNamed()
    {
        const rlda::core::model::ActionSpace space(
            4, {rlda::core::model::Operation::Deepen, rlda::core::model::Operation::Widen});
        QCOMPARE(space.size(), 8);
        const auto table = rlda::test::syntheticTable(2, 8, {5, 1});
        TableExplorer w;
        w.setTable(table, QStringLiteral("mixed"), space);
        QVERIFY2(baselineText(w).contains(QStringLiteral("optimal <b>w1 d1</b>")), qPrintable(baselineText(w)));
        QVERIFY(baselineText(w).contains(QStringLiteral("deepen or widen a block, or do nothing")));
        QVERIFY(baselineText(w).contains(QStringLiteral("no adaptation (- -)")));
        const auto* model = w.sourceModel();
        bool found = false;
        for (int r = 0; r < model->rowCount(); ++r)
            found = found || model->index(r, model->sequenceColumn()).data().toString() == QStringLiteral("w1 d1");
        QVERIFY(found);
        QCOMPARE(heatmapSize(w), QSize(8, 8));
        auto* plot = w.heatmap();
        auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot->xAxis->ticker());
        QCOMPARE(ticker->ticks().value(4), QStringLiteral("w0"));
        QCOMPARE(ticker->ticks().value(7), QStringLiteral("-"));
        QVERIFY(plot->xAxis->label().contains(QStringLiteral("w = widen")));
        // The paper's tables keep their numbers.
        w.setTable(s::SimulationTable::load(kEarly), QStringLiteral("convnet2_early"));
        QVERIFY(baselineText(w).contains(QStringLiteral("3 = do nothing")));

        const QString dir = rlda::test::screenshotDir();
        if (!dir.isEmpty()) {
            TableExplorer shot;
            shot.setTable(rlda::test::syntheticTable(3, 8, {5, 1, 0}), QStringLiteral("ConvNet, deepen and widen"),
                          space);
            shot.resize(1300, 700);
            shot.show();
            QVERIFY(QTest::qWaitForWindowExposed(&shot));
            shot.heatmap()->replot();
            QVERIFY(shot.grab().save(dir + QStringLiteral("/table_explorer_mixed.png")));
        }
    }

    void aReplicatedTableShowsItsSeeds()
    {
        // 3 seeds of a 1-decision table over 4 actions: actions 2 and 3 close at the top, 0 and 1
        // far below. The seeds' columns, the rank intervals, the best set on the map and the error
        // bars on the sorted chart come from one TableTrust.
        s::SimulationTable t(1, 4);
        t.set_seeds({42, 43, 44});
        const std::vector<std::vector<double>> seeds{{0.50, 0.52, 0.51}, {0.60, 0.61, 0.59}, {0.80, 0.70, 0.75}, {0.74, 0.78, 0.76}};
        for (int a = 0; a < 4; ++a)
            t.add({{a}, {5.0}, 10.0, (seeds[a][0] + seeds[a][1] + seeds[a][2]) / 3.0, seeds[a]});
        TableExplorer w;
        w.setTable(t, QStringLiteral("replicated"), std::nullopt, s::table_trust(t));
        auto* m = w.sourceModel();
        QVERIFY(m->hasSeedColumns());
        QCOMPARE(m->columnCount(), 2 * 1 + 4 + 3 + 3);
        QCOMPARE(m->headerData(m->seedColumn(1), Qt::Horizontal).toString(), QStringLiteral("seed 43"));
        QCOMPARE(m->index(2, m->seedColumn(0)).data(SimulationTableModel::SortRole).toDouble(), 0.80);
        QCOMPARE(m->index(0, m->sdColumn()).data().toString(), QStringLiteral("1.00"));
        QCOMPARE(m->headerData(m->bestShareColumn(), Qt::Horizontal).toString(), QStringLiteral("P(best)"));
        // Sequences 2 and 3 cannot be told apart; 0 and 1 are never the best.
        QVERIFY(m->index(2, 0).data(SimulationTableModel::BestSetRole).toBool());
        QVERIFY(m->index(3, 0).data(SimulationTableModel::BestSetRole).toBool());
        QVERIFY(!m->index(0, 0).data(SimulationTableModel::BestSetRole).toBool());
        QCOMPARE(m->index(0, m->rankIntervalColumn()).data().toString(), QStringLiteral("4–4"));
        QCOMPARE(w.bestSetCells().size(), std::size_t{2});
        QCOMPARE(w.optimalCell(), QPoint(-1, -1)); // no single star
        QVERIFY(hasErrorBars(w));
        QCOMPARE(seedGraphs(w), 3);
        QVERIFY2(baselineText(w).contains(QStringLiteral("reliability: one seed")) &&
                     baselineText(w).contains(
                         QStringLiteral("95 % confidence set for the best (☆): <b>2</b> of 4")) &&
                     baselineText(w).indexOf(QStringLiteral("do the 4 sequences differ? yes")) <
                         baselineText(w).indexOf(QStringLiteral("reliability: one seed")),
                 qPrintable(baselineText(w)));

        // One seed: the star, no seed columns, and the line that says how to know.
        TableExplorer single;
        single.setTable(s::SimulationTable::load(kEarly), QStringLiteral("convnet2_early"));
        QVERIFY(!single.sourceModel()->hasSeedColumns());
        QVERIFY(single.optimalCell() != QPoint(-1, -1));
        QVERIFY(!hasErrorBars(single));
        QVERIFY(baselineText(single).contains(QStringLiteral("reliability: unknown for a table of one seed")));

        const QString dir = rlda::test::screenshotDir();
        if (!dir.isEmpty()) {
            QDir().mkpath(dir);
            w.resize(1300, 520);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.grab().save(dir + QStringLiteral("/table_explorer_replicated.png")));
            w.findChild<QTabWidget*>(QStringLiteral("tableViews"))->setCurrentIndex(1);
            w.findChild<SortedAccuracyChart*>()->plot()->replot();
            QVERIFY(w.grab().save(dir + QStringLiteral("/table_explorer_replicated_sorted.png")));
        }
    }

    // RLDA_SCREENSHOT_DIR=DIR writes what the explorer looks like with the reference table.
    void screenshot()
    {
        const QString dir = rlda::test::screenshotDir();
        if (dir.isEmpty())
            QSKIP("set RLDA_SCREENSHOT_DIR=DIR to write a screenshot");
        QDir().mkpath(dir);
        TableExplorer w;
        w.setTable(s::SimulationTable::load(kEarly), QStringLiteral("convnet2_early"));
        w.resize(1300, 620);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        Q_EMIT actionHeatmap(w)->cellClicked(w.cellOf({2, 1, 3}));
        w.heatmap()->replot();
        QVERIFY(w.grab().save(dir + QStringLiteral("/table_explorer.png")));

        TableExplorer p;
        p.setTable(rlda::test::syntheticTable(4, 6, {0, 5, 5, 5}, 7), QStringLiteral("synthetic k=4, 6 actions, partial"));
        p.resize(1300, 800);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.heatmap()->replot();
        QVERIFY(p.grab().save(dir + QStringLiteral("/table_explorer_k4.png")));
    }
};

RLDA_SUITE_MAIN(TestTableExplorer)
#include "test_table_explorer.moc"
