// Sweeps: a table built in parts and collected equals a plain build byte for byte; the `local`
// backend with 1 and 2 worker processes; a killed part retried; a killed parent's workers end with
// it; torn lines; bad --part values; a sweep stopped as the workbench stops it, and read as it reads it.
#include "core/config/experiment_io.h"
#include "core/sim/build.h"
#include "core/sweep/detached.h"
#include "core/sweep/local.h"
#include "core/sweep/process.h"
#include "core/table/table_folder.h"
#include "core/util/error.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_sim.h"

#include <QtTest/QtTest>

#include <fmt/format.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace rlda::core;

namespace {


using rlda::test::error_of;
using rlda::test::slurp;
using rlda::test::tiny_config;
using rlda::test::tiny_toml;

// Pids of running `rlda simulate … --part PART` processes working on `out`.
std::vector<pid_t> part_processes(const std::string& out, const std::string& part)
{
    std::vector<pid_t> pids;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::string cmd = slurp(e.path() / "cmdline");
        std::vector<std::string> args;
        std::stringstream s(cmd);
        for (std::string a; std::getline(s, a, '\0');)
            args.push_back(a);
        const auto has = [&](const std::string& x) { return std::find(args.begin(), args.end(), x) != args.end(); };
        if (has("simulate") && has("--part") && has(part) && has(out))
            pids.push_back(static_cast<pid_t>(std::stoi(name)));
    }
    return pids;
}

