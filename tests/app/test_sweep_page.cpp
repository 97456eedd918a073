// The Sweeps page: a local sweep submitted from the workbench completes and collects its table,
// a new window re-attaches to a sweep still running, and cancel stops it with whole rows only.
#include "app/workbench/close_guard.h"
#include "app/workbench/main_window.h"
#include "app/workbench/sweep_page.h"
#include "app/workbench/torch_engine.h"

#include "core/config/experiment_io.h"
#include "core/sweep/detached.h"
#include "core/table/race.h"
#include "core/table/table.h"
#include "tests/common/quick_experiment.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "widgets/job_tracker.h"
#include "widgets/run/sweep_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>


#include <algorithm>
#include <filesystem>
#include <memory>

using namespace rlda;

namespace {

// The quick experiment, one thread per task: ConvNet2, 2 decisions, 16 rows.
core::config::ExperimentConfig one_thread_quick()
{
    auto c = rlda::test::quick_experiment();
    c.sweep.threads_per_task = 1;
    return c;
}

// reattach() looks off the GUI thread; its answer comes as reattached(found).
bool reattach(app::SweepPage& page)
{
    QSignalSpy answer(&page, &app::SweepPage::reattached);
    page.reattach();
    return answer.wait(30000) && answer.at(0).at(0).toBool();
}

bool torch_has_cuda()
{
    return rlda::app::engine().cudaDeviceCount() > 0;
}

} // namespace

class TestSweepPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A local sweep asks the engine whether its device exists, as the program does.
    void initTestCase() { app::installEngine(app::makeTorchEngine()); }
    // Closing the window while a sweep runs asks (issue 43, item 12): the build goes on, and the
    // Sweeps page follows it again at the next start; "stay" keeps the window.
    void a_local_sweep_completes_and_a_new_page_reattaches()
    {
        QTemporaryDir tmp;
        QString folder;
        {
            app::MainWindow w;
            app::SweepPage& page = *w.sweeps();
            page.setRunsRoot(tmp.path());
            QVERIFY(page.submit(one_thread_quick(), rlda::core::config::SweepBackend::Local, 2));
            QVERIFY(page.isActive());
            QVERIFY(!page.submit(one_thread_quick(), rlda::core::config::SweepBackend::Local,
                                 2)); // one at a time
            folder = page.folder();
            QStringList asked;
            w.closeGuard()->setSweepPrompt([&asked](const QString& f) {
                asked << f;
                return false; // stay
            });
            w.show();
            QVERIFY(!w.close());
            QCOMPARE(asked, QStringList{folder});
            w.closeGuard()->setSweepPrompt([&asked](const QString& f) {
                asked << f;
                return true; // close; the build goes on
            });
            QVERIFY(w.close());
            QCOMPARE(asked.size(), 2);
            const std::unique_ptr<QMessageBox> box(app::CloseGuard::sweepPromptBox(nullptr, folder));
            QVERIFY(box->informativeText().contains(QStringLiteral("Sweeps page finds the build")));
            QVERIFY(box->findChild<QPushButton*>(QStringLiteral("closeSweep")) == box->defaultButton());
        } // the window is gone; the detached sweep goes on

        app::SweepPage again;
        again.setRunsRoot(tmp.path());
        QSignalSpy done(&again, &app::SweepPage::finished);
        QVERIFY(reattach(again));
        QCOMPARE(again.folder(), folder);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 180000);
        const auto table = core::sim::SimulationTable::load((folder + "/table.csv").toStdString());
        QVERIFY(table.complete());
        QCOMPARE(table.rows().size(), std::size_t{16});
        auto* tasks = again.panel()->tasks();
        QCOMPARE(tasks->rowCount(), 2);
        for (int r = 0; r < 2; ++r)
            QCOMPARE(tasks->item(r, widgets::SweepPanel::StateColumn)->text(), QStringLiteral("done"));
        QTRY_VERIFY(!again.isActive());
        app::SweepPage empty;
        QVERIFY(!reattach(empty)); // nothing unfinished under an empty root
    }

    // Seeds on the panel build a replicated table: each seed's rows, collected into one table whose
    // accuracy is their mean; the summary counts the rows of every seed. Fused on the panel, the
    // seeds of each part train as one model, and the sweep's settings say so.
    void seeds_on_the_panel_build_a_replicated_table()
    {
        QTemporaryDir tmp;
        app::SweepPage page;
        page.setRunsRoot(tmp.path());
        page.panel()->setSeedValuesText(QStringLiteral("7 9")); // by value (issue 43, item 22)
        auto* fused = page.panel()->findChild<QComboBox*>(QStringLiteral("sweepFused"));
        QVERIFY(fused);
        QCOMPARE(fused->itemData(0).toString(), QString()); // the experiment's own
        for (const char* name : {"auto", "on", "off"})
            QVERIFY(fused->findData(QString::fromLatin1(name)) > 0);
        page.panel()->setFused(QStringLiteral("on"));
        auto* open = page.panel()->findChild<QPushButton*>(QStringLiteral("openSweepTable"));
        QVERIFY(open && !open->isEnabled());
        QCOMPARE(page.panel()->findChild<QProgressBar*>()->text(), QStringLiteral("no sweep yet"));
        QSignalSpy done(&page, &app::SweepPage::finished);
        auto c = one_thread_quick();
        c.job.seed = 7;
        QVERIFY(page.submit(c, rlda::core::config::SweepBackend::Local, 2));
        QVERIFY(!page.panel()->findChild<QSpinBox*>(QStringLiteral("sweepSeeds"))->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 240000);
        const auto table = core::sim::SimulationTable::load((page.folder() + "/table.csv").toStdString());
        QVERIFY(table.complete());
        QCOMPARE(table.seeds(), (std::vector<std::uint64_t>{7, 9}));
        const auto settings = core::config::load_experiment(core::sweep::settings_file(page.folder().toStdString()).string());
        QVERIFY(settings.sweep.fused == core::config::FusedReplicates::On);
        for (const auto& row : table.rows())
            QCOMPARE(row.replicates.size(), std::size_t{2});
        const QString summary = page.panel()->summaryText();
        QVERIFY2(summary.contains(QStringLiteral("32 of 32 rows (2 seeds of 16)")), qPrintable(summary));
        QTRY_VERIFY(!page.isActive());
        QCOMPARE(page.panel()->stagesText(),
                 QStringLiteral("Stages: ✓ warm start › ✓ rows 32/32 › ✓ table collected"));
        // The finished sweep leads to its table.
        QVERIFY(open->isEnabled());
        QSignalSpy opened(page.panel(), &widgets::SweepPanel::openTableRequested);
        open->click();
        QCOMPARE(opened.count(), 1);
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty()) {
            page.resize(900, 300);
            QVERIFY(page.grab().save(shots + QStringLiteral("/sweeps-replicated.png")));
        }
    }

    // Race on the panel: a race from 3 seeds of job.seed, followed through its rounds to its end, which
    // the page names; a race on Slurm is refused before anything starts.
    void race_on_the_panel_races_the_table()
    {
        QTemporaryDir tmp;
        app::SweepPage page;
        page.setRunsRoot(tmp.path());
        auto* race = page.panel()->findChild<QCheckBox*>(QStringLiteral("sweepRace"));
        QVERIFY(race && !race->isChecked());
        page.panel()->setRace(true);
        auto c = one_thread_quick();
        c.sweep.race_max_seeds = 4;
        QVERIFY(!page.submit(c, rlda::core::config::SweepBackend::Slurm, 2));
        QVERIFY2(page.panel()
                     ->findChild<QLabel*>(QStringLiteral("sweepMessage"))
                     ->text()
                     .contains(QStringLiteral("choose the local backend")),
                 "a race on Slurm is refused");
        QSignalSpy done(&page, &app::SweepPage::finished);
        QVERIFY(page.submit(c, rlda::core::config::SweepBackend::Local, 2));
        QVERIFY(!race->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 240000);
        const auto settings =
            core::config::load_experiment(core::sweep::settings_file(page.folder().toStdString()).string());
        QVERIFY(settings.sweep.race);
        QCOMPARE(settings.sweep.seeds,
                 core::config::consecutive_seeds(static_cast<std::int64_t>(c.job.seed), 3));
        const auto rounds = core::sim::read_race_log(page.folder().toStdString() + "/race.csv");
        QVERIFY(!rounds.empty() && rounds.back().end);
        const QString message = page.panel()->findChild<QLabel*>(QStringLiteral("sweepMessage"))->text();
        QVERIFY2(message.startsWith(QStringLiteral("Race done after %1 rounds").arg(rounds.size())),
                 qPrintable(message));
        QTRY_VERIFY(!page.isActive());
        if (const QString shots = rlda::test::screenshotDir(); !shots.isEmpty()) {
            page.resize(900, 300);
            QVERIFY(page.grab().save(shots + QStringLiteral("/sweeps-race.png")));
        }
    }

    // The panel offers the schema's devices; a local sweep on a GPU this machine lacks is refused
    // at once, in one line naming job.device, before any folder or process exists.
    void the_device_is_chosen_on_the_panel_and_a_missing_gpu_is_refused()
    {
        widgets::SweepPanel panel;
        auto* device = panel.findChild<QComboBox*>(QStringLiteral("sweepDevice"));
        QVERIFY(device);
        QCOMPARE(device->itemData(0).toString(), QString()); // the experiment's own
        QVERIFY(device->findData(QStringLiteral("cuda")) > 0 && device->findData(QStringLiteral("cpu")) > 0);
        if (torch_has_cuda())
            QSKIP("this machine has a CUDA GPU: there is nothing to refuse");
        QTemporaryDir tmp;
        app::SweepPage page;
        page.setRunsRoot(tmp.path());
        page.panel()->setDevice(QStringLiteral("cuda"));
        QCOMPARE(page.panel()->device(), QStringLiteral("cuda"));
        QVERIFY(!page.submit(one_thread_quick(), rlda::core::config::SweepBackend::Local, 2));
        QVERIFY(!page.isActive());
        const QString message = page.panel()->findChild<QLabel*>(QStringLiteral("sweepMessage"))->text();
        QVERIFY2(message.startsWith(QStringLiteral("job.device: \"cuda\" needs a CUDA GPU")) && !message.contains('\n'),
                 qPrintable(message));
        QVERIFY(QDir(tmp.path()).isEmpty());
    }

    void a_slurm_sweep_completes_after_reattaching()
    {
        // scripts/test names why its throw-away cluster did not start (slurm_cluster_for_tests).
        if (const QString why = qEnvironmentVariable("RLDA_NO_SLURM_CLUSTER");
            !qEnvironmentVariableIsSet("SLURM_CONF") && !why.isEmpty())
            QSKIP(qPrintable(
                QStringLiteral("SLURM_CONF is not set: scripts/test's throw-away Slurm cluster did not start: %1").arg(why)));
        if (!qEnvironmentVariableIsSet("SLURM_CONF"))
            QSKIP("SLURM_CONF is not set: this test needs a Slurm cluster; scripts/test starts a throw-away one "
                  "(scripts/lib/slurm-test-cluster.sh start DIR)");
        QTemporaryDir tmp;
        QString folder;
        {
            app::SweepPage page;
            page.setRunsRoot(tmp.path());
            QVERIFY(page.submit(one_thread_quick(), rlda::core::config::SweepBackend::Slurm, 2));
            folder = page.folder();
            // Closing once the jobs are queued: the page must find them through sweep.json.
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(folder + "/sweep.json"), 120000);
        }
        app::SweepPage again;
        again.setRunsRoot(tmp.path());
        QSignalSpy done(&again, &app::SweepPage::finished);
        QVERIFY(reattach(again));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 180000);
        QVERIFY(core::sim::SimulationTable::load((folder + "/table.csv").toStdString()).complete());
        auto* tasks = again.panel()->tasks();
        QCOMPARE(tasks->rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(tasks->item(r, widgets::SweepPanel::StateColumn)->text(), QStringLiteral("done"));
            QVERIFY(tasks->item(r, widgets::SweepPanel::IdColumn)->text().contains(QLatin1Char('_'))); // JOB_TASK
        }
    }

    void a_poll_in_flight_is_never_doubled_and_closing_mid_poll_is_safe()
    {
        // A local sweep that stopped before its warm start: what a marker and its settings say.
        QTemporaryDir tmp;
        const QString folder = tmp.filePath(QStringLiteral("quick-table"));
        QVERIFY(QDir().mkpath(folder));
        {
            const std::filesystem::path dir = folder.toStdString();
            QFile toml(QString::fromStdString(core::sweep::settings_file(dir).string()));
            QVERIFY(toml.open(QIODevice::WriteOnly));
            toml.write(QByteArray::fromStdString(core::config::to_toml(one_thread_quick())));
            core::sweep::write_marker({dir, core::config::SweepBackend::Local, 2, 0});
        }
        {
            app::SweepPage page;
            page.setRunsRoot(tmp.path());
            QSignalSpy polled(&page, &app::SweepPage::polled);
            QVERIFY(reattach(page));
            QCOMPARE(page.folder(), folder);
            QVERIFY(polled.wait(10000)); // the poll reattach() starts
            QVERIFY(!page.isActive());
            polled.clear();
            page.poll();
            QVERIFY(app::sweepPollInFlight(page));
            page.poll(); // skipped: the last one has not answered
            page.poll();
            QVERIFY(polled.wait(10000));
            QCOMPARE(polled.count(), 1);
            QVERIFY(!app::sweepPollInFlight(page));
            const auto labels = page.panel()->findChildren<QLabel*>();
            QVERIFY(std::any_of(labels.begin(), labels.end(), [](const QLabel* l) {
                return l->text() == QStringLiteral("Stopped before the warm start.");
            })); // what the answer said is shown
            page.poll(); // and the page goes while this one reads
        }
        QVERIFY(widgets::waitForJobs(std::chrono::seconds(10)));
        QCoreApplication::processEvents(); // its answer is dropped: nothing to crash on
    }

    void cancel_stops_the_sweep_with_whole_rows()
    {
        QTemporaryDir tmp;
        app::SweepPage page;
        page.setRunsRoot(tmp.path());
        auto c = one_thread_quick();
        c.scheduler.budget = 40.0; // long enough to cancel mid-sweep
        QVERIFY(page.submit(c, rlda::core::config::SweepBackend::Local, 2));
        const QString parts = page.folder() + "/parts";
        QTRY_VERIFY_WITH_TIMEOUT(QDir(parts).entryList({QStringLiteral("*.csv")}).size() >= 1, 120000);
        page.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isActive(), 30000);
        // Whatever was written is whole lines: each part file ends with a newline.
        for (const QString& f : QDir(parts).entryList({QStringLiteral("*.csv")})) {
            QFile file(parts + "/" + f);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray text = file.readAll();
            QVERIFY(text.isEmpty() || text.endsWith('\n'));
        }
    }
};

RLDA_SUITE_MAIN(TestSweepPage)
#include "test_sweep_page.moc"
