// The paper's figures as files: every figure in PNG, PDF and SVG with valid headers, the learning
// curve reader (a killed run's cut line skipped), the rolling mean, and the errors.
#include "tests/common/suite.h"
#include "tests/common/text_file.h"
#include "widgets/figures/paper_figures.h"

#include "tests/widgets/figures/reference_tables.h"

#include "tests/common/screenshots.h"
#include "widgets/qcp.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QXmlStreamReader>

#include <cmath>

using namespace rlda;

using rlda::test::file_head;

namespace {

widgets::RankedTable reference(const QString& model, const QString& scenario, const std::vector<int>& greedy)
{
    return test::referenceTable(model, scenario, greedy, QStringLiteral("agent"));
}

// A deterministic, noisy, improving learning curve.
widgets::LearningCurve curve(const QString& name, int episodes, double temperatureJumpAt = -1)
{
    widgets::LearningCurve c;
    c.name = name;
    for (int i = 1; i <= episodes; ++i) {
        c.episode.push_back(i);
        c.objective.push_back(300 - 0.2 * i + 80 * std::sin(i * 1.7));
        c.accuracy.push_back(0.6 + 0.1 * i / episodes + 0.03 * std::sin(i * 2.3));
        c.temperature.push_back(temperatureJumpAt > 0 && i >= temperatureJumpAt ? 10.0 : 1.0);
    }
    return c;
}

widgets::FigureInputs inputs()
{
    widgets::FigureInputs in;
    in.curves = {curve("c2_early", 600), curve("curriculum", 900, 450)};
    in.window = 50;
    for (const auto* s : {"early", "middle", "late"})
        in.tables.push_back(reference("ConvNet2", s, {0, 1, 3}));
    for (const auto* s : {"early", "early_middle", "middle", "middle_late", "late"})
        in.tables.push_back(reference("ConvNet3", s, {2, 0, 3}));
    return in;
}

} // namespace

