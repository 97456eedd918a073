// Live run folders: the run browser sees a run another writer is writing (it appears, its status and
// result change, it finishes) with no Refresh, `rlda simulate` from outside grows a table's rows, and
// an opened run that grows keeps growing in the Training and Learning views (RunFollower).
#include "widgets/plot/learning_view.h"
#include "widgets/plot/series_plot.h"
#include "widgets/plot/training_view.h"
#include "widgets/run/run_browser.h"
#include "widgets/run/run_follower.h"
#include "widgets/run/run_watcher.h"

#include "tests/common/screenshots.h"

#include "core/io/run_folder.h"
#include "core/job/events.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_sim.h"
#include "tests/widgets/run/run_table.h"

#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

using rlda::core::io::RunData;
using rlda::core::io::RunFolder;
using rlda::widgets::RunBrowser;
using rlda::widgets::RunFollower;
namespace fs = std::filesystem;
namespace train = rlda::core::train;

namespace {

using rlda::tests::cell;

bool listed(RunBrowser& b, const QString& root)
{
    QSignalSpy spy(&b, &RunBrowser::listed);
    b.setRoot(root);
    return spy.wait(30000);
}

train::EpochMetrics epoch(int i, double acc)
{
    train::EpochMetrics m;
    m.epoch = i;
    m.time = 4.0 * i;
    m.train_acc = acc;
    m.test_acc = acc;
    m.train_loss = 1.0 / i;
    m.lr = 0.01;
    m.parameters = 1000;
    m.steps = std::int64_t{10} * i;
    return m;
}

train::RunResult result(double acc)
{
    train::RunResult r;
    r.final_test_acc = acc;
    r.epochs = 3;
    r.steps = 30;
    return r;
}

const std::string kEpisodeHeader = "episode,time,objective,accuracy,reward,lr,temperature,actions,probabilities";
std::string episodeRow(int e) { return std::to_string(e) + ",0.1,-1,0.5,0,0.001,1,0 1,0.5 0.5 | 0.5 0.5"; }

} // namespace

