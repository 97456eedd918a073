// The slurm sweep backend against a real (throw-away) Slurm cluster: the same table as a local build,
// a killed array task resubmitted, a cancelled sweep leaving only whole rows. Skipped without
// SLURM_CONF; scripts/test starts a cluster (scripts/lib/slurm-test-cluster.sh) and sets it.
#include "core/config/experiment_io.h"
#include "core/sim/build.h"
#include "core/sweep/slurm.h"
#include "core/table/table.h"
#include "core/util/error.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"
#include "tests/common/text_file.h"

#include <QtTest/QtTest>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace rlda::core;
namespace fs = std::filesystem;
using rlda::test::slurp;

namespace {

// ConvNet2 on 4 classes of 3x12x12, k = 2 decisions over 4 actions: 16 rows. `step_cost` sets the
// steps in the budget, so the time a row takes (about 0.5 s at 1.0 on one core).
std::string toml(double step_cost)
{
    std::ostringstream o;
    o << "name = \"slurmtiny\"\n"
      << "[job]\nmodel = \"ConvNet2\"\nbatch_size = 32\nseed = 5\n"
      << "[dataset]\nkind = \"synthetic\"\nshape = [3, 12, 12]\nclasses = 4\ntrain_size = 128\n"
      << "test_size = 64\nnoise = 4.0\n"
      << "[scheduler]\nbudget = 40.0\nevents = [{ time = 10.0, change = \"up\" }]\nstep_cost = " << step_cost
      << "\n"
      << "[trainer]\nmax_decisions = 2\n"
      << "[agent]\nkind = \"simulation\"\n"
      << "[sweep]\nbackend = \"slurm\"\npoll_seconds = 0.2\nmax_retries = 2\n";
    return o.str();
}

config::ExperimentConfig config_of(double step_cost)
{
    return config::parse_experiment(toml(step_cost), "slurmtiny.toml");
}

// Polls until finished; fails the test after `seconds`.
sweep::SweepStatus follow(sweep::SlurmSweep& job, double seconds)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    sweep::SweepStatus s;
    while (!job.finished()) {
        if (std::chrono::steady_clock::now() > deadline)
            return s;
        s = job.poll();
        if (!job.finished())
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return s;
}

// Whole rows in a part or table file (a reader's view while a task writes).
int rows_in(const fs::path& file)
{
    return static_cast<int>(sim::read_table_file(file, 2, /*growing=*/true).rows.size());
}

// What `squeue -h -j IDS` (active jobs only) prints.
QString squeue(const std::vector<std::string>& jobs)
{
    QStringList ids;
    for (const auto& j : jobs)
        ids << QString::fromStdString(j);
    QProcess p;
    p.start("squeue", {"-h", "-r", "-j", ids.join(','), "-o", "%i %T"});
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

} // namespace

class TestSlurm : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    fs::path folder(const char* name) const { return dir_.filePath(name).toStdString(); }

    // A prepared and submitted sweep of `parts` tasks.
    sweep::SlurmSweep submit(const config::ExperimentConfig& c, const fs::path& out, int parts)
    {
        sim::prepare_sweep(c, out, false);
        return sweep::SlurmSweep::submit(c, out, rlda::test::rlda_program.toStdString(), parts);
    }

private Q_SLOTS:
    void initTestCase()
    {
        // scripts/test names why its throw-away cluster did not start (slurm_cluster_for_tests).
        if (const char* why = std::getenv("RLDA_NO_SLURM_CLUSTER"); !std::getenv("SLURM_CONF") && why)
            QSKIP(qPrintable(QStringLiteral("SLURM_CONF is not set: scripts/test's throw-away Slurm cluster did not "
                                            "start: %1")
                                 .arg(QString::fromUtf8(why))));
        if (!std::getenv("SLURM_CONF"))
            QSKIP("SLURM_CONF is not set: these tests need a Slurm cluster; scripts/test starts a throw-away one "
                  "(scripts/lib/slurm-test-cluster.sh start DIR)");
        QVERIFY(dir_.isValid());
        QVERIFY(fs::exists(rlda::test::rlda_program.toStdString()));
    }

