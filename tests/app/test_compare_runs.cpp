// Run -> Train and compare with no adaptation: the experiment, then the same job without
// adaptation beside it (<run>-none, as `rlda train --compare none` names it), both overlaid, and
// the difference in final test accuracy stated.
#include "app/workbench/main_window.h"
#include "app/workbench/page_tabs.h"
#include "app/workbench/policy_page.h"
#include "app/workbench/torch_engine.h"
#include "core/config/experiment_io.h"
#include "core/io/comparison.h"
#include "core/io/run_reader.h"
#include "tests/common/suite.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/decision_view.h"
#include "widgets/plot/training_view.h"

#include <QStatusBar>
#include <QtTest/QtTest>

using namespace rlda;

class TestCompareRuns : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { app::installEngine(app::makeTorchEngine()); } // the suite trains
    void compares_a_run_with_the_same_job_without_adaptation()
    {
        QTemporaryDir tmp;
        app::MainWindow w;
        w.setRunsRoot(tmp.filePath(QStringLiteral("runs")));
        QVERIFY(w.openExperiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml"));
        QVERIFY(w.startComparison());
        const QString adapted = w.currentRun();
        QTRY_VERIFY_WITH_TIMEOUT(!w.comparisonSummary().isEmpty(), 120000);
        const QString baseline = QString::fromStdString(core::run::baseline_folder(adapted.toStdString()).string());
        QVERIFY(baseline.endsWith("-none"));
        const auto with = core::io::read_run(adapted.toStdString());
        const auto without = core::io::read_run(baseline.toStdString());
        QVERIFY(!with.adaptations.empty());
        // Without adaptation every decision is Do Nothing (ConvNet2: action 3), and there are some.
        QVERIFY(!without.adaptations.empty());
        for (const auto& a : without.adaptations)
            QCOMPARE(a.action, 3);
        const double a = *core::io::final_accuracy(with), b = *core::io::final_accuracy(without);
        QVERIFY2(w.comparisonSummary().contains(QString::number(a - b, 'f', 4)), qPrintable(w.comparisonSummary()));
        QVERIFY(w.statusBar()->currentMessage().startsWith("adaptation: "));
        QCOMPARE(w.currentPage(), app::MainWindow::Page::Training);
        // Issue 43, item 13: the Architecture and Policy pages show the adapted run, not the run
        // without adaptation that trained after it; it is the window's current run again.
        QCOMPARE(w.currentRun(), adapted);
        const auto& decisions = w.pages()->policy->decisions()->decisions();
        QCOMPARE(decisions.size(), with.adaptations.size());
        for (std::size_t i = 0; i < decisions.size(); ++i)
            QCOMPARE(decisions[i].action, with.adaptations[i].action);
        const auto* architecture = w.pages()->architecture;
        QCOMPARE(architecture->stepCount(), static_cast<int>(with.adaptations.size()) + 1);
        QCOMPARE(architecture->summaryAt(architecture->stepCount() - 1).parameters,
                 with.adaptations.back().after.parameters);
    }

    // Issue 43, item 14: the comparison at several seeds, paired. Each seed's adapted run starts the
    // pages over; at the end every pair is overlaid, each seed's line is logged and the mean
    // difference stated with its interval; the window's run is the last seed's adapted one.
    void compares_over_seeds_paired()
    {
        QTemporaryDir tmp;
        app::MainWindow w;
        w.setRunsRoot(tmp.filePath(QStringLiteral("runs")));
        QVERIFY(w.openExperiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml"));
        QVERIFY(!w.startSeedComparisons({5, 5})); // refused before anything is cleared or trained
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("seed 5 is given twice")),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(w.startSeedComparisons({5, 6}));
        const QString out = w.currentRun();
        QTRY_VERIFY_WITH_TIMEOUT(!w.comparisonSummary().isEmpty(), 120000);
        QVERIFY2(w.comparisonSummary().contains(QStringLiteral("paired t over 2 seeds")),
                 qPrintable(w.comparisonSummary()));
        std::vector<double> differences;
        for (const auto seed : {5, 6}) {
            const auto dir = core::run::seed_folder(out.toStdString(), static_cast<std::uint64_t>(seed));
            const auto with = core::io::read_run(dir);
            const auto without = core::io::read_run(core::run::baseline_folder(dir));
            differences.push_back(*core::io::final_accuracy(with) - *core::io::final_accuracy(without));
        }
        QCOMPARE(w.comparisonSummary().toStdString(),
                 core::run::paired_difference_line(core::run::paired_difference(differences)));
        QTRY_COMPARE(w.currentRun(),
                     QString::fromStdString(core::run::seed_folder(out.toStdString(), 6).string()));
        QTRY_COMPARE(w.pages()->training->runNames().size(), 4);
        QCOMPARE(w.pages()->training->runNames().join(QLatin1Char(' ')),
                 QStringLiteral("seed-5 seed-5-none seed-6 seed-6-none"));
        const auto last = core::io::read_run(core::run::seed_folder(out.toStdString(), 6));
        QCOMPARE(w.pages()->policy->decisions()->decisions().size(), last.adaptations.size());
    }

    // The comparison is core's (core::run::run_comparison on the worker): both folders are checked
    // before anything trains, so a baseline folder holding someone's files fails the run at once,
    // naming that folder, and the adapted run is never started.
    void a_comparison_is_refused_before_training_when_its_baseline_folder_is_taken()
    {
        QTemporaryDir tmp;
        const QString adapted = tmp.filePath(QStringLiteral("run"));
        const QString baseline = QString::fromStdString(core::run::baseline_folder(adapted.toStdString()).string());
        QVERIFY(QDir().mkpath(baseline));
        QFile mine(baseline + QStringLiteral("/notes.txt"));
        QVERIFY(mine.open(QIODevice::WriteOnly));
        mine.write("mine\n");
        mine.close();

        app::RunController controller;
        QSignalSpy started(controller.worker(), &app::Worker::started);
        QSignalSpy states(&controller, &app::RunController::stateChanged);
        const auto config = core::config::load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
        QVERIFY(controller.startComparison(config, adapted));
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isActive(), 60000);
        QCOMPARE(controller.state(), app::RunState::Failed);
        const QString message = states.constLast().at(1).toString();
        QVERIFY2(message.contains(QFileInfo(baseline).fileName()), qPrintable(message));
        QVERIFY(started.isEmpty());
        QVERIFY(!QFileInfo::exists(adapted));
        QVERIFY(QFileInfo::exists(baseline + QStringLiteral("/notes.txt")));
    }
};

RLDA_SUITE_MAIN(TestCompareRuns)
#include "test_compare_runs.moc"
