// SeriesPlot mechanics: exact EMA, min/max decimation, batched replots, markers, image and CSV export.
#include "tests/common/suite.h"
#include "tests/common/text_file.h"
#include "tests/widgets/plot/plot_reading.h"
#include "widgets/plot/series_plot.h"
#include "widgets/qcp.h"

#include <QFile>
#include <QSignalSpy>
#include <QTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

using rlda::widgets::ExportSettings;
using rlda::widgets::MarkerKind;
using rlda::widgets::SeriesPlot;
using plot_reading::markerLabels;
using plot_reading::smoothedValues;

using rlda::test::file_head;

namespace {

QCPGraph* graphNamed(QCustomPlot* plot, const QString& name)
{
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == name)
            return plot->graph(i);
    return nullptr;
}

} // namespace

class TestSeriesPlot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emaIsExactAndOnFullResolution();
    void decimationKeepsPeaksAndBoundsPoints();
    void zoomShowsRawPointsAndFitFollowsAgain();
    void appendsAreBatchedIntoOneReplot();
    void markersMergeOnlyOnTheSameSide();
    void axesAndCrosshairText();
    void exportsPngPdfSvg();
    void exportsCsvAtFullResolution();
    void nonFiniteValuesAreDropped();
};

void TestSeriesPlot::emaIsExactAndOnFullResolution()
{
    SeriesPlot p;
    p.addSeries(QStringLiteral("a"), QStringLiteral("v"), Qt::blue);
    for (int i = 0; i < 4; ++i)
        p.append(QStringLiteral("a"), i, i + 1.0); // 1 2 3 4
    QCOMPARE(smoothedValues(p, QStringLiteral("a")), (std::vector<double>{1, 2, 3, 4}));
    p.setSmoothing(0.5);
    QCOMPARE(smoothedValues(p, QStringLiteral("a")), (std::vector<double>{1, 1.5, 2.25, 3.125}));
    p.append(QStringLiteral("a"), 4, 5.0); // incremental: 0.5*5 + 0.5*3.125
    QCOMPARE(smoothedValues(p, QStringLiteral("a")).back(), 4.0625);
    QCOMPARE(p.values(QStringLiteral("a")), (std::vector<double>{1, 2, 3, 4, 5}));

    // A non-smoothable series (a step quantity) is left alone.
    rlda::widgets::SeriesStyle steps;
    steps.smoothable = false;
    p.addSeries(QStringLiteral("lr"), QStringLiteral("lr"), Qt::gray, {}, steps);
    p.append(QStringLiteral("lr"), 0, 1.0);
    p.append(QStringLiteral("lr"), 1, 0.0);
    QCOMPARE(smoothedValues(p, QStringLiteral("lr")), (std::vector<double>{1, 0}));

    // Smoothing runs on every point, whatever the display keeps.
    for (int i = 5; i < 20000; ++i)
        p.append(QStringLiteral("a"), i, (i % 2) ? 1.0 : 0.0);
    p.flush();
    QCOMPARE(int(smoothedValues(p, QStringLiteral("a")).size()), 20000);
    QVERIFY(p.displayedPointCount(QStringLiteral("a")) < 20000);
    p.setSmoothing(0.0);
    QCOMPARE(smoothedValues(p, QStringLiteral("a")), p.values(QStringLiteral("a")));
}

void TestSeriesPlot::decimationKeepsPeaksAndBoundsPoints()
{
    SeriesPlot p;
    p.resize(700, 450);
    p.show();
    QVERIFY(QTest::qWaitForWindowExposed(&p));
    p.plot()->replot(); // QCustomPlot lays its axis rect out when it draws
    p.addSeries(QStringLiteral("s"), QStringLiteral("v"), Qt::red, QStringLiteral("signal"));
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        double y = std::sin(i * 0.001);
        if (i == 54321)
            y = 100.0;
        if (i == 77777)
            y = -100.0;
        p.append(QStringLiteral("s"), i * 0.1, y);
    }
    p.flush();
    const int px = p.plot()->axisRect()->width();
    QVERIFY2(px > 200, qPrintable(QStringLiteral("px %1 plot %2x%3 self %4").arg(px).arg(p.plot()->width()).arg(p.plot()->height()).arg(p.width())));
    QCOMPARE(p.pointCount(QStringLiteral("s")), n);
    const int shown = p.displayedPointCount(QStringLiteral("s"));
    QVERIFY2(shown <= 2 * px + 4, qPrintable(QStringLiteral("%1 shown for %2 px").arg(shown).arg(px)));
    QVERIFY(shown >= px / 2); // blocks of 2^k points: between px/2 and px of them, 1 or 2 points each
    QCPGraph* g = graphNamed(p.plot(), QStringLiteral("signal"));
    QVERIFY(g);
    QCOMPARE(g->dataCount(), shown);
    bool found = false;
    const QCPRange r = g->getValueRange(found);
    QVERIFY(found);
    QCOMPARE(r.upper, 100.0);
    QCOMPARE(r.lower, -100.0);
    // Built at once or point by point, the display is the same.
    std::vector<double> xs;
    const std::vector<double> ys = p.values(QStringLiteral("s"));
    for (int i = 0; i < n; ++i)
        xs.push_back(i * 0.1);
    p.addSeries(QStringLiteral("t"), QStringLiteral("v"), Qt::blue, QStringLiteral("copy"));
    p.setSeriesData(QStringLiteral("t"), xs, ys);
    p.flush();
    QCOMPARE(p.displayedPointCount(QStringLiteral("t")), p.displayedPointCount(QStringLiteral("s")));
    // Following: the axes cover the data, peaks included.
    QVERIFY(p.plot()->xAxis->range().contains(0.0));
    QVERIFY(p.plot()->xAxis->range().contains((n - 1) * 0.1));
    QVERIFY(p.axis(QStringLiteral("v"))->range().contains(100.0));
}