class TestPaperFigures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFigureInEveryFormat()
    {
        QTemporaryDir dir;
        QString error = QStringLiteral("unset");
        const QStringList files = widgets::renderPaperFigures(inputs(), dir.filePath("figs"), {"png", "pdf", "svg"},
                                                              {QSize(1200, 700), 100}, &error);
        QCOMPARE(error, QString());
        const QStringList names{"fig07_objective", "fig08_accuracy", "fig09_runs", "fig10_ranks_ConvNet2",
                                "fig11_ranks_ConvNet3", "fig12_accuracy"};
        QCOMPARE(files.size(), names.size() * 3);
        for (const auto& name : names) {
            const QString base = dir.filePath("figs/") + name;
            QVERIFY2(files.contains(base + ".png"), qPrintable(name));
            QCOMPARE(file_head(base + ".png", 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
            QCOMPARE(file_head(base + ".pdf", 4), QByteArray("%PDF"));
            QFile svg(base + ".svg");
            QVERIFY(svg.open(QIODevice::ReadOnly));
            QXmlStreamReader xml(&svg);
            bool root = false;
            while (!xml.atEnd())
                if (xml.readNext() == QXmlStreamReader::StartElement && !root) {
                    root = true;
                    QCOMPARE(xml.name().toString(), QStringLiteral("svg"));
                }
            QVERIFY2(!xml.hasError(), qPrintable(name + ": " + xml.errorString()));
            QVERIFY(root);
            // PNG at 100 DPI: exactly the pixels asked for, marked with its resolution.
            const QImage image(base + ".png");
            QCOMPARE(image.size(), QSize(1200, 700));
            QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 100);
        }
    }

    // The resolution marks a PNG and changes none of its pixels: laid out at 96 DPI and drawn at
    // 300, a figure's titles and legend would outgrow the room the layout left them.
    void theResolutionMarksThePixelsItDoesNotMove()
    {
        QTemporaryDir dir;
        QString error;
        const auto low = widgets::renderPaperFigures(inputs(), dir.filePath("low"), {"png"}, {QSize(900, 500), 96}, &error);
        const auto high = widgets::renderPaperFigures(inputs(), dir.filePath("high"), {"png"}, {QSize(900, 500), 300}, &error);
        QCOMPARE(error, QString());
        QCOMPARE(low.size(), high.size());
        for (qsizetype i = 0; i < low.size(); ++i) {
            const QImage a(low[i]);
            const QImage b(high[i]);
            QCOMPARE(qRound(b.dotsPerMeterX() * 0.0254), 300);
            QVERIFY2(a.convertToFormat(QImage::Format_ARGB32) == b.convertToFormat(QImage::Format_ARGB32),
                     qPrintable(low[i]));
        }
    }

    void figuresNeedTheirInputs()
    {
        widgets::FigureInputs onlyTables;
        onlyTables.tables = {reference("ConvNet3", "late", {1, 1, 1})};
        const auto figures = widgets::paperFigures(onlyTables);
        QCOMPARE(figures.size(), std::size_t(2));
        QCOMPARE(figures[0].file, QStringLiteral("fig10_ranks_ConvNet3")); // the first model given: fig 10
        QCOMPARE(figures[1].paper, 12);

        widgets::FigureInputs onlyCurves;
        onlyCurves.curves = {curve("run", 100)};
        QCOMPARE(widgets::paperFigures(onlyCurves).size(), std::size_t(3));

        QTemporaryDir dir;
        QString error;
        QVERIFY(widgets::renderPaperFigures({}, dir.path(), {"png"}, {}, &error).isEmpty());
        QVERIFY(error.contains("nothing to draw"));
        QVERIFY(widgets::renderPaperFigures(onlyCurves, dir.path(), {"png", "gif"}, {}, &error).isEmpty());
        QVERIFY(error.contains("'gif'"));
        QVERIFY(widgets::renderPaperFigures(onlyCurves, dir.path(), {"png"}, {QSize(4, 4), 96}, &error).isEmpty());
        QVERIFY(error.contains("fig07_objective.png"));
    }

    void drawnSeries()
    {
        const auto in = inputs();
        QCustomPlot plot;
        widgets::drawLearningCurves(plot, in.curves, widgets::CurveMetric::Accuracy, 50, "t");
        QCOMPARE(plot.graphCount(), 4); // every episode + rolling mean, per run
        QCOMPARE(plot.graph(1)->data()->size(), 600);
        QCOMPARE(plot.graph(1)->data()->at(599)->value, widgets::rollingMeans(in.curves[0].accuracy, 50)[599]);
        QCOMPARE(plot.itemCount(), 1); // the curriculum run's stage line

        widgets::drawAccuracyBars(plot, in.tables, "t");
        QCOMPARE(plot.plottableCount(), 4); // greedy, optimal, no adaptation, random mean
        auto* greedy = qobject_cast<QCPBars*>(plot.plottable(0));
        QVERIFY(greedy);
        QCOMPARE(greedy->data()->size(), 8);
        QCOMPARE(greedy->data()->at(0)->value, in.tables[0].evaluation.accuracy);
        QCOMPARE(plot.itemCount(), 8); // a rank above every greedy bar
        auto* rank = qobject_cast<QCPItemText*>(plot.item(7));
        QVERIFY(rank && rank->text().contains(QString::number(in.tables[7].evaluation.rank)));
    }

    // Fig. 12 on replicated tables: the greedy, optimal and no-adaptation bars carry ± the sd of
    // their seeds; the random mean, a mean over sequences, carries none.
    void accuracyBarsOfReplicatedTables()
    {
        std::vector<widgets::RankedTable> tables;
        for (const auto* s : {"early", "middle", "late"})
            tables.push_back(test::replicatedReferenceTable("ConvNet2", s, {0, 1, 3}));
        QCustomPlot plot;
        widgets::drawAccuracyBars(plot, tables, "t");
        QCOMPARE(plot.plottableCount(), 7); // 4 series of bars, 3 of error bars
        int errorBars = 0;
        for (int i = 0; i < plot.plottableCount(); ++i)
            if (auto* e = qobject_cast<QCPErrorBars*>(plot.plottable(i))) {
                ++errorBars;
                QCOMPARE(e->dataCount(), 3);
                for (int k = 0; k < 3; ++k)
                    QVERIFY(std::abs(e->data()->at(k).errorPlus - 0.01) < 1e-9);
            }
        QCOMPARE(errorBars, 3);
    }

    // Issue 43, item 5: a greedy sequence of rank 1 lost its rank label (cut off above the chart),
    // and the whiskers were clipped at the top. Every whisker lies inside the value axis, and every
    // rank label inside the chart, at the size shown and at an export's.
    void accuracyBarsOfARankOneGreedy()
    {
        std::vector<widgets::RankedTable> tables;
        for (const auto* s : {"early", "middle", "late"}) {
            const auto probe = test::replicatedReferenceTable("ConvNet2", s, {0, 1, 3});
            tables.push_back(
                test::replicatedReferenceTable("ConvNet2", s, probe.evaluation.optimal_sequence));
            QCOMPARE(tables.back().evaluation.rank, 1);
        }
        QCustomPlot plot;
        widgets::drawAccuracyBars(plot, tables,
                                  "Figure 12 — the greedy sequence of rank 1 against the baselines");
        const QCPRange range = plot.axisRect()->axis(QCPAxis::atLeft)->range();
        for (int i = 0; i < plot.plottableCount(); ++i)
            if (auto* e = qobject_cast<QCPErrorBars*>(plot.plottable(i)))
                for (int k = 0; k < e->dataCount(); ++k) {
                    auto* bars = qobject_cast<QCPBars*>(e->dataPlottable());
                    QVERIFY(bars->data()->at(k)->value + e->data()->at(k).errorPlus < range.upper);
                }
        for (const QSize size : {QSize(900, 420), QSize(600, 300)}) {
            plot.resize(size);
            plot.replot();
            const QRect chart = plot.axisRect()->rect();
            for (int i = 0; i < plot.itemCount(); ++i) {
                auto* label = qobject_cast<QCPItemText*>(plot.item(i));
                QVERIFY(label && label->text().startsWith("rank 1"));
                QVERIFY2(label->topLeft->pixelPosition().y() >= chart.top() - 0.5,
                         qPrintable(QStringLiteral("%1 px above the chart at %2x%3")
                                        .arg(chart.top() - label->topLeft->pixelPosition().y())
                                        .arg(size.width())
                                        .arg(size.height())));
            }
        }
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty())
            QVERIFY(plot.savePng(shots + QStringLiteral("/fig12_replicated.png"), 900, 420));
    }

    void rollingMeanAndStages()
    {
        const auto m = widgets::rollingMeans({1, 2, 3, 4, 5, 6}, 3);
        QCOMPARE(m, (std::vector<double>{1, 1.5, 2, 3, 4, 5}));
        QCOMPARE(widgets::rollingMeans({}, 75).size(), std::size_t(0));
        QCOMPARE(widgets::stageStarts(curve("c", 10, 6)), std::vector<double>{6});
    }

    void readsARunFolder()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("run7/metrics"));
        QFile f(dir.filePath("run7/metrics/episodes.csv"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("episode,time,objective,accuracy,reward,lr,temperature,actions,probabilities\n"
                "1,0.01,250.5,0.61,180,0.0001,1,0 1 3,0.2 0.3 0.1 0.4 | 0.25 0.25 0.25 0.25 | 0.1 0.2 0.3 0.4\n"
                "2,0.02,240,0.65,190,0.0001,1,3 3 3,0.2 0.3 0.1 0.4 | 0.25 0.25 0.25 0.25 | 0.1 0.2 0.3 0.4\n"
                "3,0.03,23"); // killed mid-line
        f.close();
        QString error;
        const auto c = widgets::loadLearningCurve(dir.filePath("run7"), &error);
        QVERIFY2(c, qPrintable(error));
        QCOMPARE(c->name, QStringLiteral("run7"));
        QCOMPARE(c->episode, (std::vector<double>{1, 2}));
        QCOMPARE(c->objective, (std::vector<double>{250.5, 240}));
        QCOMPARE(c->accuracy, (std::vector<double>{0.61, 0.65}));
        QCOMPARE(c->temperature, (std::vector<double>{1, 1}));

        QVERIFY(!widgets::loadLearningCurve(dir.path(), &error));
        QVERIFY(error.contains(dir.path()));
        QVERIFY(error.contains("metrics/episodes.csv"));
    }
};

RLDA_SUITE_MAIN(TestPaperFigures)
#include "test_paper_figures.moc"
