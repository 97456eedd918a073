// Rank charts on the reference tables: bars best to worst, the greedy bar at position rank, baselines
// at their values, ties counted as SimulationTable::rank() counts them, grids with one legend.
#include "widgets/figures/rank_chart.h"

#include "tests/common/suite.h"
#include "tests/widgets/figures/reference_tables.h"

#include "tests/common/screenshots.h"
#include "widgets/qcp.h"

#include <QTest>

using namespace rlda;
using rlda::widgets::RankedTable;

namespace {

const QString tables = QStringLiteral(RLDA_PAPER_DIR "/tables/");

using test::evaluationFor;

RankedTable reference(const QString& file, const QString& model, const QString& scenario,
                      const std::vector<int>& greedy)
{
    const auto t = core::sim::SimulationTable::load((tables + file).toStdString());
    return widgets::makeRankedTable(model, scenario, QStringLiteral("test"), t, evaluationFor(t, greedy));
}

} // namespace

class TestRankChart : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void greedyBarSitsAtItsRank()
    {
        for (const std::vector<int>& greedy : {std::vector<int>{2, 0, 3}, {0, 0, 0}, {3, 3, 3}, {1, 2, 1}}) {
            const RankedTable t = reference(QStringLiteral("convnet2_middle.csv"), "ConvNet2", "middle", greedy);
            QCustomPlot plot;
            const auto parts = widgets::drawRankChart(plot, t);
            QVERIFY(parts.greedy);
            QCOMPARE(parts.greedy->data()->size(), 1);
            // Keys are 1-based positions: the greedy bar's index is rank - 1.
            QCOMPARE(parts.greedy->data()->at(0)->key, double(t.evaluation.rank));
            QCOMPARE(parts.greedy->data()->at(0)->value, t.evaluation.accuracy);
            QCOMPARE(parts.sequences->data()->size(), 63);

            // All 64 bars together: every position once, accuracies never rising.
            std::vector<std::pair<double, double>> bars;
            for (auto it = parts.sequences->data()->constBegin(); it != parts.sequences->data()->constEnd(); ++it)
                bars.emplace_back(it->key, it->value);
            bars.emplace_back(parts.greedy->data()->at(0)->key, parts.greedy->data()->at(0)->value);
            std::sort(bars.begin(), bars.end());
            for (std::size_t i = 0; i < bars.size(); ++i) {
                QCOMPARE(bars[i].first, double(i + 1));
                if (i > 0)
                    QVERIFY(bars[i].second <= bars[i - 1].second);
            }
            QCOMPARE(parts.greedyText->text(),
                     QStringLiteral("greedy %1 — rank %2/64")
                         .arg(QString::fromStdString(core::sim::sequence_string(greedy)))
                         .arg(t.evaluation.rank));
        }
    }

    // A replicated table: every bar carries ± the sd of its seeds, and the label the rank's interval.
    void aReplicatedTableHasErrorBarsAndARankInterval()
    {
        const std::vector<int> greedy{2, 0, 3};
        const RankedTable t = test::replicatedReferenceTable("ConvNet2", "middle", greedy);
        QCOMPARE(t.evaluation.replicates, 3);
        QVERIFY(t.evaluation.reliability.known());
        QCustomPlot plot;
        const auto parts = widgets::drawRankChart(plot, t);
        QVERIFY(parts.sequencesSpread && parts.greedySpread);
        QCOMPARE(parts.sequencesSpread->dataCount(), 63);
        QCOMPARE(parts.sequencesSpread->dataPlottable(), parts.sequences);
        QCOMPARE(parts.greedySpread->dataCount(), 1);
        // Each bar's error is its row's sd over the seeds: -0.01, 0 and +0.01 make it 0.01.
        for (int i = 0; i < 63; ++i) {
            const double err = parts.sequencesSpread->data()->at(i).errorPlus;
            QVERIFY2(std::abs(err - 0.01) < 1e-9, qPrintable(QString::number(err)));
        }
        QCOMPARE(parts.greedySpread->data()->at(0).errorPlus, widgets::seedSpread(t, greedy));
        const auto& e = t.evaluation;
        QVERIFY(e.greedy_spread.low <= e.rank && e.rank <= e.greedy_spread.high);
        QCOMPARE(parts.greedyText->text(), QStringLiteral("greedy 2 0 3 — rank %1/64 (95 %: %2–%3)")
                                               .arg(e.rank)
                                               .arg(e.greedy_spread.low)
                                               .arg(e.greedy_spread.high));
        // One seed: no error bars, no interval.
        const RankedTable single = reference(QStringLiteral("convnet2_middle.csv"), "ConvNet2", "middle", greedy);
        QCustomPlot plain;
        const auto none = widgets::drawRankChart(plain, single);
        QVERIFY(!none.sequencesSpread && !none.greedySpread);
        QVERIFY(!none.greedyText->text().contains(QStringLiteral("95 %")));
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty()) {
            plot.resize(900, 420);
            plot.replot();
            QVERIFY(plot.savePng(shots + QStringLiteral("/rank_chart_replicated.png"), 900, 420));
        }
    }

    void baselinesAtTheirValues()
    {
        const RankedTable t = reference(QStringLiteral("convnet3_early.csv"), "ConvNet3", "early", {2, 0, 3});
        QCustomPlot plot;
        const auto parts = widgets::drawRankChart(plot, t);
        const auto& e = t.evaluation;
        for (auto [graph, value] : {std::pair{parts.optimal, e.optimal}, std::pair{parts.noAdaptation, e.no_adaptation},
                                    std::pair{parts.randomMean, e.random_mean}}) {
            QVERIFY(graph);
            QCOMPARE(graph->data()->size(), 2);
            QCOMPARE(graph->data()->at(0)->value, value);
            QCOMPARE(graph->data()->at(1)->value, value);
            QCOMPARE(graph->data()->at(0)->key, 0.5); // across every bar
            QCOMPARE(graph->data()->at(1)->key, 64.5);
        }
        // The optimal line touches the best bar.
        const bool greedyBest = parts.greedy->data()->at(0)->key == 1.0;
        QCOMPARE(greedyBest ? parts.greedy->data()->at(0)->value : parts.sequences->data()->at(0)->value, e.optimal);
        // Values in the legend, all five series there, everything inside the value range.
        QVERIFY(parts.legend);
        QCOMPARE(parts.legend->itemCount(), 5);
        QVERIFY(parts.optimal->name().contains(QString::number(e.optimal, 'f', 4)));
        const auto range = parts.rect->axis(QCPAxis::atLeft)->range();
        for (double v : {e.optimal, e.no_adaptation, e.random_mean, e.accuracy})
            QVERIFY(range.contains(v));
        QCOMPARE(parts.rect->axis(QCPAxis::atBottom)->label(), QStringLiteral("sequences, best to worst"));
        QCOMPARE(parts.rect->axis(QCPAxis::atLeft)->label(), QStringLiteral("final test accuracy"));
    }

    void tiesPutTheGreedySequenceFirst()
    {
        std::vector<core::sim::TableRow> rows{{{0}, {1}, 1, 0.5}, {{1}, {1}, 1, 0.7}, {{2}, {1}, 1, 0.7}};
        QCOMPARE(widgets::rankOrder(rows), (std::vector<int>{1, 2, 0}));
        QCOMPARE(widgets::rankOrder(rows, {2}), (std::vector<int>{2, 1, 0}));
        QCOMPARE(widgets::rankOrder(rows, {0}), (std::vector<int>{1, 2, 0}));

        RankedTable t{"M", "s", {}, rows, {}};
        t.evaluation.greedy = {2};
        t.evaluation.rank = 1; // shares rank 1 with {1}
        t.evaluation.sequences = 3;
        QCustomPlot plot;
        const auto parts = widgets::drawRankChart(plot, t);
        QCOMPARE(parts.greedy->data()->at(0)->key, 1.0);
    }

    void greedyMissingFromAPartialTable()
    {
        RankedTable t{"M", "s", {}, {{{0}, {1}, 1, 0.5}, {{1}, {1}, 1, 0.7}}, {}};
        t.evaluation.greedy = {2};
        QCustomPlot plot;
        const auto parts = widgets::drawRankChart(plot, t);
        QVERIFY(!parts.greedy);
        QCOMPARE(parts.sequences->data()->size(), 2);
        QVERIFY(parts.greedyText->text().contains(QStringLiteral("not in the table")));
    }

    void gridOfScenarios()
    {
        std::vector<RankedTable> all;
        for (const auto* s : {"early", "early_middle", "middle", "middle_late", "late"})
            all.push_back(reference(QStringLiteral("convnet2_%1.csv").arg(s), "ConvNet2", s, {0, 1, 3}));
        QCustomPlot plot;
        const auto parts = widgets::drawRankGrid(plot, all, QStringLiteral("ConvNet2"));
        QCOMPARE(parts.size(), std::size_t(5));
        QCOMPARE(plot.axisRectCount(), 5);
        for (std::size_t i = 0; i < parts.size(); ++i) {
            QCOMPARE(parts[i].greedy->data()->at(0)->key, double(all[i].evaluation.rank));
            QCOMPARE(parts[i].legend, parts[0].legend);
        }
        QCOMPARE(parts[0].legend->itemCount(), 5); // one shared legend, one entry per kind of series
        // Axis titles once per column (left) and per column's bottom chart.
        // Rows of small charts stack their y titles: the short one keeps them from running together.
        QCOMPARE(parts[0].rect->axis(QCPAxis::atLeft)->label(), QStringLiteral("accuracy"));
        QVERIFY(parts[1].rect->axis(QCPAxis::atLeft)->label().isEmpty());
        QVERIFY(parts[0].rect->axis(QCPAxis::atBottom)->label().isEmpty());
        QVERIFY(!parts[2].rect->axis(QCPAxis::atBottom)->label().isEmpty()); // nothing below it
        QVERIFY(!parts[4].rect->axis(QCPAxis::atBottom)->label().isEmpty());

        // Redrawing the same plot replaces everything.
        widgets::drawRankGrid(plot, {all[0]}, QStringLiteral("one"));
        QCOMPARE(plot.axisRectCount(), 1);
        QCOMPARE(plot.plottableCount(), 5);
        const QPixmap pixmap = plot.toPixmap(1200, 700);
        QVERIFY(!pixmap.isNull());
    }

    void labels()
    {
        core::sim::Evaluation e;
        e.greedy = {2, 0, 3};
        e.rank = 5;
        e.sequences = 64;
        QCOMPARE(widgets::greedyLabel(e), QStringLiteral("greedy 2 0 3 — rank 5/64"));
        RankedTable t{"ConvNet2", "early", "c2", {}, e};
        QCOMPARE(t.title(), QStringLiteral("ConvNet2 early · c2"));
        QCOMPARE(t.title(false), QStringLiteral("ConvNet2 early"));
    }
};

RLDA_SUITE_MAIN(TestRankChart)
#include "test_rank_chart.moc"