std::size_t whole_rows(const std::filesystem::path& file)
{
    return sim::read_table_file(file, 2, /*growing=*/true).rows.size();
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string reference_; // table.csv of a plain build_table
    QString config_;

    std::filesystem::path folder(const char* name) const { return dir_.filePath(name).toStdString(); }

    // Runs rlda with `args`; returns {exit code, stdout, stderr}.
    std::tuple<int, QString, QString> rlda(const QStringList& args, int timeout_ms = 120000)
    {
        QProcess p;
        p.start(rlda::test::rlda_program, args);
        if (!p.waitForFinished(timeout_ms))
            return {-1, {}, "timed out"};
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
                QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        config_ = dir_.filePath("tiny.toml");
        std::ofstream(config_.toStdString()) << tiny_toml;
        QElapsedTimer timer;
        timer.start();
        QVERIFY(sim::build_table(tiny_config(), folder("reference"), false).complete());
        qInfo("16-row build_table: %lld ms", static_cast<long long>(timer.elapsed()));
        reference_ = slurp(folder("reference") / "table.csv");
    }

    void a_replicated_table_is_the_same_bytes_with_any_number_of_workers()
    {
        // 2 seeds x 9 rows (FeedForwardNet2: 2 blocks, 3 actions, 2 decisions), built in-process and by
        // 1, 2 and 3 worker processes: every table.csv the same bytes, each seed's rows those of a
        // single-seed build of that seed, and the mean is the seeds' mean.
        const std::string toml = std::string(tiny_toml) + "[sweep]\nseeds = [5, 6]\n";
        auto c = config::parse_experiment(toml, "replicated.toml");
        c.job.model = "FeedForwardNet2";
        const std::string text = config::to_toml(c);
        const QString file = dir_.filePath("replicated.toml");
        std::ofstream(file.toStdString()) << text;
        const auto in_process = sim::build_table(c, folder("rep-in-process"), false);
        QVERIFY(in_process.complete());
        QCOMPARE(in_process.seeds(), (std::vector<std::uint64_t>{5, 6}));
        QCOMPARE(in_process.sequences(), std::int64_t{9});
        const std::string bytes = slurp(folder("rep-in-process") / "table.csv");
        for (const int workers : {1, 2, 3}) {
            const auto out = dir_.filePath(QStringLiteral("rep-%1").arg(workers));
            const auto [code, stdout_text, err] =
                rlda({"simulate", file, "--out", out, "--workers", QString::number(workers)}, 300000);
            QVERIFY2(code == 0, qPrintable(err));
            QVERIFY2(stdout_text.contains("rows: 9 (each the mean of 2 seeds)") && stdout_text.contains("reliability: one seed"),
                     qPrintable(stdout_text));
            QCOMPARE(slurp(std::filesystem::path(out.toStdString()) / "table.csv"), bytes);
        }
        // Seed 6's rows are a single-seed build's at seed 6, bit for bit.
        auto one = c;
        one.sweep.seeds.clear();
        one.job.seed = 6;
        const auto alone = sim::build_table(one, folder("rep-seed6-alone"), false);
        QCOMPARE(slurp(sim::seed_folder(folder("rep-in-process"), 6) / "table.csv"),
                 slurp(folder("rep-seed6-alone") / "table.csv"));
        for (const auto& row : in_process.rows())
            QCOMPARE(row.replicates[1], alone.accuracy(row.actions));
        // The metadata lists the seeds; --replicates 2 from job.seed 5 (seeds 5 and 6) is the same table.
        QVERIFY(slurp(folder("rep-in-process") / "table.json").find("\"seeds\": [\n    5,\n    6\n  ]") != std::string::npos);
        const auto [code, o, err] = rlda({"simulate", file, "--set", "sweep.seeds=[]", "--replicates", "2", "--out",
                                          dir_.filePath("rep-replicates"), "--workers", "1"}, 300000);
        QVERIFY2(code == 0, qPrintable(err));
        QCOMPARE(slurp(folder("rep-replicates") / "table.csv"), bytes);
    }

    void parts_built_one_by_one_and_collected_equal_a_plain_build()
    {
        const auto out = folder("parts");
        const auto prepared = sim::prepare_sweep(tiny_config(), out, false);
        QCOMPARE(prepared.shape.sequences, std::int64_t{16});
        QCOMPARE(prepared.done, std::int64_t{0});
        QVERIFY(!prepared.warm_start_reused);
        for (int i = 0; i < 3; ++i) {
            int reports = 0;
            const auto rows = sim::build_part(tiny_config(), out, i, 3, [&](const sim::BuildProgress& p) {
                QCOMPARE(p.total, i == 0 ? 6 : 5); // 16 = 6 + 5 + 5
                ++reports;
            });
            QCOMPARE(static_cast<int>(rows.rows().size()), i == 0 ? 6 : 5);
            QCOMPARE(reports, rows.rows().size() + 1);
            for (const auto& r : rows.rows())
                QCOMPARE((r.actions[0] * 4 + r.actions[1]) % 3, i);
            QCOMPARE(whole_rows(sim::part_file(out, i, 3)), rows.rows().size());
        }
        QVERIFY(!std::filesystem::exists(out / "table.csv")); // parts never write the table
        const auto status = sweep::status(out, prepared.shape, 3);
        QCOMPARE(status.rows_done, 16);
        QCOMPARE(status.count(sweep::TaskState::Done), 3);
        const auto t = sim::collect_table(out, tiny_config());
        QVERIFY(t.complete());
        QCOMPARE(slurp(out / "table.csv"), reference_);

        // A part run again trains nothing: its rows are in its file and in table.csv.
        int to_compute = -1;
        sim::build_part(tiny_config(), out, 1, 3, [&](const sim::BuildProgress& p) { to_compute = p.to_compute; });
        QCOMPARE(to_compute, 0);
        // Other parts of the same folder skip what table.csv holds.
        sim::build_part(tiny_config(), out, 0, 2, [&](const sim::BuildProgress& p) { to_compute = p.to_compute; });
        QCOMPARE(to_compute, 0);
    }

    void a_torn_last_line_is_ignored()
    {
        const auto out = folder("torn");
        sim::prepare_sweep(tiny_config(), out, false);
        std::stop_source stop;
        sim::build_part(
            tiny_config(), out, 0, 2,
            [&](const sim::BuildProgress& p) {
                if (p.done == 3)
                    stop.request_stop();
            },
            stop.get_token());
        const auto file = sim::part_file(out, 0, 2);
        QCOMPARE(whole_rows(file), std::size_t{3});
        std::ofstream(file, std::ios::app | std::ios::binary) << "2,2,30.000000,26.0";
        QCOMPARE(whole_rows(file), std::size_t{3}); // readers skip it while a writer may go on
        QCOMPARE(sweep::status(out, sim::table_shape(tiny_config()), 2).tasks[0].rows_done, 3);
        int to_compute = -1;
        sim::build_part(tiny_config(), out, 0, 2, [&](const sim::BuildProgress& p) {
            if (!p.row)
                to_compute = p.to_compute;
        });
        QCOMPARE(to_compute, 5);
        QCOMPARE(whole_rows(file), std::size_t{8});
        QVERIFY(slurp(file).ends_with("\r\n"));
        sim::build_part(tiny_config(), out, 1, 2);
        sim::collect_table(out, tiny_config());
        QCOMPARE(slurp(out / "table.csv"), reference_);
    }

    void rows_that_disagree_are_an_error_naming_both_files()
    {
        const auto out = folder("disagree");
        std::filesystem::create_directories(out / "parts");
        std::filesystem::copy_file(folder("reference") / "config.toml", out / "config.toml");
        std::filesystem::copy_file(folder("reference") / "table.csv", out / "table.csv");
        std::string text = reference_;
        const auto first_row = text.find("\r\n") + 2;
        const auto end = text.find("\r\n", first_row);
        std::string row = text.substr(first_row, end - first_row);
        row = row.substr(0, row.rfind(',') + 1) + "0.123";
        std::ofstream(out / "parts" / "part-0-of-1.csv", std::ios::binary)
            << text.substr(0, first_row) << row << "\r\n";
        const auto message = error_of([&] { sim::collect_table(out, tiny_config()); });
        QVERIFY2(message.find("part-0-of-1.csv") != std::string::npos, message.c_str());
        QVERIFY2(message.find("table.csv") != std::string::npos, message.c_str());
        QVERIFY2(message.find("[0 0]") != std::string::npos, message.c_str());
        QCOMPARE(slurp(out / "table.csv"), reference_); // nothing rewritten
    }

    void a_part_needs_a_prepared_folder()
    {
        const auto out = folder("unprepared");
        std::filesystem::create_directories(out);
        std::filesystem::copy_file(folder("reference") / "config.toml", out / "config.toml");
        const auto message = error_of([&] { sim::build_part(tiny_config(), out, 0, 2); });
        QVERIFY2(message.find("warm_start.pt") != std::string::npos, message.c_str());
        QVERIFY(!std::filesystem::exists(out / "warm_start.pt"));
        QVERIFY(!std::filesystem::exists(sim::part_file(out, 0, 2)));
        // A folder prepared with settings that change the numbers is refused.
        auto other = tiny_config();
        other.job.lr = 0.5;
        const auto differ = error_of([&] { sim::build_part(other, folder("reference"), 0, 2); });
        QVERIFY2(differ.find("[job]") != std::string::npos, differ.c_str());

        const auto [code, out_text, err] =
            rlda({"simulate", config_, "--out", QString::fromStdString(out.string()), "--part", "0/2"});
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("warm_start.pt") && err.count('\n') == 1, qPrintable(err));
    }

    void bad_part_values_give_one_line_errors_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("index past the end") << "3/2";
        QTest::newRow("not a fraction") << "x";
        QTest::newRow("no parts") << "0/0";
    }
    void bad_part_values_give_one_line_errors()
    {
        QFETCH(QString, value);
        const auto [code, out, err] =
            rlda({"simulate", config_, "--out", dir_.filePath("bad-part"), "--part", value});
        QVERIFY(code != 0);
        QVERIFY2(err.contains("--part " + value + ":") && err.count('\n') == 1, qPrintable(err));
        QVERIFY(!QFileInfo::exists(dir_.filePath("bad-part")));
    }

    void a_resumed_folder_whose_parts_is_a_file_is_one_line()
    {
        // Was the standard library's "filesystem error: cannot create directories: Not a directory [...]".
        namespace fs = std::filesystem;
        const auto out = folder("parts-is-a-file");
        fs::copy(folder("reference"), out, fs::copy_options::recursive);
        fs::remove_all(out / "parts");
        std::ofstream(out / "parts") << "not a folder\n";
        // The header and two rows: an unfinished table, so that rlda resumes it.
        std::istringstream rows(reference_);
        std::string kept;
        std::string line;
        for (int i = 0; i < 3 && std::getline(rows, line); ++i)
            kept += line + "\n";
        std::ofstream(out / "table.csv", std::ios::trunc) << kept;
        const QString dir = QString::fromStdString(out.string());
        const auto [code, text_out, err] = rlda({"simulate", config_, "--out", dir, "--workers", "2"});
        QCOMPARE(code, 1);
        QCOMPARE(err, "rlda: error: " + dir + "/parts: cannot create the folder: a file has its name\n");
        QCOMPARE(slurp(out / "parts"), std::string("not a folder\n"));
    }

    void local_backend_with_one_and_two_workers_gives_the_same_table()
    {
        for (const char* workers : {"1", "2"}) {
            const QString out = dir_.filePath(QString("local-%1").arg(workers));
            QElapsedTimer timer;
            timer.start();
            const auto [code, text, err] =
                rlda({"simulate", config_, "--out", out, "--backend", "local", "--workers", workers});
            qInfo("rlda simulate --workers %s: %lld ms", workers, static_cast<long long>(timer.elapsed()));
            QVERIFY2(code == 0, qPrintable(err + text));
            QVERIFY2(text.contains(QString("in %1 worker process").arg(workers)), qPrintable(text));
            QVERIFY2(text.contains("rows 16/16 ("), qPrintable(text));
            QVERIFY2(text.contains(QString("table: %1/table.csv\nrows: 16\n").arg(out)), qPrintable(text));
            QCOMPARE(slurp((out + "/table.csv").toStdString()), reference_);
            QVERIFY(QFileInfo::exists(out + QString("/parts/part-0-of-%1.csv").arg(workers)));
            QVERIFY(QFileInfo::exists(out + QString("/parts/part-0-of-%1.log").arg(workers)));
        }
        // Finished: a rerun has nothing to do.
        const auto [code, text, err] = rlda({"simulate", config_, "--out", dir_.filePath("local-2")});
        QCOMPARE(code, 0);
        QVERIFY2(text.contains("nothing to train: all 16 rows are in the table"), qPrintable(text));
    }

    void a_killed_part_is_retried_and_the_table_completes()
    {
        const QString out = dir_.filePath("killed");
        QProcess p;
        p.start(rlda::test::rlda_program, {"simulate", config_, "--out", out, "--workers", "2"});
        QVERIFY(p.waitForStarted());
        const auto file = sim::part_file(out.toStdString(), 0, 2);
        QTRY_VERIFY_WITH_TIMEOUT(whole_rows(file) >= 1, 60000);
        const auto pids = part_processes(out.toStdString(), "0/2");
        QCOMPARE(pids.size(), std::size_t{1});
        QCOMPARE(::kill(pids[0], SIGKILL), 0);
        QVERIFY(p.waitForFinished(120000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError()) + text));
        QVERIFY2(text.contains("part 0: ") && text.contains("(try 2)"), qPrintable(text));
        QCOMPARE(slurp(out.toStdString() + "/table.csv"), reference_);
    }

    // Issue 43, item 3: a part that fails for good leaves a record in the folder (the Runs page
    // shows it as failed), which the next build of the folder removes when it starts.
    void a_part_that_fails_for_good_is_recorded_until_the_next_build()
    {
        const std::filesystem::path out = dir_.filePath("failing").toStdString();
        std::filesystem::create_directories(out);
        std::ofstream(out / "config.toml") << tiny_toml;
        const auto shape = sim::table_shape(tiny_config());
        sweep::LocalOptions o;
        o.max_retries = 0;
        o.program = "/bin/false"; // every part exits 1 at once
        o.poll_seconds = 0.01;
        const auto s = sweep::run_parts(out, shape, o);
        QCOMPARE(s.count(sweep::TaskState::Failed), 1);
        const std::string recorded = sim::build_failure(out);
        QVERIFY2(recorded.starts_with("part 0/1 failed 1 time (") &&
                     recorded == sweep::failure_message(out, s),
                 recorded.c_str());
        bool cleared_at_start = false;
        (void)sweep::run_parts(out, shape, o, [&](const sweep::SweepStatus&) {
            if (!cleared_at_start)
                cleared_at_start = sim::build_failure(out).empty();
        });
        QVERIFY(cleared_at_start);
        QCOMPARE(sim::build_failure(out), recorded); // failed again, said again
    }

    void sigterm_stops_the_workers_and_keeps_whole_rows()
    {
        const QString out = dir_.filePath("stopped");
        QProcess p;
        p.start(rlda::test::rlda_program, {"simulate", config_, "--out", out, "--workers", "2"});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(whole_rows(sim::part_file(out.toStdString(), 1, 2)) >= 1, 60000);
        // SIGTERM as the Sweeps page's Cancel sends it to the detached rlda that runs the sweep.
        QVERIFY(sweep::stop_process(p.processId(), sweep::kFollowerProgram));
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 130);
        QVERIFY(part_processes(out.toStdString(), "0/2").empty());
        QVERIFY(part_processes(out.toStdString(), "1/2").empty());
        const auto kept = sim::SimulationTable::load(out.toStdString() + "/table.csv", 4);
        QVERIFY(!kept.rows().empty() && !kept.complete());
        // What a follower of the stopped sweep reads: its parts, not running, not collected.
        const sweep::SweepMarker marker{out.toStdString(), config::SweepBackend::Local, 2, p.processId()};
        auto reading = sweep::read_sweep(marker, tiny_config(), std::nullopt);
        QVERIFY2(reading.error.empty(), reading.error.c_str());
        QVERIFY(!reading.alive && reading.warm_start && reading.shape);
        QCOMPARE(reading.status.tasks.size(), std::size_t{2});
        QCOMPARE(reading.status.count(sweep::TaskState::Running), 0);
        QCOMPARE(reading.status.rows_done, static_cast<int>(kept.rows().size()));
        QCOMPARE(reading.status.rows_total, 16);
        QVERIFY(!reading.status.collected && !sweep::table_collected(out.toStdString()));
        const auto [code, text, err] = rlda({"simulate", config_, "--out", out, "--workers", "2"});
        QVERIFY2(code == 0, qPrintable(err));
        QCOMPARE(slurp(out.toStdString() + "/table.csv"), reference_);
        QVERIFY(sweep::table_collected(out.toStdString()));
        reading = sweep::read_sweep(marker, tiny_config(), reading.shape);
        QVERIFY(reading.status.collected);
        QCOMPARE(reading.status.count(sweep::TaskState::Done), 2);
    }

    // SIGKILL runs no handler of the parent's: the workers end by the kernel's parent-death signal.
    void killing_only_the_parent_ends_its_workers()
    {
        const std::string out = folder("orphaned").string();
        QProcess p;
        // A budget 50 times the tiny one: rows of seconds each, so that a worker could not finish
        // its part in the 2 s it is given to end.
        p.start(rlda::test::rlda_program, {"simulate", config_, "--out", QString::fromStdString(out),
                                           "--workers", "2", "--set", "scheduler.budget=2000.0"});
        QVERIFY(p.waitForStarted());
        // Both workers past their start: each prints its part once it is tied to the parent.
        const auto started = [&](int part) {
            return slurp(std::filesystem::path(out) / "parts" / fmt::format("part-{}-of-2.log", part))
                       .find(fmt::format("\npart {}/2\n", part)) != std::string::npos;
        };
        QTRY_VERIFY_WITH_TIMEOUT(started(0) && started(1), 60000);
        QCOMPARE(part_processes(out, "0/2").size(), std::size_t{1});
        QCOMPARE(part_processes(out, "1/2").size(), std::size_t{1});
        QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGKILL), 0);
        QVERIFY(p.waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(part_processes(out, "0/2").empty() && part_processes(out, "1/2").empty(), 2000);
        QVERIFY(whole_rows(sim::part_file(out, 0, 2)) + whole_rows(sim::part_file(out, 1, 2)) < 16);
    }
};

RLDA_SUITE_GUILESS_MAIN(TestSweep)
#include "test_sweep.moc"
