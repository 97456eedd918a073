// DecisionView: a policy's probabilities become bars, the choice stands out, fixed agents say so.
#include "core/model/zoo.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/qcp.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>

namespace m = rlda::core::model;
namespace t = rlda::core::train;
using rlda::widgets::DecisionView;

namespace {

t::AdaptationEvent decision(int decision, double time, int action, std::vector<double> p, const std::string& agent)
{
    t::AdaptationEvent e;
    e.decision = decision;
    e.time = time;
    e.time_left = 400.0 - time;
    e.agent = agent;
    e.action = action;
    e.probabilities = std::move(p);
    e.before = m::summarize(m::zoo_model("ConvNet2")); // 3 original blocks: 4 actions
    e.did_nothing = action == e.before.original_blocks;
    e.after = e.before;
    return e;
}

QTreeWidget* list(DecisionView& v) { return v.findChild<QTreeWidget*>(QStringLiteral("decisionList")); }

// The decision shown: the list's current row; -1 for none.
int currentDecision(DecisionView& v)
{
    const QTreeWidgetItem* item = list(v)->currentItem();
    return item ? item->data(DecisionView::DecisionColumn, DecisionView::IndexRole).toInt() : -1;
}

// The bars' heights, one per action; empty when no bars are drawn (no probabilities).
QVector<double> barValues(DecisionView& v)
{
    QVector<double> values;
    for (const QCPBars* bars : v.plot()->findChildren<QCPBars*>())
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
            values.resize(v.actionCount());
            const int k = static_cast<int>(it->key);
            if (k >= 0 && k < values.size())
                values[k] = it->value;
        }
    return values;
}

// The action drawn as chosen: the chosen bar, or without bars the band behind its column; -1 = none.
int highlightedAction(DecisionView& v)
{
    const auto* chosen = v.plot()->findChild<QCPBars*>(QStringLiteral("chosen"));
    if (chosen && !chosen->data()->isEmpty())
        return static_cast<int>(chosen->data()->constBegin()->key);
    if (const auto* band = v.plot()->findChild<QCPItemRect*>(QStringLiteral("chosenBand")))
        return static_cast<int>(std::lround((band->topLeft->coords().x() + band->bottomRight->coords().x()) / 2.0));
    return -1;
}

QString noteText(DecisionView& v) { return v.findChild<QLabel*>(QStringLiteral("decisionNote"))->text(); }

QCPBars* barsNamed(DecisionView& v, const QString& name)
{
    for (int i = 0; i < v.plot()->plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(v.plot()->plottable(i)); b && b->name() == name)
            return b;
    return nullptr;
}

} // namespace

