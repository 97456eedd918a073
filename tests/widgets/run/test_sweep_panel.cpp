// SweepPanel: a status becomes one row per task with its state, the summary counts the states,
// and the buttons follow whether a sweep is in progress.
#include "tests/common/suite.h"
#include "widgets/run/sweep_panel.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest/QtTest>

using rlda::widgets::SweepPanel;
namespace sweep = rlda::core::sweep;

class TestSweepPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void status_becomes_rows()
    {
        SweepPanel panel;
        sweep::SweepStatus s;
        s.rows_total = 16;
        s.rows_done = 11;
        s.tasks = {{0, sweep::TaskState::Done, 8, 8, 1, "4242_0", ""},
                   {1, sweep::TaskState::Running, 3, 8, 2, "4243_1", "resubmitted: NODE_FAIL"}};
        panel.setStatus(s);
        QCOMPARE(panel.tasks()->rowCount(), 2);
        QCOMPARE(panel.tasks()->item(1, SweepPanel::StateColumn)->text(), QStringLiteral("running"));
        QCOMPARE(panel.tasks()->item(1, SweepPanel::StateColumn)->data(SweepPanel::StateRole).toInt(),
                 static_cast<int>(sweep::TaskState::Running));
        QCOMPARE(panel.tasks()->item(1, SweepPanel::RowsColumn)->text(), QStringLiteral("3 / 8"));
        QCOMPARE(panel.tasks()->item(1, SweepPanel::AttemptsColumn)->text(), QStringLiteral("2"));
        QVERIFY(panel.summaryText().startsWith(QStringLiteral("11 of 16 rows")));
        QVERIFY(panel.summaryText().contains(QStringLiteral("1 running, 1 done")));
        // An ETA once a row has trained while the panel followed the sweep (issue 43, item 22).
        QVERIFY2(!panel.summaryText().contains(QStringLiteral("ETA")), qPrintable(panel.summaryText()));
        s.rows_done = 12;
        panel.setStatus(s);
        QVERIFY2(panel.summaryText().contains(QStringLiteral(" · ETA ")), qPrintable(panel.summaryText()));

        s.tasks.pop_back(); // fewer tasks: the table shrinks
        s.collected = true;
        panel.setStatus(s);
        QCOMPARE(panel.tasks()->rowCount(), 1);
        QVERIFY(panel.summaryText().contains(QStringLiteral("collected")));
        QVERIFY(!panel.summaryText().contains(QStringLiteral("ETA"))); // collected: nothing left
    }

    // Issue 43, item 22: seeds by value beside the count, and the build's stages in order.
    void seed_values_and_stages()
    {
        SweepPanel panel;
        auto* count = panel.findChild<QSpinBox*>(QStringLiteral("sweepSeeds"));
        QString problem;
        QVERIFY(panel.seedValues(&problem).empty() && problem.isEmpty());
        QVERIFY(count->isEnabled());
        panel.setSeedValuesText(QStringLiteral(" 42 43  45 "));
        QCOMPARE(panel.seedValues(&problem), (std::vector<std::int64_t>{42, 43, 45}));
        QVERIFY(problem.isEmpty());
        QVERIFY(!count->isEnabled()); // the values say how many
        QCOMPARE(panel.seedValuesText(), QStringLiteral("42 43 45"));
        panel.setSeedValuesText(QStringLiteral("42 x"));
        QVERIFY(panel.seedValues(&problem).empty());
        QCOMPARE(problem, QStringLiteral("Seeds: \"x\" is not a whole number of 0 or more"));
        panel.setSeedValuesText(QStringLiteral("7 8 7"));
        QVERIFY(panel.seedValues(&problem).empty());
        QCOMPARE(problem, QStringLiteral("Seeds: 7 is given twice"));
        panel.setSeedValuesText(QString());
        QVERIFY(count->isEnabled());

        sweep::SweepStatus s;
        panel.setStages(false, s, true);
        QCOMPARE(panel.stagesText(),
                 QStringLiteral("Stages: warm start (training) › rows › table collected"));
        s.rows_total = 48;
        s.rows_done = 31;
        panel.setStages(true, s, true);
        QCOMPARE(panel.stagesText(), QStringLiteral("Stages: ✓ warm start › rows 31/48 › table collected"));
        s.rows_done = 48;
        s.collected = true;
        panel.setStages(true, s, false);
        QCOMPARE(panel.stagesText(),
                 QStringLiteral("Stages: ✓ warm start › ✓ rows 48/48 › ✓ table collected"));
    }

    void buttons_follow_the_state()
    {
        SweepPanel panel;
        auto* submit = panel.findChild<QPushButton*>(QStringLiteral("submitSweep"));
        auto* cancel = panel.findChild<QPushButton*>(QStringLiteral("cancelSweep"));
        QVERIFY(submit && cancel);
        QSignalSpy submitted(&panel, &SweepPanel::submitRequested);
        QSignalSpy cancelled(&panel, &SweepPanel::cancelRequested);
        QVERIFY(submit->isEnabled() && !cancel->isEnabled());
        panel.setBackend(rlda::core::config::SweepBackend::Slurm);
        panel.setWorkers(3);
        submit->click();
        QCOMPARE(submitted.count(), 1);
        QCOMPARE(submitted.at(0).at(0).value<rlda::core::config::SweepBackend>(), rlda::core::config::SweepBackend::Slurm);
        QCOMPARE(submitted.at(0).at(1).toInt(), 3);
        panel.setActive(true);
        QVERIFY(!submit->isEnabled() && cancel->isEnabled());
        cancel->click();
        QCOMPARE(cancelled.count(), 1);
    }
};

RLDA_SUITE_MAIN(TestSweepPanel)
#include "test_sweep_panel.moc"
