// TrainingView fed with core's training value types and hand-built run data (overlays included).
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/widgets/plot/plot_reading.h"
#include "widgets/plot/series_plot.h"
#include "widgets/plot/training_view.h"
#include "widgets/qcp.h"

#include <QCheckBox>
#include <QDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using rlda::widgets::SeriesPlot;
using rlda::widgets::TrainingView;
using plot_reading::legendLabels;
using plot_reading::line;
using plot_reading::markerColors;
using plot_reading::markerLabels;
namespace train = rlda::core::train;
namespace io = rlda::core::io;

namespace {

train::EpochMetrics epoch(int i, std::int64_t params = 100000)
{
    train::EpochMetrics m;
    m.epoch = i;
    m.time = 12.5 * i;
    m.train_acc = 1.0 - std::exp(-0.3 * i) * 0.9;
    m.test_acc = m.train_acc - 0.05 - 0.02 * std::sin(i);
    m.train_loss = 2.3 * std::exp(-0.25 * i) + 0.1 + 0.05 * std::cos(1.7 * i);
    m.lr = i < 12 ? 0.1 : 0.01;
    m.parameters = params;
    return m;
}

train::AdaptationEvent adaptation(double time, int action, bool nothing)
{
    train::AdaptationEvent e;
    e.time = time;
    e.action = action;
    e.did_nothing = nothing;
    return e;
}

io::RunData run(int epochs, double accShift)
{
    io::RunData r;
    r.name = "baseline";
    r.kind = io::RunKind::Training;
    for (int i = 1; i <= epochs; ++i) {
        const auto m = epoch(i);
        r.series["train_acc"].push_back({double(i), m.time, m.train_acc - accShift});
        r.series["test_acc"].push_back({double(i), m.time, m.test_acc - accShift});
        r.series["train_loss"].push_back({double(i), m.time, m.train_loss + accShift});
        r.series["lr"].push_back({double(i), m.time, m.lr});
        r.series["params"].push_back({double(i), m.time, 100000.0});
        r.series["something_new"].push_back({double(i), m.time, 1.0});
    }
    r.allocations.push_back({50.0, train::Allocation::Up, "consult the agent"});
    r.adaptations.push_back(adaptation(50.0, 1, false));
    return r;
}

// Screenshots for a look by eye, only when asked for (tests/common/screenshots.h).
void shoot(QWidget& w, const QString& name)
{
    if (rlda::test::screenshotDir().isEmpty())
        return;
    QCoreApplication::processEvents(); // pending layouts and paints, then the grab
    rlda::test::shot(w, name);
}

} // namespace

class TestTrainingView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void epochsEventsAndAxes();
    void smoothingSpanAndVisibility();
    void setRunAndOverlay();
    void threeRunsCompared();
    void the_parameter_line_steps_at_the_adaptation();
    void a_constant_axis_reads_as_round_numbers();
};

void TestTrainingView::epochsEventsAndAxes()
{
    TrainingView v;
    v.resize(1100, 560);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    for (int i = 1; i <= 30; ++i)
        v.addEpoch(epoch(i, i < 8 ? 100000 : (i < 16 ? 140000 : 190000)));
    v.addAllocation({87.5, train::Allocation::Up, "consult the agent"});
    v.addAdaptation(adaptation(87.5, 2, false));
    v.addAllocation({187.5, train::Allocation::Up, "consult the agent"});
    v.addAdaptation(adaptation(187.5, 0, true));
    v.addAllocation({200.0, train::Allocation::Same, ""}); // nothing to show
    v.addAllocation({300.0, train::Allocation::Down, "distil"});
    auto last = epoch(30);
    last.final = true;
    v.addEpoch(last);

    SeriesPlot* p = v.plot();
    for (const auto& id : TrainingView::seriesIds())
        QCOMPARE(p->pointCount(id), 30); // the final report is a marker, not a point
    QCOMPARE(p->markerCount(), 6); // up and its decision share an x but not a side: 2 + 2 + down + final
    const QStringList labels = markerLabels(*p);
    QVERIFY(labels.contains(QStringLiteral("deepen 2")));
    QVERIFY(labels.contains(QStringLiteral("do nothing")));
    QVERIFY(labels.contains(QStringLiteral("down")));
    QCOMPARE(labels.count(QStringLiteral("up")), 2);
    QCOMPARE(p->axis(QStringLiteral("accuracy"))->label(), QStringLiteral("accuracy"));
    QCOMPARE(p->axis(QStringLiteral("loss"))->label(), QStringLiteral("loss"));
    QCOMPARE(p->axis(QStringLiteral("lr"))->label(), QStringLiteral("learning rate"));
    QCOMPARE(p->axis(QStringLiteral("parameters"))->label(), QStringLiteral("parameters"));
    QCOMPARE(p->xAxisTitle(), QStringLiteral("time (s)"));
    QCOMPARE(p->values(QStringLiteral("params")).back(), 190000.0);
    v.setSmoothingSpan(5);
    p->flush();
    shoot(v, QStringLiteral("training"));
    const QRect rect = p->plot()->axisRect()->rect();
    QTest::mouseMove(p->plot(), QPoint(rect.left() + rect.width() * 2 / 3, rect.center().y()));
    shoot(v, QStringLiteral("training-crosshair"));

    v.clear();
    QCOMPARE(p->pointCount(QStringLiteral("train_acc")), 0);
    QCOMPARE(p->markerCount(), 0);
    // A widening is named by its operation and block, not its action number.
    auto widen = adaptation(250.0, 4, false);
    widen.operation = "widen";
    widen.block = 1;
    v.addAdaptation(widen);
    QVERIFY(markerLabels(*p).contains(QStringLiteral("widen 1")));
}