class TestDecisionView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void probabilitiesBecomeBars()
    {
        DecisionView v;
        QCOMPARE(currentDecision(v), -1);
        QSignalSpy spy(&v, &DecisionView::currentDecisionChanged);
        v.addDecision(decision(1, 70.0, 2, {0.1, 0.2, 0.6, 0.1}, "policy"));
        QCOMPARE(v.decisionCount(), 1);
        QCOMPARE(currentDecision(v), 0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(v.actionLabels(), (QStringList{"block 0", "block 1", "block 2", "do nothing"}));
        QCOMPARE(barValues(v), (QVector<double>{0.1, 0.2, 0.6, 0.1}));
        QCOMPARE(highlightedAction(v), 2);
        QVERIFY(v.hasProbabilities());

        // The chosen bar is its own series in another colour; the rest hold every other action.
        auto* chosen = barsNamed(v, QStringLiteral("chosen"));
        auto* others = barsNamed(v, QStringLiteral("probability"));
        QVERIFY(chosen && others);
        QCOMPARE(chosen->data()->size(), 1);
        QCOMPARE(chosen->data()->constBegin()->key, 2.0);
        QCOMPARE(chosen->data()->constBegin()->value, 0.6);
        QCOMPARE(others->data()->size(), 3);
        QVERIFY(chosen->brush().color() != others->brush().color());

        // Tick labels name the actions, the chosen one marked.
        auto ticker = qSharedPointerCast<QCPAxisTickerText>(v.plot()->xAxis->ticker());
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().size(), 4);
        QVERIFY(ticker->ticks().value(2).contains(QLatin1String("chosen")));
        QVERIFY(ticker->ticks().value(3).startsWith(QLatin1String("do nothing")));
        QVERIFY(noteText(v).contains(QLatin1String("chosen: block 2")));
    }

    // A run of deepen and widen actions: the bars, the list and the note name each operation, and
    // the list shows each operation's preservation check.
    void operationsAndTheirChecksAreShown()
    {
        DecisionView v;
        auto e = decision(1, 70.0, 4, {0.1, 0.1, 0.1, 0.1, 0.5, 0.1}, "policy");
        e.operations = {"deepen", "widen"};
        e.operation = "widen";
        e.block = 1;
        e.did_nothing = false;
        e.max_abs_diff = 4.2e-7;
        v.addDecision(e);
        auto nothing = decision(2, 80.0, 5, {}, "fixed");
        nothing.operations = {"deepen", "widen"};
        nothing.did_nothing = true;
        v.addDecision(nothing);
        v.setCurrentDecision(0);
        QCOMPARE(v.actionLabels(),
                 (QStringList{"deepen 0", "deepen 1", "deepen 2", "widen 0", "widen 1", "do nothing"}));
        QVERIFY2(noteText(v).contains(QStringLiteral("chosen: widen 1 · max |Δ| 4.2e-07")), qPrintable(noteText(v)));
        auto* rows = list(v);
        QCOMPARE(rows->topLevelItem(0)->text(DecisionView::ActionColumn), QStringLiteral("widen 1"));
        QCOMPARE(rows->topLevelItem(0)->text(DecisionView::PreservedColumn), QStringLiteral("4.2e-07"));
        QCOMPARE(rows->topLevelItem(1)->text(DecisionView::ActionColumn), QStringLiteral("do nothing"));
        QCOMPARE(rows->topLevelItem(1)->text(DecisionView::PreservedColumn), QStringLiteral("—"));
        v.setCurrentDecision(1); // a fixed agent's decision still has its 6 actions
        QCOMPARE(v.actionCount(), 6);
        if (const QString dir = rlda::test::screenshotDir(); !dir.isEmpty()) {
            v.setCurrentDecision(0);
            v.resize(1100, 420);
            v.show();
            QVERIFY(QTest::qWaitForWindowExposed(&v));
            v.plot()->replot();
            QVERIFY(v.grab().save(dir + QStringLiteral("/decisions_widen.png")));
        }
    }

    void listSelectsDecision()
    {
        DecisionView v;
        v.addDecision(decision(1, 70.0, 0, {0.7, 0.1, 0.1, 0.1}, "policy"));
        v.addDecision(decision(2, 140.0, 3, {0.05, 0.05, 0.1, 0.8}, "policy"));
        QCOMPARE(currentDecision(v), 1); // followed the newest
        QCOMPARE(highlightedAction(v), 3);

        auto* l = list(v);
        QCOMPARE(l->topLevelItemCount(), 2);
        auto* first = l->topLevelItem(0);
        QCOMPARE(first->data(DecisionView::ActionColumn, DecisionView::ActionRole).toInt(), 0);
        QCOMPARE(l->topLevelItem(1)->text(DecisionView::ActionColumn), QStringLiteral("do nothing"));
        QCOMPARE(first->text(DecisionView::TimeColumn), QStringLiteral("70.0"));
        QCOMPARE(first->text(DecisionView::AgentColumn), QStringLiteral("policy"));

        l->setCurrentItem(first);
        QCOMPARE(currentDecision(v), 0);
        QCOMPARE(barValues(v), (QVector<double>{0.7, 0.1, 0.1, 0.1}));
        QCOMPARE(highlightedAction(v), 0);

        // While looking back, new decisions do not pull the view away.
        v.addDecision(decision(3, 210.0, 1, {0.1, 0.6, 0.2, 0.1}, "policy"));
        QCOMPARE(currentDecision(v), 0);
        v.setCurrentDecision(2);
        QCOMPARE(l->currentItem(), l->topLevelItem(2));
        QCOMPARE(highlightedAction(v), 1);
    }

    void fixedAgentHasNoProbabilities()
    {
        DecisionView v;
        v.addDecision(decision(1, 70.0, 1, {}, "fixed"));
        QVERIFY(!v.hasProbabilities());
        QVERIFY(barValues(v).isEmpty());
        QCOMPARE(highlightedAction(v), 1); // the choice is still shown
        QCOMPARE(v.actionCount(), 4);       // from the model's original blocks
        QVERIFY(noteText(v).contains(QLatin1String("no probabilities (fixed/random agent)")));
        QVERIFY(noteText(v).contains(QLatin1String("chosen: block 1")));
        QVERIFY(!list(v)->topLevelItem(0)->data(DecisionView::AgentColumn, DecisionView::HasProbabilitiesRole).toBool());
        for (int i = 0; i < v.plot()->plottableCount(); ++i)
            QCOMPARE(qobject_cast<QCPBars*>(v.plot()->plottable(i))->data()->size(), 0);
    }

    void actionPastProbabilitiesIsDrawnNotCrashed()
    {
        DecisionView v;
        v.addDecision(decision(1, 70.0, 4, {0.25, 0.25, 0.25, 0.25}, "policy"));
        QCOMPARE(v.actionCount(), 5);
        QCOMPARE(barValues(v), (QVector<double>{0.25, 0.25, 0.25, 0.25, 0.0}));
        QCOMPARE(highlightedAction(v), 4);
    }

    void clearAndExport()
    {
        DecisionView v;
        v.setDecisions({decision(1, 70.0, 2, {0.1, 0.2, 0.6, 0.1}, "policy"), decision(2, 140.0, 0, {}, "random")});
        QCOMPARE(v.decisionCount(), 2);
        QCOMPARE(currentDecision(v), 1);
        v.setCurrentDecision(0);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("decision.png"));
        QCOMPARE(v.exportPlot(path, {QSize(400, 300), 96}), QString());
        QVERIFY(QFileInfo(path).size() > 0);
        QVERIFY(!v.exportPlot(dir.filePath(QStringLiteral("decision.txt"))).isEmpty());

        v.clear();
        QCOMPARE(v.decisionCount(), 0);
        QCOMPARE(currentDecision(v), -1);
        QVERIFY(barValues(v).isEmpty());
        QCOMPARE(list(v)->topLevelItemCount(), 0);
    }

    // RLDA_SCREENSHOT_DIR=DIR writes what the view looks like.
    void screenshot()
    {
        const QString dir = rlda::test::screenshotDir();
        if (dir.isEmpty())
            QSKIP("set RLDA_SCREENSHOT_DIR=DIR to write a screenshot");
        DecisionView v;
        v.setDecisions({decision(1, 70.0, 2, {0.12, 0.21, 0.55, 0.12}, "policy"),
                        decision(2, 140.0, 0, {0.41, 0.19, 0.22, 0.18}, "policy"),
                        decision(3, 210.0, 3, {0.08, 0.07, 0.15, 0.70}, "policy")});
        v.setCurrentDecision(0);
        v.resize(900, 380);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QDir().mkpath(dir);
        QVERIFY(v.grab().save(dir + QStringLiteral("/decision_view.png")));
        DecisionView fixed;
        fixed.addDecision(decision(1, 70.0, 1, {}, "fixed"));
        fixed.resize(900, 380);
        fixed.show();
        QVERIFY(QTest::qWaitForWindowExposed(&fixed));
        QVERIFY(fixed.grab().save(dir + QStringLiteral("/decision_view_fixed.png")));
    }
};

RLDA_SUITE_MAIN(TestDecisionView)
#include "test_decision_view.moc"
