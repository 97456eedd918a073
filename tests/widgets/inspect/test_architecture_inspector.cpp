// ArchitectureInspector: ConvNet2 deepened step by step by core, shown per step and diffed.
#include "core/model/zoo.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "widgets/inspect/architecture_inspector.h"

#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QTreeWidget>

namespace m = rlda::core::model;
namespace t = rlda::core::train;
using rlda::widgets::ArchitectureInspector;

namespace {

// The step shown: the step slider's value.
int shownStep(const ArchitectureInspector& w) { return w.findChild<QSlider*>(QStringLiteral("stepSlider"))->value(); }

// A real run's adaptations: Deepen(0) at t=70, Deepen(2) at t=140, Do Nothing at t=200,
// Deepen(0) again at t=270, with the preservation results a trainer would report.
struct Run {
    m::ModelSummary initial;
    std::vector<t::AdaptationEvent> events;
    std::vector<m::DeepenResult> results;
};

Run makeRun()
{
    Run run;
    m::ModelSpec spec = m::load_model("ConvNet2", {3, 32, 32}, 10);
    run.initial = m::summarize(spec);
    const int actions[] = {0, 2, 3, 0};
    const double diffs[] = {3.1e-7, 0.02, -1.0, -1.0};
    for (int i = 0; i < 4; ++i) {
        t::AdaptationEvent e;
        e.decision = i + 1;
        e.time = 70.0 * (i + 1);
        e.time_left = 400.0 - e.time;
        e.agent = "policy";
        e.action = actions[i];
        e.before = m::summarize(spec);
        run.results.push_back(m::deepen_spec(spec, actions[i]));
        e.did_nothing = run.results.back().did_nothing;
        e.after = m::summarize(spec);
        e.max_abs_diff = diffs[i];
        run.events.push_back(e);
    }
    return run;
}

QTreeWidget* unitTree(ArchitectureInspector& w) { return w.findChild<QTreeWidget*>(QStringLiteral("unitTree")); }
QTreeWidget* diffTree(ArchitectureInspector& w) { return w.findChild<QTreeWidget*>(QStringLiteral("diffTree")); }
QTreeWidget* checkTree(ArchitectureInspector& w) { return w.findChild<QTreeWidget*>(QStringLiteral("checkTree")); }

QStringList kinds(QTreeWidget* tree)
{
    QStringList out;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        out << tree->topLevelItem(i)->data(ArchitectureInspector::UnitColumn, ArchitectureInspector::KindRole).toString();
    return out;
}

} // namespace