void TestTrainingView::smoothingSpanAndVisibility()
{
    TrainingView v;
    QCOMPARE(v.smoothingSpan(), 1); // off
    for (int i = 1; i <= 20; ++i)
        v.addEpoch(epoch(i));
    SeriesPlot* p = v.plot();
    QCOMPARE(p->smoothing(), 0.0);
    v.setSmoothingSpan(9); // alpha = 2 / 10
    QCOMPARE(p->smoothing(), 0.2);
    const auto raw = p->values(QStringLiteral("train_loss"));
    const auto sm = plot_reading::smoothedValues(*p, QStringLiteral("train_loss"));
    QCOMPARE(sm[0], raw[0]);
    QCOMPARE(sm[1], 0.2 * raw[1] + 0.8 * raw[0]);
    QCOMPARE(plot_reading::smoothedValues(*p, QStringLiteral("lr")), p->values(QStringLiteral("lr"))); // steps stay steps

    auto* box = v.findChild<QCheckBox*>(); // the first quantity: train accuracy
    QVERIFY(box);
    box->setChecked(false);
    p->flush(); // visibility is drawn at the next refresh
    QVERIFY(!line(*p, QStringLiteral("train_acc"))->visible());
    v.setQuantityVisible(QStringLiteral("train_acc"), true);
    QVERIFY(box->isChecked());
    p->flush();
    QVERIFY(line(*p, QStringLiteral("train_acc"))->visible());
}

void TestTrainingView::setRunAndOverlay()
{
    TrainingView v;
    v.resize(1100, 560);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setRun(run(24, 0.0));
    SeriesPlot* p = v.plot();
    QCOMPARE(p->pointCount(QStringLiteral("test_acc")), 24);
    QCOMPARE(p->pointCount(QStringLiteral("params")), 24);
    QCOMPARE(p->markerCount(), 2);
    QVERIFY(!line(*p, QStringLiteral("something_new")));

    v.addOverlay(QStringLiteral("no-adapt"), run(20, 0.06));
    QCOMPARE(v.runNames().mid(1), QStringList{QStringLiteral("no-adapt")});
    QVERIFY(line(*p, QStringLiteral("no-adapt: test_acc")));
    QCOMPARE(p->pointCount(QStringLiteral("no-adapt: test_acc")), 20);
    QCOMPARE(line(*p, QStringLiteral("no-adapt: test_acc"))->name(), QStringLiteral("no-adapt: test accuracy"));
    v.setQuantityVisible(QStringLiteral("train_loss"), false);
    p->flush();
    QVERIFY(!line(*p, QStringLiteral("no-adapt: train_loss"))->visible());
    v.setQuantityVisible(QStringLiteral("train_loss"), true);
    v.setQuantityVisible(QStringLiteral("params"), false);
    v.setQuantityVisible(QStringLiteral("lr"), false);
    v.addOverlay(QStringLiteral("no-adapt"), run(10, 0.06)); // replaces, does not duplicate
    QCOMPARE(p->pointCount(QStringLiteral("no-adapt: test_acc")), 10);
    QCOMPARE(v.runNames().mid(1), QStringList{QStringLiteral("no-adapt")});
    p->flush();
    QVERIFY(!line(*p, QStringLiteral("no-adapt: params"))->visible()); // follows its box
    QVERIFY(!p->axis(QStringLiteral("parameters"))->visible()); // nothing left on it
    QVERIFY(p->axis(QStringLiteral("accuracy"))->visible());
    v.addOverlay(QStringLiteral("no-adapt"), run(20, 0.06));
    p->flush();
    shoot(v, QStringLiteral("training-overlay"));
    v.clearOverlays();
    QVERIFY(!line(*p, QStringLiteral("no-adapt: test_acc")));
    QCOMPARE(p->pointCount(QStringLiteral("test_acc")), 24);
}

