// The worker behind the GUI: a whole tiny run observed with QSignalSpy, pause and resume, a cancel
// in the middle, and shutting down mid-run, waiting or not; every run leaves files that parse.
#include "app/workbench/torch_engine.h"
#include "app/workbench/worker.h"

#include "core/config/experiment_io.h"
#include "core/io/run_reader.h"
#include "tests/common/quick_experiment.h"
#include "tests/common/suite.h"
#include "tests/common/synthetic_table.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <atomic>
#include <filesystem>
#include <memory>

using namespace rlda;
using app::RunState; // a Q_ENUM: QCOMPARE prints its keys
using rlda::test::quick_experiment;

namespace {

QList<RunState> states(const QSignalSpy& spy)
{
    QList<RunState> s;
    for (const auto& args : spy)
        s.push_back(args.at(0).value<RunState>());
    return s;
}

// The epochs a worker has sent, counted on its thread as each is emitted, where a test polls them
// while the run goes on: a QSignalSpy there would be appended to on the worker's thread while the
// test reads it (a race ThreadSanitizer reports). The count outlives the test's scope.
class EpochCount {
public:
    explicit EpochCount(app::Worker* w)
    {
        QObject::connect(
            w, &app::Worker::epoch, w, [n = n_] { n->fetch_add(1); }, Qt::DirectConnection);
    }
    int count() const { return n_->load(); }

private:
    std::shared_ptr<std::atomic<int>> n_ = std::make_shared<std::atomic<int>>(0);
};

} // namespace

