// AllocationTimeline: dragging (snapped, kept in the budget), adding, flipping and deleting markers.
#include "widgets/run/allocation_timeline.h"

#include "tests/common/screenshots.h"
#include "tests/common/suite.h"

#include <QSignalSpy>
#include <QTest>

using rlda::core::config::AllocationEventConfig;
using rlda::core::config::Change;
using rlda::widgets::AllocationTimeline;

class TestAllocationTimeline : public QObject {
    Q_OBJECT

    static void drag(AllocationTimeline& t, int index, double toTime)
    {
        const QPoint from = t.markerCenter(index).toPoint();
        const QPoint to(int(std::lround(t.xForTime(toTime))), from.y());
        QTest::mousePress(&t, Qt::LeftButton, {}, from);
        QTest::mouseMove(&t, (from + to) / 2);
        QTest::mouseMove(&t, to);
        QTest::mouseRelease(&t, Qt::LeftButton, {}, to);
    }

    // The selected marker as selectionChanged() last told it; -1 before any change.
    static int selected(const QSignalSpy& selection)
    {
        return selection.isEmpty() ? -1 : selection.last().at(0).toInt();
    }

private Q_SLOTS:
    void dragSnapsAndStaysInBudget()
    {
        AllocationTimeline t;
        t.resize(620, t.sizeHint().height());
        t.setBudget(60);
        t.setEvents({{20.0, Change::Up}, {45.0, Change::Down}});
        t.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t));
        QSignalSpy changed(&t, &AllocationTimeline::eventsChanged);
        QSignalSpy selection(&t, &AllocationTimeline::selectionChanged);

        drag(t, 0, 31.1); // pixels are ~0.1 s apart: the snap decides
        QCOMPARE(t.events()[0].time, 31.0);
        QCOMPARE(t.events()[0].change, Change::Up);
        QCOMPARE(t.events()[1].time, 45.0); // the other one stays
        QVERIFY(changed.count() >= 1);
        QCOMPARE(selected(selection), 0);

        drag(t, 1, 12.4); // past the first one: the order of events() does not change
        QCOMPARE(t.events()[1].time, 12.5);
        QCOMPARE(t.events()[1].change, Change::Down);
        QCOMPARE(t.events()[0].time, 31.0);

        drag(t, 0, 80.0); // beyond the end: the last snapped time inside [0, budget)
        QCOMPARE(t.events()[0].time, 59.5);
        drag(t, 1, -10.0);
        QCOMPARE(t.events()[1].time, 0.0);

        // A press on empty space selects nothing and moves nothing.
        changed.clear();
        const QPoint empty(int(t.xForTime(30)), t.height() / 2 + 2);
        QTest::mousePress(&t, Qt::LeftButton, {}, empty);
        QTest::mouseMove(&t, empty + QPoint(40, 0));
        QTest::mouseRelease(&t, Qt::LeftButton, {}, empty + QPoint(40, 0));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(selected(selection), -1);
    }

    void addFlipDelete()
    {
        AllocationTimeline t;
        t.resize(620, t.sizeHint().height());
        t.setBudget(60);
        t.setEvents({{20.0, Change::Up}});
        t.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t));
        QSignalSpy changed(&t, &AllocationTimeline::eventsChanged);
        QSignalSpy selection(&t, &AllocationTimeline::selectionChanged);

        // Double-click on empty space adds an "up" at the snapped time.
        QTest::mouseDClick(&t, Qt::LeftButton, {}, QPoint(int(std::lround(t.xForTime(40.2))), int(t.markerCenter(0).y())));
        QCOMPARE(t.events().size(), std::size_t(2));
        QCOMPARE(t.events()[1].time, 40.0);
        QCOMPARE(t.events()[1].change, Change::Up);
        QCOMPARE(selected(selection), 1);
        QVERIFY(changed.count() >= 1);

        // What the context menu does.
        t.flipEvent(1);
        QCOMPARE(t.events()[1].change, Change::Down);
        QCOMPARE(t.addEvent(50.26, Change::Down), 2);
        QCOMPARE(t.events()[2].time, 50.5);

        // Del deletes the selected marker.
        QTest::mouseClick(&t, Qt::LeftButton, {}, t.markerCenter(0).toPoint());
        QCOMPARE(selected(selection), 0);
        changed.clear();
        QTest::keyClick(&t, Qt::Key_Delete);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(t.events(), (std::vector<AllocationEventConfig>{{40.0, Change::Down}, {50.5, Change::Down}}));
        QCOMPARE(selected(selection), -1);
        QTest::keyClick(&t, Qt::Key_Delete); // nothing selected: nothing deleted
        QCOMPARE(t.events().size(), std::size_t(2));

        // Arrow keys move the selected one by one snap step.
        t.setSelectedEvent(1);
        QTest::keyClick(&t, Qt::Key_Left);
        QCOMPARE(t.events()[1].time, 50.0);
        QTest::keyClick(&t, Qt::Key_Right);
        QTest::keyClick(&t, Qt::Key_Right);
        QCOMPARE(t.events()[1].time, 51.0);

        // Events set anew without the selected one: the selection goes, and says so.
        t.setEvents({{10.0, Change::Up}});
        QCOMPARE(selected(selection), -1);
    }

    void screenshot()
    {
        AllocationTimeline t;
        t.resize(560, t.sizeHint().height());
        t.setBudget(60);
        t.setEvents({{12.0, Change::Up}, {20.0, Change::Up}, {42.5, Change::Down}, {70.0, Change::Up}});
        t.setSelectedEvent(1);
        t.setEventProblems({{3, QStringLiteral("70 is outside the budget [0, 60)")}});
        t.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t));
        // The event past the budget stays on the axis, which stretches to show it.
        QVERIFY(t.markerCenter(3).x() < t.width());
        rlda::test::shot(t, QStringLiteral("timeline"));
    }
};

RLDA_SUITE_MAIN(TestAllocationTimeline)
#include "test_allocation_timeline.moc"