void TestTrainingView::threeRunsCompared()
{
    TrainingView v;
    v.resize(1100, 560);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    auto a = run(24, 0.0);
    a.name = "fixed-0-1";
    auto b = run(24, 0.04);
    b.name = "random";
    b.adaptations.front().action = 2;
    b.adaptations.push_back(adaptation(87.5, 0, true)); // a second decision, later
    auto c = run(24, 0.08);
    c.name = "fixed-0-1"; // the same folder name in another root
    c.allocations.front().time = 62.5;
    c.adaptations.front().time = 62.5;
    v.setRuns({a, b, c});
    SeriesPlot* p = v.plot();
    p->flush();

    const QStringList names{QStringLiteral("fixed-0-1"), QStringLiteral("random"), QStringLiteral("fixed-0-1 (2)")};
    QCOMPARE(v.runNames(), names);
    // One colour per run, the first included, on every quantity of the run.
    const QColor first = line(*p, QStringLiteral("test_acc"))->pen().color();
    const QColor second = line(*p, QStringLiteral("random: test_acc"))->pen().color();
    const QColor third = line(*p, QStringLiteral("fixed-0-1 (2): test_acc"))->pen().color();
    QCOMPARE(QSet<QRgb>({first.rgb(), second.rgb(), third.rgb()}).size(), 3);
    QCOMPARE(first, TrainingView::runColor(0));
    QCOMPARE(line(*p, QStringLiteral("train_loss"))->pen().color(), first);
    QCOMPARE(line(*p, QStringLiteral("random: params"))->pen().color(), second);
    // One dash pattern per quantity, the same in every run.
    QCOMPARE(line(*p, QStringLiteral("test_acc"))->pen().style(), Qt::SolidLine);
    const auto dash = [p](const char* series) { return line(*p, QString::fromLatin1(series))->pen().style(); };
    QCOMPARE(dash("train_acc"), dash("random: train_acc"));
    QVERIFY(dash("train_acc") != dash("train_loss"));
    // Every run named: in the legend (a row of runs, then the quantities) and in its series' labels.
    const QStringList legend = legendLabels(*p);
    for (const QString& name : names)
        QVERIFY2(legend.contains(name), qPrintable(legend.join(QStringLiteral(" | "))));
    QVERIFY(legend.contains(QStringLiteral("test accuracy")));
    QCOMPARE(line(*p, QStringLiteral("test_acc"))->name(), QStringLiteral("fixed-0-1: test accuracy"));
    // Every run's allocation and adaptations, in its colour: a: up + deepen 1 (at 50); b: the same
    // x, its own lines, and do nothing at 87.5; c: up + deepen 1 at 62.5.
    const auto colors = markerColors(*p);
    QCOMPARE(p->markerCount(), 7);
    QCOMPARE(colors.count(first), 2);
    QCOMPARE(colors.count(second), 3);
    QCOMPARE(colors.count(third), 2);
    QCOMPARE(markerLabels(*p).count(QStringLiteral("deepen 1")), 2);
    QVERIFY(markerLabels(*p).contains(QStringLiteral("deepen 2")));
    QVERIFY(markerLabels(*p).contains(QStringLiteral("do nothing")));

    // Hiding a quantity drops it from the legend's key row.
    v.setQuantityVisible(QStringLiteral("lr"), false);
    QVERIFY(!legendLabels(*p).contains(QStringLiteral("learning rate")));
    v.setQuantityVisible(QStringLiteral("params"), false);
    v.setQuantityVisible(QStringLiteral("train_acc"), false);
    p->flush();
    shoot(v, QStringLiteral("training-compare"));

    // Back to one run: the quantities' own colours, one legend entry per series, kinds' colours.
    v.clearOverlays();
    QCOMPARE(v.runNames(), QStringList{QStringLiteral("fixed-0-1")});
    QVERIFY(line(*p, QStringLiteral("test_acc"))->pen().color() != first);
    QCOMPARE(line(*p, QStringLiteral("test_acc"))->name(), QStringLiteral("test accuracy"));
    QVERIFY(legendLabels(*p).contains(QStringLiteral("test accuracy")));
    QVERIFY(!legendLabels(*p).contains(QStringLiteral("fixed-0-1")));
    QCOMPARE(p->markerCount(), 2);
    QVERIFY(!markerColors(*p).contains(first));
}