class TestWorker : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { app::installEngine(app::makeTorchEngine()); } // the suite trains
    void full_tiny_run()
    {
        QTemporaryDir tmp;
        app::RunController controller;
        auto* w = controller.worker();
        QSignalSpy stateSpy(&controller, &app::RunController::stateChanged);
        QSignalSpy startSpy(w, &app::Worker::started);
        QSignalSpy epochSpy(w, &app::Worker::epoch);
        QSignalSpy adaptSpy(w, &app::Worker::adaptation);
        QSignalSpy allocSpy(w, &app::Worker::allocation);
        QSignalSpy progressSpy(w, &app::Worker::progress);
        QSignalSpy finishedSpy(w, &app::Worker::trainingFinished);
        const QString out = tmp.filePath(QStringLiteral("run"));
        QVERIFY(controller.startTraining(quick_experiment(), out));
        QVERIFY(!controller.startTraining(quick_experiment(), out)); // one run at a time
        QTRY_COMPARE_WITH_TIMEOUT(controller.state(), RunState::Finished, 60000);

        QCOMPARE(startSpy.count(), 1);
        const auto start = startSpy.at(0).at(0).value<core::train::RunStart>();
        QCOMPARE(start.model.name, std::string("ConvNet2"));
        QCOMPARE(start.budget, 4.0);
        QVERIFY(epochSpy.count() >= 2);
        QCOMPARE(adaptSpy.count(), 2); // max_decisions = 2 after the "up" at 1 s
        QCOMPARE(allocSpy.count(), 1);
        QVERIFY(progressSpy.count() >= 1);
        QCOMPARE(finishedSpy.count(), 1);
        QVERIFY(!finishedSpy.at(0).at(0).value<core::train::RunResult>().cancelled);
        QCOMPARE(states(stateSpy).front(), RunState::Running);
        QCOMPARE(states(stateSpy).back(), RunState::Finished);

        const auto run = core::io::read_run(out.toStdString());
        QVERIFY(run.finished.has_value());
        QCOMPARE(run.adaptations.size(), std::size_t{2});
        QVERIFY(run.problems.empty());
    }

    void pause_resume_and_cancel()
    {
        QTemporaryDir tmp;
        app::RunController controller;
        const EpochCount epochSpy(controller.worker());
        QSignalSpy finishedSpy(controller.worker(), &app::Worker::trainingFinished);
        const QString out = tmp.filePath(QStringLiteral("run"));
        QVERIFY(controller.startTraining(quick_experiment(1000.0), out)); // far longer than the test
        QTRY_VERIFY_WITH_TIMEOUT(epochSpy.count() >= 1, 60000);

        controller.pause();
        // Paused is reported by the run once it waits between two batches: every epoch it sent
        // before is counted already (counted directly, on the worker's thread).
        QTRY_COMPARE(controller.state(), RunState::Paused);
        const int epochsWhenPaused = epochSpy.count();
        QCoreApplication::processEvents(); // whatever was queued before the pause is delivered
        QCOMPARE(epochSpy.count(), epochsWhenPaused); // nothing moves while paused
        QCOMPARE(controller.state(), RunState::Paused);
        controller.resume();
        QTRY_COMPARE(controller.state(), RunState::Running);
        QTRY_VERIFY_WITH_TIMEOUT(epochSpy.count() > epochsWhenPaused, 60000);

        controller.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(controller.state(), RunState::Cancelled, 30000);
        QCOMPARE(finishedSpy.count(), 1);
        QVERIFY(finishedSpy.at(0).at(0).value<core::train::RunResult>().cancelled);
        const auto run = core::io::read_run(out.toStdString());
        QVERIFY(run.finished.has_value() && run.finished->cancelled);
        QVERIFY(run.series.count("test_acc") == 1 && !run.series.at("test_acc").empty());
    }

    void cancel_while_paused()
    {
        QTemporaryDir tmp;
        app::RunController controller;
        const EpochCount epochSpy(controller.worker());
        QVERIFY(controller.startTraining(quick_experiment(1000.0), tmp.filePath(QStringLiteral("run"))));
        QTRY_VERIFY_WITH_TIMEOUT(epochSpy.count() >= 1, 60000);
        controller.pause();
        QTRY_COMPARE(controller.state(), RunState::Paused);
        controller.cancel(); // must wake the paused run
        QTRY_COMPARE_WITH_TIMEOUT(controller.state(), RunState::Cancelled, 30000);
    }

    void shutdown_mid_run_keeps_the_files()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("run"));
        {
            app::RunController controller;
            const EpochCount epochSpy(controller.worker());
            QVERIFY(controller.startTraining(quick_experiment(1000.0), out));
            QTRY_VERIFY_WITH_TIMEOUT(epochSpy.count() >= 2, 60000);
            controller.shutdown(); // what closing the window does
            QVERIFY(!controller.startTraining(quick_experiment(), tmp.filePath(QStringLiteral("other"))));
        }
        const auto run = core::io::read_run(out.toStdString());
        QVERIFY(run.finished.has_value() && run.finished->cancelled);
        QVERIFY(run.series.at("test_acc").size() >= 2);
        QVERIFY(std::filesystem::exists(out.toStdString() + "/model.pt"));
        QVERIFY(run.problems.empty());
    }

    // Closing the window waits a bounded time; a run still inside a step at the deadline is left to
    // stop on its own, and ends as a cancelled run with its files whole.
    void shutdown_past_its_deadline_lets_the_run_stop()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("run"));
        app::RunController controller;
        const EpochCount epochSpy(controller.worker());
        QSignalSpy stoppedSpy(&controller, &app::RunController::stopped);
        QVERIFY(controller.startTraining(quick_experiment(1000.0), out));
        QTRY_VERIFY_WITH_TIMEOUT(epochSpy.count() >= 1, 60000);
        QVERIFY(!controller.shutdown(QDeadlineTimer(0))); // mid-batch: not stopped yet
        QVERIFY(controller.isActive());
        QVERIFY(!controller.startTraining(quick_experiment(), tmp.filePath(QStringLiteral("other"))));
        QVERIFY(stoppedSpy.wait(30000));
        QCOMPARE(controller.state(), RunState::Cancelled);
        QVERIFY(controller.shutdown(QDeadlineTimer(0))); // nothing left to wait for
        const auto run = core::io::read_run(out.toStdString());
        QVERIFY(run.finished.has_value() && run.finished->cancelled);
        QVERIFY(std::filesystem::exists(out.toStdString() + "/model.pt"));
        QVERIFY(run.problems.empty());
    }

    void learning_run_streams_episodes()
    {
        QTemporaryDir tmp;
        app::RunController controller;
        QSignalSpy episodeSpy(controller.worker(), &app::Worker::episodes);
        QSignalSpy greedySpy(controller.worker(), &app::Worker::greedy);
        QSignalSpy doneSpy(controller.worker(), &app::Worker::learningFinished);
        core::run::LearnRunSettings s;
        s.stages = {{test::write_synthetic_table(tmp.filePath(QStringLiteral("table.csv")).toStdString()), 1200, 0.0}};
        QVERIFY(controller.startLearning(s, tmp.filePath(QStringLiteral("learn"))));
        QTRY_COMPARE_WITH_TIMEOUT(controller.state(), RunState::Finished, 60000);
        qint64 episodes = 0;
        qint64 last = 0;
        for (const auto& args : episodeSpy)
            for (const auto& r : args.at(0).value<std::vector<core::sim::EpisodeRecord>>()) {
                QCOMPARE(r.episode, last + 1); // in order, none lost to batching
                last = r.episode;
                ++episodes;
            }
        QCOMPARE(episodes, qint64{1200});
        QCOMPARE(greedySpy.count(), 3); // every 500 episodes and at the end
        QCOMPARE(doneSpy.count(), 1);
        QCOMPARE(doneSpy.at(0).at(0).value<core::run::LearnRunResult>().evaluation.sequences, 64);
    }

    void bad_config_fails_with_its_reason()
    {
        QTemporaryDir tmp;
        app::RunController controller;
        QSignalSpy stateSpy(&controller, &app::RunController::stateChanged);
        auto c = quick_experiment();
        c.dataset.kind = core::config::DatasetKind::Cifar10;
        c.dataset.path = "/no/such/cifar";
        QVERIFY(controller.startTraining(c, tmp.filePath(QStringLiteral("run"))));
        QTRY_COMPARE_WITH_TIMEOUT(controller.state(), RunState::Failed, 30000);
        QVERIFY(stateSpy.last().at(1).toString().contains(QStringLiteral("/no/such/cifar")));
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("run")))); // nothing written
    }
};

RLDA_SUITE_MAIN(TestWorker)
#include "test_worker.moc"