    void equivalence()
    {
        const auto c = config_of(1.0);
        const auto local = folder("local");
        const auto table = sim::build_table(c, local, false);
        QVERIFY(table.complete());

        const auto out = folder("slurm");
        auto job = submit(c, out, 2);
        QCOMPARE(job.parts(), 2);
        QVERIFY(fs::exists(out / "sweep.sbatch"));
        const auto s = follow(job, 90);
        QVERIFY2(job.finished(), "the sweep did not end within 90 s");
        QVERIFY(s.collected);
        QCOMPARE(s.rows_done, 16);
        QCOMPARE(s.count(sweep::TaskState::Done), 2);
        QVERIFY(slurp(out / "table.csv") == slurp(local / "table.csv"));

        // Re-attaching from the record finds the same sweep, already collected.
        auto again = sweep::SlurmSweep::attach(out);
        QCOMPARE(again.job_ids(), job.job_ids());
        QVERIFY(again.poll().collected);
        QVERIFY(again.finished());
    }

    void killed_task_is_resubmitted()
    {
        // About 1 s a row: part 1 is killed after its first row, well before its eighth.
        const auto c = config_of(0.5);
        const auto out = folder("killed");
        auto job = submit(c, out, 2);
        const auto part1 = sim::part_file(out, 1, 2);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (rows_in(part1) < 1) {
            QVERIFY2(std::chrono::steady_clock::now() < deadline, "part 1 wrote no row within 60 s");
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        const QString task = QString::fromStdString(job.job_ids().front() + "_1");
        QCOMPARE(QProcess::execute("scancel", {"--signal=KILL", task}), 0);
        QVERIFY(rows_in(part1) < 8);

        const auto s = follow(job, 90);
        QVERIFY2(job.finished(), "the sweep did not end within 90 s");
        QVERIFY(s.collected);
        QCOMPARE(s.tasks.at(0).attempts, 1);
        QCOMPARE(s.tasks.at(1).attempts, 2);
        QCOMPARE(job.job_ids().size(), std::size_t{2});
        const auto table = sim::SimulationTable::load((out / "table.csv").string());
        QVERIFY(table.complete());
        // The record says what happened, for `rlda sweep status`.
        const auto record = slurp(out / "sweep.json");
        QVERIFY(record.find(job.job_ids().back()) != std::string::npos);
    }

    void cancel_leaves_whole_rows()
    {
        const auto c = config_of(0.5);
        const auto out = folder("cancelled");
        auto job = submit(c, out, 2);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (rows_in(sim::part_file(out, 0, 2)) + rows_in(sim::part_file(out, 1, 2)) < 1) {
            QVERIFY2(std::chrono::steady_clock::now() < deadline, "no row within 60 s");
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        job.cancel();
        QVERIFY(job.finished());
        QCOMPARE(squeue(job.job_ids()), QString());

        // Another process attaching sees it cancelled and does not resubmit.
        auto again = sweep::SlurmSweep::attach(out);
        const auto s = again.poll();
        QVERIFY(s.cancelled);
        QVERIFY(!s.collected);
        QVERIFY(again.finished());
        QCOMPARE(again.job_ids().size(), std::size_t{1});

        // table.csv holds the finished rows, whole lines only, and loads.
        const auto text = slurp(out / "table.csv");
        QVERIFY(!text.empty());
        QVERIFY(text.ends_with("\n"));
        const auto table = sim::SimulationTable::load((out / "table.csv").string(), 4);
        QVERIFY(!table.rows().empty());
        QVERIFY(!table.complete());
        QCOMPARE(static_cast<int>(table.rows().size()), s.rows_done);
    }

    void missing_sbatch_is_one_clear_line()
    {
        const auto c = config_of(1.0);
        const auto out = folder("nosbatch");
        sim::prepare_sweep(c, out, false);
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", "/nonexistent");
        QString message;
        try {
            sweep::SlurmSweep::submit(c, out, rlda::test::rlda_program.toStdString(), 2);
        } catch (const Error& e) {
            message = e.what();
        }
        qputenv("PATH", path);
        QVERIFY2(message.startsWith("sbatch"), qPrintable(message));
        QVERIFY2(message.contains("not found"), qPrintable(message));
        QVERIFY(!message.contains('\n'));
        QVERIFY(!fs::exists(out / "sweep.json"));
    }

    void bad_sbatch_option_names_the_command()
    {
        auto c = config_of(1.0);
        c.sweep.sbatch_args = {"--no-such-option"};
        const auto out = folder("badoption");
        sim::prepare_sweep(c, out, false);
        QString message;
        try {
            sweep::SlurmSweep::submit(c, out, rlda::test::rlda_program.toStdString(), 2);
        } catch (const Error& e) {
            message = e.what();
        }
        QVERIFY2(message.startsWith("sbatch"), qPrintable(message));
        QVERIFY2(message.contains("failed"), qPrintable(message));
        QVERIFY2(message.contains("no-such-option"), qPrintable(message));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestSlurm)
#include "test_slurm.moc"