// Issue 27: "deepen 0" at 50 s, and the parameter count steps there, not at the next epoch (62.5 s),
// live and from a run's files alike.
void TestTrainingView::the_parameter_line_steps_at_the_adaptation()
{
    io::RunData r;
    r.name = "grown";
    r.kind = io::RunKind::Training;
    for (int i = 1; i <= 8; ++i) {
        const auto m = epoch(i, i <= 4 ? 1000 : 1500); // 50 s is epoch 4's end
        r.series["params"].push_back({double(i), m.time, double(m.parameters)});
    }
    auto deepen = adaptation(50.0, 0, false);
    deepen.operation = "deepen";
    deepen.block = 0;
    deepen.before.parameters = 1000;
    deepen.after.parameters = 1500;
    r.adaptations.push_back(deepen);
    r.adaptations.push_back(adaptation(75.0, 3, true)); // do nothing: no step

    // The count the line shows just after time t: the last point at or before it.
    const auto shownAfter = [](SeriesPlot* p, double t) {
        const auto keys = p->keys(QStringLiteral("params"));
        const auto values = p->values(QStringLiteral("params"));
        double v = 0.0;
        for (std::size_t i = 0; i < keys.size() && keys[i] <= t; ++i)
            v = values[i];
        return v;
    };
    TrainingView fromFiles;
    fromFiles.setRun(r);
    QCOMPARE(shownAfter(fromFiles.plot(), 49.9), 1000.0);
    QCOMPARE(shownAfter(fromFiles.plot(), 50.0), 1500.0); // at the marker
    QCOMPARE(markerLabels(*fromFiles.plot()).count(QStringLiteral("deepen 0")), 1);

    TrainingView live;
    for (int i = 1; i <= 4; ++i)
        live.addEpoch(epoch(i, 1000));
    live.addAdaptation(deepen);
    for (int i = 5; i <= 8; ++i)
        live.addEpoch(epoch(i, 1500));
    live.addAdaptation(r.adaptations.back());
    QCOMPARE(shownAfter(live.plot(), 50.0), 1500.0);
    QCOMPARE(live.plot()->keys(QStringLiteral("params")), fromFiles.plot()->keys(QStringLiteral("params")));

    // Compared, the other run's line steps at its own marker too.
    TrainingView compared;
    compared.setRuns({r, r});
    const auto keys = compared.plot()->keys(QStringLiteral("grown (2): params"));
    QCOMPARE(std::count(keys.begin(), keys.end(), 50.0), 2l);
}

// Issue 27: a constant parameter count (10,026) gets an axis of round numbers about it, written
// in full; a constant temperature of 1 an axis about 1, not 0.995 to 1.005.
void TestTrainingView::a_constant_axis_reads_as_round_numbers()
{
    TrainingView v;
    v.resize(1000, 500);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    for (int i = 1; i <= 6; ++i)
        v.addEpoch(epoch(i, 10026));
    v.fitAll();
    SeriesPlot* p = v.plot();
    p->flush();
    p->plot()->replot();
    QCPAxis* axis = p->axis(QStringLiteral("parameters"));
    QVERIFY(axis->range().lower <= 9500 && axis->range().upper >= 10500);
    const QVector<QString> labels = axis->tickVectorLabels();
    QVERIFY(!labels.isEmpty());
    for (const QString& label : labels) {
        QVERIFY2(!label.contains(QLatin1Char('e')) && !label.contains(QLatin1Char('.')), qPrintable(label));
        QVERIFY2(label.toInt() % 100 == 0, qPrintable(label)); // round numbers
    }
}

RLDA_SUITE_MAIN(TestTrainingView)
#include "test_training_view.moc"