void TestSeriesPlot::zoomShowsRawPointsAndFitFollowsAgain()
{
    SeriesPlot p;
    p.resize(700, 450);
    p.show();
    QVERIFY(QTest::qWaitForWindowExposed(&p));
    p.plot()->replot(); // QCustomPlot lays its axis rect out when it draws
    p.addSeries(QStringLiteral("s"), QStringLiteral("v"), Qt::red);
    for (int i = 0; i < 50000; ++i)
        p.append(QStringLiteral("s"), i, i % 7);
    p.flush();
    QVERIFY(p.following());
    p.plot()->xAxis->setRange(1000, 1100); // what a wheel zoom does
    QVERIFY(!p.following());
    p.flush();
    // 101 points in view, one either side: below the threshold, so all of them, undecimated.
    QCOMPARE(p.displayedPointCount(QStringLiteral("s")), 103);
    p.append(QStringLiteral("s"), 50000, 3);
    p.flush();
    QCOMPARE(p.plot()->xAxis->range().upper, 1100.0); // not following while zoomed in
    p.fitAll();
    QVERIFY(p.following());
    QVERIFY(p.plot()->xAxis->range().contains(50000));
}

void TestSeriesPlot::appendsAreBatchedIntoOneReplot()
{
    SeriesPlot p;
    p.addSeries(QStringLiteral("a"), QStringLiteral("v"), Qt::blue);
    p.addSeries(QStringLiteral("b"), QStringLiteral("w"), Qt::green);
    p.flush();
    // Every refresh but flush()'s comes from this timer firing.
    auto* timer = p.findChild<QTimer*>(QStringLiteral("refreshTimer"));
    QVERIFY(timer);
    QVERIFY(!timer->isActive());
    QSignalSpy refreshes(timer, &QTimer::timeout);
    for (int i = 0; i < 10000; ++i) {
        p.append(QStringLiteral("a"), i, i);
        p.append(QStringLiteral("b"), i, -i);
    }
    QCOMPARE(refreshes.count(), 0); // nothing drawn per sample
    QVERIFY(timer->isActive());     // one replot scheduled for all 20,000
    QTRY_VERIFY_WITH_TIMEOUT(refreshes.count() > 0, 1000);
    QCOMPARE(refreshes.count(), 1);
    QVERIFY(!timer->isActive()); // and nothing more to come
    QCOMPARE(p.pointCount(QStringLiteral("a")), 10000);
}

void TestSeriesPlot::markersMergeOnlyOnTheSameSide()
{
    SeriesPlot p;
    p.addSeries(QStringLiteral("a"), QStringLiteral("v"), Qt::blue);
    p.addMarker(10, QStringLiteral("up"), MarkerKind::AllocationUp);
    p.addMarker(10, QStringLiteral("deepen 2"), MarkerKind::Adaptation); // other side of the line
    p.addMarker(10, QStringLiteral("deepen 0"), MarkerKind::Adaptation); // same side, same x
    p.addMarker(20, QStringLiteral("down"), MarkerKind::AllocationDown);
    p.addMarker(30, QStringLiteral("do nothing"), MarkerKind::DidNothing);
    QCOMPARE(p.markerCount(), 4);
    QCOMPARE(markerLabels(p),
             (QStringList{QStringLiteral("up"), QStringLiteral("deepen 2, deepen 0"), QStringLiteral("down"),
                          QStringLiteral("do nothing")}));
    p.flush();
    QVERIFY(p.plot()->xAxis->range().contains(30)); // markers count when fitting
    p.clearData();
    QCOMPARE(p.markerCount(), 0);
}