class TestArchitectureInspector : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void stepsFollowAdaptations()
    {
        const Run run = makeRun();
        QVERIFY(!run.results[0].did_nothing);
        QVERIFY(run.results[2].did_nothing);

        ArchitectureInspector w;
        QCOMPARE(w.stepCount(), 0);
        w.setInitial(run.initial);
        QCOMPARE(w.stepCount(), 1);
        QCOMPARE(shownStep(w), 0);
        QCOMPARE(kinds(unitTree(w)).count(QStringLiteral("added")), 0);
        QCOMPARE(kinds(unitTree(w)).count(QStringLiteral("block")), 3);

        QSignalSpy spy(&w, &ArchitectureInspector::currentStepChanged);
        for (const auto& e : run.events)
            w.addAdaptation(e);
        QCOMPARE(w.stepCount(), 5); // Do Nothing is a step too
        QCOMPARE(shownStep(w), 4); // follows the newest while at the end
        QCOMPARE(spy.count(), 4);
        auto* slider = w.findChild<QSlider*>(QStringLiteral("stepSlider"));
        QCOMPARE(slider->maximum(), 4);
        QCOMPARE(slider->value(), 4);
        QCOMPARE(w.findChild<QLabel*>(QStringLiteral("stepLabel"))->text(),
                 QStringLiteral("step 4/4: deepen block 0 at t=280.0 s · not measured"));
        QCOMPARE(w.stepText(3), QStringLiteral("step 3/4: do nothing at t=210.0 s"));
        QCOMPARE(w.stepText(0), QStringLiteral("step 0/4: starting model"));

        // The slider moves the tree to an earlier step.
        slider->setValue(1);
        QCOMPARE(shownStep(w), 1);
        auto* tree = unitTree(w);
        const auto& s1 = run.events[0].after;
        QCOMPARE(tree->topLevelItemCount(), static_cast<int>(s1.units.size()));
        const QStringList k = kinds(tree);
        QCOMPARE(k.count(QStringLiteral("added")), 1);
        const int pos = run.results[0].position;
        QCOMPARE(k.at(pos), QStringLiteral("added"));
        auto* added = tree->topLevelItem(pos);
        QVERIFY(added->data(ArchitectureInspector::UnitColumn, ArchitectureInspector::NewRole).toBool());
        QCOMPARE(added->data(ArchitectureInspector::UnitColumn, ArchitectureInspector::ActionRole).toInt(), -1);
        QVERIFY(added->text(ArchitectureInspector::UnitColumn).contains(QLatin1String("Deepen 0")));
        QVERIFY(added->text(ArchitectureInspector::KindColumn).startsWith(QLatin1String("added")));
        // Told apart by colour, not only by text.
        const auto* original = tree->topLevelItem(0);
        QCOMPARE(original->text(ArchitectureInspector::KindColumn), QStringLiteral("original"));
        QVERIFY(added->foreground(ArchitectureInspector::UnitColumn) != original->foreground(ArchitectureInspector::UnitColumn));
        QVERIFY(added->background(ArchitectureInspector::UnitColumn) != original->background(ArchitectureInspector::UnitColumn));

        // Parameters per unit add up to the summary's total, shown below the tree.
        qint64 total = 0;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            total += tree->topLevelItem(i)
                         ->data(ArchitectureInspector::ParametersColumn, ArchitectureInspector::ValueRole)
                         .toLongLong();
        QCOMPARE(total, qint64{s1.parameters});
        QCOMPARE(total, qint64{10602 + run.results[0].added_parameters});
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("totalLabel"))->text().contains(w.formatCount(total)));

        // At the last step: two blocks added after block 0, one after block 2.
        w.setCurrentStep(4);
        QCOMPARE(kinds(tree).count(QStringLiteral("added")), 3);
        QCOMPARE(w.summaryAt(4).parameters, run.events[3].after.parameters);
    }

    // A widening shows as the widened layer, old width -> new, not as a removal and an addition;
    // its check names the operation.
    void widenedLayersShowOldAndNewWidths()
    {
        m::ModelSpec spec = m::load_model("ConvNet2", {3, 32, 32}, 10);
        const m::ModelSummary initial = m::summarize(spec);
        t::AdaptationEvent e;
        e.decision = 1;
        e.time = 70.0;
        e.action = 4; // deepen 0..2, widen 3..4, Do Nothing 5
        e.operations = {"deepen", "widen"};
        e.operation = "widen";
        e.block = 1;
        e.before = initial;
        const auto r = m::widen_spec(spec, 1, 2.0);
        e.after = m::summarize(spec);
        e.max_abs_diff = 5e-7;
        ArchitectureInspector w;
        w.setSteps(initial, {e});
        w.setDiffSteps(0, 1);
        const auto d = w.diff();
        QVERIFY(d.added.empty() && d.removed.empty());
        QCOMPARE(d.resized.size(), std::size_t{2});
        QCOMPARE(d.resized[0].second.layers[0], r.after);
        auto* tree = diffTree(w);
        QCOMPARE(tree->topLevelItemCount(), 2); // block 1's conv and the head's Linear, which takes its units
        QCOMPARE(tree->topLevelItem(0)->data(0, ArchitectureInspector::KindRole).toString(), QStringLiteral("widened"));
        QCOMPARE(tree->topLevelItem(0)->text(1),
                 QStringLiteral("Conv2d(32, 32, kernel_size=(3, 3), stride=(1, 1)) → Conv2d(32, 64, kernel_size=(3, 3), stride=(1, 1))"));
        QVERIFY(tree->topLevelItem(1)->text(1).contains(QStringLiteral("in_features=32") + QStringLiteral(", out_features=10, bias=True) → ")));
        QCOMPARE(tree->topLevelItem(0)->data(2, ArchitectureInspector::ValueRole).toLongLong() +
                     tree->topLevelItem(1)->data(2, ArchitectureInspector::ValueRole).toLongLong(),
                 qint64{r.added_parameters});
        QCOMPARE(checkTree(w)->topLevelItem(0)->text(1), QStringLiteral("widen block 1"));
        QCOMPARE(w.stepText(1), QStringLiteral("step 1/1: widen block 1 at t=70.0 s"));
        if (const QString dir = rlda::test::screenshotDir(); !dir.isEmpty()) {
            w.resize(1400, 800);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.grab().save(dir + QStringLiteral("/architecture_widened.png")));
        }
    }

    void diffBetweenSteps()
    {
        const Run run = makeRun();
        ArchitectureInspector w;
        w.setSteps(run.initial, run.events);
        QCOMPARE(w.stepCount(), 5);
        QCOMPARE(shownStep(w), 4);
        QCOMPARE(w.diffFrom(), 0); // start vs. end by default
        QCOMPARE(w.diffTo(), 4);

        auto d = w.diff();
        QCOMPARE(static_cast<int>(d.added.size()), 3);
        QCOMPARE(static_cast<int>(d.removed.size()), 0);
        std::int64_t expectedDelta = 0;
        for (const auto& r : run.results)
            expectedDelta += r.added_parameters;
        QCOMPARE(d.parameter_delta, expectedDelta);
        QCOMPARE(d.parameters_to - d.parameters_from, expectedDelta);
        for (const auto& u : d.added) {
            QVERIFY(u.is_block);
            QVERIFY(!u.original);
        }
        QCOMPARE(static_cast<int>(d.checks.size()), 4);
        QVERIFY(d.checks[0].passed());
        QVERIFY(d.checks[1].measured() && !d.checks[1].passed());
        QVERIFY(d.checks[2].did_nothing);
        QVERIFY(!d.checks[3].measured());

        // The spin boxes choose the steps; going back reports removed blocks.
        w.findChild<QSpinBox*>(QStringLiteral("diffFrom"))->setValue(2);
        w.findChild<QSpinBox*>(QStringLiteral("diffTo"))->setValue(1);
        d = w.diff();
        QCOMPARE(d.from, 2);
        QCOMPARE(d.to, 1);
        QCOMPARE(static_cast<int>(d.added.size()), 0);
        QCOMPARE(static_cast<int>(d.removed.size()), 1);
        QCOMPARE(d.removed.front().parameters, run.results[1].added_parameters);
        QCOMPARE(d.removed.front().layers.size(), run.results[1].layers.size());
        QCOMPARE(d.parameter_delta, -run.results[1].added_parameters);
        QCOMPARE(static_cast<int>(d.checks.size()), 1);
        QCOMPARE(d.checks[0].action, 2);

        // A Do Nothing step changes nothing.
        w.setDiffSteps(2, 3);
        d = w.diff();
        QVERIFY(d.added.empty() && d.removed.empty());
        QCOMPARE(d.parameter_delta, std::int64_t{0});

        // The diff tree shows the same as data, with the preservation result per deepening.
        w.setDiffSteps(0, 4);
        auto* tree = diffTree(w);
        QStringList rowKinds;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            rowKinds << tree->topLevelItem(i)->data(0, ArchitectureInspector::KindRole).toString();
        QCOMPARE(rowKinds, (QStringList{"added", "added", "added"}));
        QCOMPARE(tree->topLevelItem(0)->data(2, ArchitectureInspector::ValueRole).toLongLong(),
                 qint64{run.results[0].added_parameters});
        QStringList checks;
        for (int i = 0; i < checkTree(w)->topLevelItemCount(); ++i)
            checks << checkTree(w)->topLevelItem(i)->text(2);
        QCOMPARE(checks.size(), 4);
        QVERIFY2(checks[0].startsWith(QStringLiteral("preserved: max |Δ| = 3.1e-07")), qPrintable(checks[0]));
        QVERIFY2(checks[1].startsWith(QLatin1String("NOT preserved")), qPrintable(checks[1]));
        QCOMPARE(checks[2], QStringLiteral("no change"));
        QCOMPARE(checks[3], QStringLiteral("not measured"));
    }

    void preservationText()
    {
        QVERIFY(ArchitectureInspector::preservationText(3.1e-7).contains(QLatin1String("3.1e-07")));
        QVERIFY(ArchitectureInspector::preservationText(1e-4).startsWith(QLatin1String("preserved")));
        QVERIFY(ArchitectureInspector::preservationText(2e-4).startsWith(QLatin1String("NOT preserved")));
        QCOMPARE(ArchitectureInspector::preservationText(-1.0), QStringLiteral("not measured"));
    }

    void liveWithoutInitialAndClear()
    {
        const Run run = makeRun();
        ArchitectureInspector w;
        w.addAdaptation(run.events[0]); // no setInitial: the event's `before` is step 0
        QCOMPARE(w.stepCount(), 2);
        QCOMPARE(w.summaryAt(0).parameters, std::int64_t{10602});
        QCOMPARE(shownStep(w), 1);
        QCOMPARE(w.diffTo(), 1);

        // Looking at an earlier step: new steps do not move the view.
        w.setCurrentStep(0);
        w.addAdaptation(run.events[1]);
        QCOMPARE(shownStep(w), 0);
        QCOMPARE(w.stepCount(), 3);
        QCOMPARE(w.diffTo(), 2);

        w.clear();
        QCOMPARE(w.stepCount(), 0);
        QCOMPARE(unitTree(w)->topLevelItemCount(), 0);
        QCOMPARE(diffTree(w)->topLevelItemCount(), 0);
        QCOMPARE(checkTree(w)->topLevelItemCount(), 0);
    }

    // RLDA_SCREENSHOT_DIR=DIR writes what the panel looks like with a real deepening sequence.
    // Issue 43, item 21: however narrow the tree, every parameter count is whole and inside the
    // view (it was cut at the edge, "9,312" to "9,3", with no ellipsis); the names give way.
    void parameterCountsAreNeverCut()
    {
        const Run run = makeRun();
        ArchitectureInspector w;
        w.setSteps(run.initial, run.events);
        w.setCurrentStep(w.stepCount() - 1);
        QTreeWidget* tree = unitTree(w);
        for (const int width : {1200, 700, 520, 430}) {
            w.resize(width, 560);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCoreApplication::processEvents();
            const QHeaderView* h = tree->header();
            const int p = ArchitectureInspector::ParametersColumn;
            const int right = h->sectionViewportPosition(p) + h->sectionSize(p);
            QVERIFY2(right <= tree->viewport()->width(),
                     qPrintable(QStringLiteral("at %1 px the Parameters column ends at %2 px of a %3 px view")
                                    .arg(width)
                                    .arg(right)
                                    .arg(tree->viewport()->width())));
            const QFontMetrics metrics(tree->font());
            for (int i = 0; i < tree->topLevelItemCount(); ++i) {
                const QString count = tree->topLevelItem(i)->text(p);
                QVERIFY2(metrics.horizontalAdvance(count) < h->sectionSize(p),
                         qPrintable(QStringLiteral("%1 in %2 px").arg(count).arg(h->sectionSize(p))));
            }
        }
    }

    void screenshot()
    {
        const QString dir = rlda::test::screenshotDir();
        if (dir.isEmpty())
            QSKIP("set RLDA_SCREENSHOT_DIR=DIR to write a screenshot");
        const Run run = makeRun();
        ArchitectureInspector w;
        w.setSteps(run.initial, run.events);
        w.setCurrentStep(2);
        w.resize(1200, 560);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QDir().mkpath(dir);
        QVERIFY(w.grab().save(dir + QStringLiteral("/architecture_inspector.png")));
    }
};

RLDA_SUITE_MAIN(TestArchitectureInspector)
#include "test_architecture_inspector.moc"