class TestRunLive : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The acceptance case: the run is written by core's run writer while the browser shows the root.
    void aRunBeingWrittenAppearsAndFinishesWithoutRefresh()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("runs"));
        QDir().mkpath(root);
        RunBrowser b;
        b.resize(900, 520);
        b.show();
        QVERIFY(QTest::qWaitForWindowExposed(&b));
        QVERIFY(listed(b, root));
        QCOMPARE(b.runs().size(), 0);
        QVERIFY(b.watchedPaths().contains(root));
        // A finished neighbour, for the picture.
        {
            RunFolder done(fs::path(root.toStdString()) / "done", false);
            done.write_text("config.toml", "name = \"done\"\n[job]\nlr = 0.01\n");
            done.on_epoch(epoch(1, 0.6));
            done.on_finished(result(0.6));
        }
        QTRY_COMPARE_WITH_TIMEOUT(cell(b, QStringLiteral("done"), 3), QStringLiteral("finished"), 5000);
        QSignalSpy listedAgain(&b, &RunBrowser::listed);

        QElapsedTimer clock;
        clock.start();
        auto folder = std::make_unique<RunFolder>(fs::path(root.toStdString()) / "live", false);
        folder->write_text("config.toml", "name = \"live\"\n[job]\nlr = 0.02\n");
        folder->on_epoch(epoch(1, 0.25));
        QTRY_COMPARE_WITH_TIMEOUT(cell(b, QStringLiteral("live"), 2), QStringLiteral("acc 0.250"), 2000);
        qInfo("appeared after %lld ms", qint64(clock.elapsed()));
        QCOMPARE(cell(b, QStringLiteral("live"), 3), QStringLiteral("running"));
        // Its files are followed while it is written.
        QVERIFY(b.watchedPaths().contains(root + QStringLiteral("/live/events.jsonl")));

        b.selectRuns({1});
        QCOMPARE(b.selectedRuns().front().name, std::string("live"));
        folder->on_epoch(epoch(2, 0.5));
        QTRY_COMPARE_WITH_TIMEOUT(cell(b, QStringLiteral("live"), 2), QStringLiteral("acc 0.500"), 5000);
        QCOMPARE(b.selectedRuns().size(), 1); // the live update kept the selection
        QCOMPARE(b.selectedRuns().front().name, std::string("live"));
        QTRY_VERIFY(b.findChild<QLabel*>(QStringLiteral("summaryLabel"))->text().contains(QStringLiteral("running")));
        rlda::test::shot(b, QStringLiteral("runs-live"));
        folder->on_epoch(epoch(3, 0.75));
        folder->on_finished(result(0.75));
        folder.reset();
        QTRY_COMPARE_WITH_TIMEOUT(cell(b, QStringLiteral("live"), 3), QStringLiteral("finished"), 5000);
        QCOMPARE(cell(b, QStringLiteral("live"), 2), QStringLiteral("acc 0.750"));
        QCOMPARE(listedAgain.count(), 0); // no Refresh: live rescans only
        // Finished, only its folder stays watched, not its files.
        QTRY_VERIFY(!b.watchedPaths().contains(root + QStringLiteral("/live/events.jsonl")));
        QVERIFY(b.watchedPaths().contains(root + QStringLiteral("/live")));
    }

    // Issue 42, item 27: a root deleted and made again is followed again, its count current.
    void aRootDeletedAndMadeAgainIsFollowedAgain()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("runs"));
        QDir().mkpath(root);
        RunBrowser b;
        QVERIFY(listed(b, root));
        const auto write_run = [&](const char* name) {
            RunFolder run(fs::path(root.toStdString()) / name, false);
            run.on_epoch(epoch(1, 0.5));
            run.on_finished(result(0.5));
        };
        write_run("one");
        QTRY_COMPARE_WITH_TIMEOUT(b.runs().size(), 1, 5000);
        QVERIFY(QDir(root).removeRecursively());
        QTRY_COMPARE_WITH_TIMEOUT(b.runs().size(), 0, 5000);
        QVERIFY(QDir().mkpath(root));
        write_run("two");
        QTRY_COMPARE_WITH_TIMEOUT(b.runs().size(), 1, 3 * rlda::widgets::RunWatcher::kPollMs);
        QCOMPARE(b.runs().front().name, std::string("two"));
    }

    // A run in a group folder made after the listing (runs/group/run) is found too.
    void aRunInANewSubfolderAppears()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path();
        RunBrowser b;
        QVERIFY(listed(b, root));
        QDir().mkpath(root + QStringLiteral("/group"));
        QTRY_VERIFY_WITH_TIMEOUT(b.watchedPaths().contains(root + QStringLiteral("/group")), 5000);
        RunFolder folder(fs::path(root.toStdString()) / "group" / "inner", false);
        folder.on_epoch(epoch(1, 0.5));
        QTRY_COMPARE_WITH_TIMEOUT(cell(b, QStringLiteral("group/inner"), 2), QStringLiteral("acc 0.500"), 5000);
    }

    // From a terminal: `rlda simulate` builds a table; its rows count up to 16/16 with no Refresh.
    void rldaSimulateFromOutsideGrowsItsRows()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("runs"));
        QDir().mkpath(root);
        const QString config = tmp.filePath(QStringLiteral("tiny.toml"));
        std::ofstream(config.toStdString()) << rlda::test::tiny_toml;
        RunBrowser b;
        QVERIFY(listed(b, root));
        QStringList shown; // the status of each live rescan, while it runs
        QObject::connect(&b, &RunBrowser::updated, &b, [&] { shown << cell(b, QStringLiteral("sim"), 3); });
        QProcess p;
        p.start(rlda::test::rlda_program, {QStringLiteral("simulate"), config, QStringLiteral("--out"),
                                           root + QStringLiteral("/sim")});
        QVERIFY(p.waitForStarted());
        const qint64 pid = p.processId();
        QTRY_VERIFY_WITH_TIMEOUT(!cell(b, QStringLiteral("sim"), 3).isEmpty(), 60000);
        QSignalSpy done(&p, &QProcess::finished);
        QVERIFY(done.wait(300000));
        QCOMPARE(p.exitCode(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(cell(b, QStringLiteral("sim"), 3), QStringLiteral("16/16 rows"), 5000);
        QCOMPARE(rlda::tests::runModel(b)->tableStatus(0)->rows, 16);
        // Rows counted up while it ran, its process named: some rescan showed a part of them.
        const QRegularExpression partial(
            QStringLiteral("^building, ([1-9]|1[0-5])/16 rows, pid %1$").arg(pid));
        QVERIFY2(std::any_of(shown.begin(), shown.end(), [&](const QString& t) { return partial.match(t).hasMatch(); }),
                 qPrintable(shown.join(QStringLiteral(" | "))));
    }

    void theTrainingViewFollowsAnOpenedRun()
    {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "grow";
        auto folder = std::make_unique<RunFolder>(dir, false);
        folder->on_epoch(epoch(1, 0.25));
        folder->on_epoch(epoch(2, 0.5));
        const RunData opened = rlda::core::io::read_run(dir);

        rlda::widgets::TrainingView view;
        view.setRun(opened);
        RunFollower follower;
        QObject::connect(&follower, &RunFollower::appended, &view, &rlda::widgets::TrainingView::appendRun);
        follower.follow(opened);
        QVERIFY(follower.isFollowing());
        QCOMPARE(view.plot()->pointCount(QStringLiteral("test_acc")), 2);

        folder->on_allocation({9.0, train::Allocation::Up, "consulting the agent"});
        folder->on_epoch(epoch(3, 0.75));
        QTRY_COMPARE_WITH_TIMEOUT(view.plot()->pointCount(QStringLiteral("test_acc")), 3, 5000);
        QCOMPARE(view.plot()->values(QStringLiteral("test_acc")).back(), 0.75);
        QTRY_COMPARE(view.plot()->markerCount(), 1); // the "up" marker
        folder->on_epoch(epoch(4, 0.8));
        folder->on_finished(result(0.8));
        folder.reset();
        QTRY_COMPARE_WITH_TIMEOUT(view.plot()->pointCount(QStringLiteral("test_acc")), 4, 5000);
        QTRY_VERIFY(!follower.isFollowing()); // finished: nothing more will come
        // Each point once: nothing appended twice.
        QCOMPARE(view.plot()->pointCount(QStringLiteral("train_loss")), 4);

        // Another run's records never land in the view.
        RunData other;
        other.path = dir.parent_path() / "other";
        other.series["test_acc"] = {{5, 20, 0.1}};
        view.appendRun(other);
        QCOMPARE(view.plot()->pointCount(QStringLiteral("test_acc")), 4);
    }

    void theLearningViewFollowsAnOpenedRun()
    {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "learn";
        auto folder = std::make_unique<RunFolder>(dir, false);
        for (int e = 1; e <= 3; ++e)
            folder->series_row("episodes", kEpisodeHeader, episodeRow(e));
        const RunData opened = rlda::core::io::read_run(dir);
        rlda::widgets::LearningView view;
        view.setRun(opened);
        QCOMPARE(view.plot()->pointCount(QStringLiteral("objective")), 3); // a point per episode
        RunFollower follower;
        QObject::connect(&follower, &RunFollower::appended, &view, &rlda::widgets::LearningView::appendRun);
        follower.follow(opened);
        for (int e = 4; e <= 10; ++e)
            folder->series_row("episodes", kEpisodeHeader, episodeRow(e));
        QTRY_COMPARE_WITH_TIMEOUT(view.plot()->pointCount(QStringLiteral("objective")), 10, 5000);
        // A live run (clear()) is not the followed one any more.
        view.clear();
        folder->series_row("episodes", kEpisodeHeader, episodeRow(11));
        QSignalSpy more(&follower, &RunFollower::appended);
        QVERIFY(more.wait(5000));
        QCOMPARE(view.plot()->pointCount(QStringLiteral("objective")), 0);
    }

    // The same folder written again from the start (--force): the whole run, not a tail.
    void aRunStartedAgainIsRewritten()
    {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "again";
        {
            RunFolder folder(dir, false);
            folder.on_epoch(epoch(1, 0.25));
            folder.on_epoch(epoch(2, 0.5));
        }
        RunFollower follower;
        QSignalSpy rewritten(&follower, &RunFollower::rewritten);
        follower.follow(rlda::core::io::read_run(dir));
        RunFolder again(dir, true);
        again.on_epoch(epoch(1, 0.3));
        QTRY_VERIFY_WITH_TIMEOUT(rewritten.count() > 0, 5000);
        const auto run = rewritten.first().at(0).value<RunData>();
        QVERIFY(!run.series.count("test_acc") || run.series.at("test_acc").size() <= 1);
    }
};

RLDA_SUITE_MAIN(TestRunLive)
#include "test_run_live.moc"