void TestSeriesPlot::axesAndCrosshairText()
{
    SeriesPlot p;
    p.setXAxisTitle(QStringLiteral("time (s)"));
    p.addAxis(QStringLiteral("accuracy"), QStringLiteral("accuracy"));
    p.addAxis(QStringLiteral("loss"), QStringLiteral("loss"), rlda::widgets::AxisSide::Right);
    p.addAxis(QStringLiteral("lr"), QStringLiteral("learning rate"), rlda::widgets::AxisSide::Right);
    p.addSeries(QStringLiteral("acc"), QStringLiteral("accuracy"), Qt::blue, QStringLiteral("test accuracy"));
    p.addSeries(QStringLiteral("loss"), QStringLiteral("loss"), Qt::red, QStringLiteral("loss"));
    p.addSeries(QStringLiteral("new"), QStringLiteral("other"), Qt::black); // axis made on demand
    // These four value axes and no other; the one made on demand is titled by its id.
    const QList<QCPAxis*> valueAxes = p.plot()->axisRect()->axes(QCPAxis::atLeft | QCPAxis::atRight);
    QCOMPARE(valueAxes.size(), 4);
    for (const char* id : {"accuracy", "loss", "lr", "other"})
        QVERIFY2(valueAxes.contains(p.axis(QString::fromLatin1(id))), id);
    QCOMPARE(p.axis(QStringLiteral("lr"))->label(), QStringLiteral("learning rate"));
    QCOMPARE(p.axis(QStringLiteral("other"))->label(), QStringLiteral("other"));
    QVERIFY(p.axis(QStringLiteral("lr")) != p.axis(QStringLiteral("loss")));
    QCOMPARE(p.axis(QStringLiteral("lr"))->axisType(), QCPAxis::atRight);
    QCOMPARE(p.xAxisTitle(), QStringLiteral("time (s)"));

    p.append(QStringLiteral("acc"), 1, 0.5);
    p.append(QStringLiteral("acc"), 2, 0.75);
    p.append(QStringLiteral("loss"), 1, 2.0);
    const QString text = p.valuesAt(1.9);
    QVERIFY2(text.contains(QStringLiteral("test accuracy: 0.75")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("loss: 2")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("new:")), qPrintable(text)); // no data, no line
    p.setSeriesVisible(QStringLiteral("loss"), false);
    QVERIFY(!p.valuesAt(1.9).contains(QStringLiteral("loss")));
}

void TestSeriesPlot::exportsPngPdfSvg()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SeriesPlot p;
    p.setXAxisTitle(QStringLiteral("episode"));
    p.addSeries(QStringLiteral("a"), QStringLiteral("v"), Qt::blue);
    for (int i = 0; i < 5000; ++i)
        p.append(QStringLiteral("a"), i, std::sin(i * 0.01));
    p.addMarker(2500, QStringLiteral("up"), MarkerKind::AllocationUp);
    ExportSettings settings;
    settings.size = QSize(640, 400);

    const QString png = dir.filePath(QStringLiteral("p.png"));
    QCOMPARE(p.exportTo(png, settings), QString());
    QCOMPARE(file_head(png, 4), QByteArray("\x89PNG"));
    const QString pdf = dir.filePath(QStringLiteral("p.pdf"));
    QCOMPARE(p.exportTo(pdf, settings), QString());
    QCOMPARE(file_head(pdf, 4), QByteArray("%PDF"));
    const QString svg = dir.filePath(QStringLiteral("p.svg"));
    QCOMPARE(p.exportTo(svg, settings), QString());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QString root;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && root.isEmpty())
            root = xml.name().toString();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QStringLiteral("svg"));
    QVERIFY(!p.exportTo(dir.filePath(QStringLiteral("p.gif")), settings).isEmpty());
}

void TestSeriesPlot::exportsCsvAtFullResolution()
{
    QTemporaryDir dir;
    SeriesPlot p;
    p.addSeries(QStringLiteral("a"), QStringLiteral("v"), Qt::blue);
    p.addSeries(QStringLiteral("b, with comma"), QStringLiteral("v"), Qt::red);
    for (int i = 0; i < 10000; ++i)
        p.append(QStringLiteral("a"), i, i * 0.5);
    p.append(QStringLiteral("b, with comma"), 0.1, 2.0);
    p.setSmoothing(0.5);
    p.flush();
    const QString path = dir.filePath(QStringLiteral("data.csv"));
    QCOMPARE(p.exportCsv(path), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines.size(), 1 + 10001 + 1); // header, rows, the empty piece after the last newline
    QCOMPARE(lines[0], QByteArray("series,x,y,smoothed"));
    QCOMPARE(lines[1], QByteArray("a,0,0,0"));
    QCOMPARE(lines[2], QByteArray("a,1,0.5,0.25"));
    QCOMPARE(lines[10001], QByteArray("\"b, with comma\",0.1,2,2"));
}

void TestSeriesPlot::nonFiniteValuesAreDropped()
{
    SeriesPlot p;
    p.addSeries(QStringLiteral("loss"), QStringLiteral("loss"), Qt::red);
    p.setSmoothing(0.3);
    p.append(QStringLiteral("loss"), 0, 1.0);
    p.append(QStringLiteral("loss"), 1, std::nan(""));
    p.append(QStringLiteral("loss"), 2, 0.5);
    p.append(QStringLiteral("unknown"), 2, 0.5);
    QCOMPARE(p.pointCount(QStringLiteral("loss")), 2);
    QVERIFY(std::isfinite(smoothedValues(p, QStringLiteral("loss")).back()));
}

RLDA_SUITE_MAIN(TestSeriesPlot)
#include "test_series_plot.moc"
