// Detached sweeps without Qt's help (core/sweep/detached.h, process_alive and stop_process in
// core/sweep/process.h): the marker's round trip and its torn forms, the search for the newest
// unfinished sweep, a follower's liveness (a zombie is not alive), stopping one, and whether a
// table is collected (complete, partial, torn).
#include "core/config/experiment_io.h"
#include "core/sweep/detached.h"
#include "core/sweep/process.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_sim.h"

#include <QtTest/QtTest>

#include <fmt/format.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace rlda::core;

namespace {

namespace fs = std::filesystem;

using rlda::test::error_of;
using rlda::test::slurp;
using rlda::test::tiny_toml;

const fs::path paper_table = RLDA_PAPER_DIR "/tables/convnet2_early.csv";

void write(const fs::path& file, const std::string& text)
{
    std::ofstream(file, std::ios::binary) << text;
}

// A sweep under `root` named `name`: its marker and its settings (the tiny experiment).
sweep::SweepMarker submitted(const fs::path& root, const std::string& name, int parts = 2)
{
    sweep::SweepMarker m{root / name, config::SweepBackend::Local, parts, 0};
    fs::create_directories(m.folder);
    write(sweep::settings_file(m.folder), tiny_toml);
    sweep::write_marker(m);
    return m;
}

// The paper's table as the table.csv of `folder`, cut to `bytes` (all of it when npos).
void table_in(const fs::path& folder, std::size_t bytes = std::string::npos)
{
    write(folder / "table.csv", slurp(paper_table).substr(0, bytes));
}

// The name /proc gives this process (the test binary's, cut to 15 bytes).
std::string own_name()
{
    std::string name = slurp("/proc/self/comm");
    if (!name.empty() && name.back() == '\n')
        name.pop_back();
    return name;
}

} // namespace

class TestSweepDetached : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    fs::path root(const char* name) const
    {
        const fs::path p = dir_.filePath(name).toStdString();
        fs::create_directories(p);
        return p;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void a_marker_reads_back_as_written()
    {
        const fs::path folder = root("roundtrip") / "quick-table";
        const sweep::SweepMarker m{folder, config::SweepBackend::Slurm, 3, 4242};
        sweep::write_marker(m);
        QCOMPARE(sweep::marker_file(folder), fs::path(folder.string() + ".sweep.json"));
        QVERIFY(!fs::exists(sweep::marker_file(folder).string() + ".tmp")); // written atomically
        const auto back = sweep::read_marker(sweep::marker_file(folder));
        QCOMPARE(back.folder, m.folder);
        QCOMPARE(back.backend, m.backend);
        QCOMPARE(back.parts, 3);
        QCOMPARE(back.pid, std::int64_t{4242});
        // Written again (the Slurm follower restarted): replaced whole.
        sweep::write_marker({folder, config::SweepBackend::Slurm, 3, 7});
        QCOMPARE(sweep::read_marker(sweep::marker_file(folder)).pid, std::int64_t{7});
    }

    void a_torn_or_garbage_marker_is_a_one_line_error_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << ""
                               << "not a sweep marker";
        QTest::newRow("torn") << "{\"folder\": \"/tmp/x\", \"backend\": \"lo"
                              << "not a sweep marker";
        QTest::newRow("garbage") << "\x01\x02 not json"
                                 << "not a sweep marker";
        QTest::newRow("no pid") << "{\"folder\": \"/tmp/x\", \"backend\": \"local\", \"parts\": 2}"
                                << "pid";
        QTest::newRow("bad backend")
            << "{\"folder\": \"/tmp/x\", \"backend\": \"cloud\", \"parts\": 2, \"pid\": 1}"
            << "backend: \"cloud\" is not a sweep backend";
        QTest::newRow("no parts")
            << "{\"folder\": \"/tmp/x\", \"backend\": \"local\", \"parts\": 0, \"pid\": 1}"
            << "parts: 0";
        QTest::newRow("empty folder")
            << "{\"folder\": \"\", \"backend\": \"local\", \"parts\": 2, \"pid\": 1}"
            << "folder: empty";
        QTest::newRow("parts a string")
            << "{\"folder\": \"/tmp/x\", \"backend\": \"local\", \"parts\": \"2\", \"pid\": 1}"
            << "not a sweep marker";
    }
    void a_torn_or_garbage_marker_is_a_one_line_error()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        const fs::path file = root("torn") / "x.sweep.json";
        write(file, text.toStdString());
        const std::string message = error_of([&] { sweep::read_marker(file); });
        QVERIFY2(message.starts_with(file.string() + ": not a sweep marker: "), message.c_str());
        QVERIFY2(message.find(says.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
    }

    void a_missing_marker_or_a_folder_is_an_error()
    {
        const fs::path r = root("missing");
        QVERIFY(error_of([&] {
                    sweep::read_marker(r / "none.sweep.json");
                }).starts_with((r / "none.sweep.json").string()));
        fs::create_directories(r / "dir.sweep.json");
        QVERIFY(error_of([&] { sweep::read_marker(r / "dir.sweep.json"); }) != "(no error)");
    }

    void the_newest_unfinished_sweep_is_found()
    {
        const fs::path r = root("find");
        QVERIFY(!sweep::find_unfinished(r)); // nothing there
        QVERIFY(!sweep::find_unfinished(r / "absent"));
        const auto oldest = submitted(r, "oldest");
        const auto older = submitted(r, "older", 3);
        const auto torn = submitted(r, "torn");
        const auto done = submitted(r, "done");
        write(sweep::marker_file(torn.folder), "{\"folder\": \"");
        table_in(done.folder); // collected: nothing to follow
        // Ages set, not waited for: done is the newest, then torn, older, oldest.
        const auto now = fs::file_time_type::clock::now();
        int age = 4;
        for (const auto* m : {&oldest, &older, &torn, &done})
            fs::last_write_time(sweep::marker_file(m->folder), now - std::chrono::minutes(age--));
        const auto found = sweep::find_unfinished(r);
        QVERIFY(found);
        QCOMPARE(found->marker.folder, older.folder); // done is collected, torn does not read
        QCOMPARE(found->marker.parts, 3);
        QCOMPARE(found->config.name, std::string("tiny"));
        QVERIFY(!found->slurm_recorded);
        write(older.folder / "sweep.json", "{}");
        QVERIFY(sweep::find_unfinished(r)->slurm_recorded);
        // Its settings gone: the next older one.
        fs::remove(sweep::settings_file(older.folder));
        QCOMPARE(sweep::find_unfinished(r)->marker.folder, oldest.folder);
        table_in(oldest.folder);
        QVERIFY(!sweep::find_unfinished(r));
    }

    void a_sweep_name_is_taken_by_its_folder_or_any_file_beside_it()
    {
        const fs::path r = root("taken");
        QVERIFY(!sweep::sweep_name_taken(r / "a"));
        write(sweep::follower_log(r / "a"), "");
        QVERIFY(sweep::sweep_name_taken(r / "a"));
        write(sweep::settings_file(r / "b"), "");
        QVERIFY(sweep::sweep_name_taken(r / "b"));
        fs::create_directories(r / "c");
        QVERIFY(sweep::sweep_name_taken(r / "c"));
    }

    void a_table_is_collected_only_when_whole()
    {
        const fs::path r = root("tables");
        QVERIFY(!sweep::table_collected(r / "absent"));
        const std::string text = slurp(paper_table);
        const std::size_t last_line = text.rfind('\n', text.size() - 2) + 1;
        table_in(r);
        QVERIFY(sweep::table_collected(r));
        table_in(r, last_line); // a row short
        QVERIFY(!sweep::table_collected(r));
        table_in(r, last_line + 10); // the last row torn
        QVERIFY(!sweep::table_collected(r));
        write(r / "table.csv", "\x01\x02 not a table\n");
        QVERIFY(!sweep::table_collected(r));
        fs::remove(r / "table.csv");
        fs::create_directories(r / "table.csv");
        QVERIFY(!sweep::table_collected(r));
    }

    void a_running_process_is_alive_and_a_reaped_one_is_not()
    {
        auto child = sweep::Process::start({"sleep", "60"});
        const auto pid = static_cast<std::int64_t>(child.pid());
        QVERIFY(sweep::process_alive(pid, "sleep"));
        QVERIFY(sweep::process_alive(pid, "/usr/bin/sleep")); // a path names its file
        QVERIFY(!sweep::process_alive(pid, "rlda"));          // a pid reused by another program
        child.terminate(std::chrono::seconds(5));
        QVERIFY(!sweep::process_alive(pid, "sleep"));
        QVERIFY(!sweep::process_alive(0, "sleep"));
        QVERIFY(!sweep::process_alive(-1, "sleep"));
        QVERIFY(!sweep::process_alive(std::int64_t{1} << 40, "sleep"));
        QVERIFY(sweep::process_alive(::getpid(), own_name()));
    }

    void a_zombie_is_not_alive()
    {
        int gate[2];
        QCOMPARE(::pipe(gate), 0);
        const pid_t pid = ::fork();
        QVERIFY(pid >= 0);
        if (pid == 0) { // the child waits for the gate to close, then exits unreaped
            ::close(gate[1]);
            char c;
            while (::read(gate[0], &c, 1) > 0) {
            }
            ::_exit(0);
        }
        ::close(gate[0]);
        const std::string name = own_name(); // a forked child keeps its parent's name
        QVERIFY(sweep::process_alive(pid, name));
        ::close(gate[1]);
        siginfo_t info{};
        QCOMPARE(::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT), 0); // ended, not reaped
        QVERIFY(slurp(fmt::format("/proc/{}/stat", pid)).find(") Z ") != std::string::npos);
        QVERIFY(!sweep::process_alive(pid, name));
        QCOMPARE(::waitpid(pid, nullptr, 0), pid);
        QVERIFY(!sweep::process_alive(pid, name));
    }

    void stop_process_sends_sigterm_to_the_program_named_only()
    {
        auto child = sweep::Process::start({"sleep", "60"});
        const auto pid = static_cast<std::int64_t>(child.pid());
        QVERIFY(!sweep::stop_process(pid, "rlda")); // another program's pid: left alone
        QVERIFY(!child.poll());
        QVERIFY(sweep::stop_process(pid, "sleep"));
        const auto ended = child.wait();
        QCOMPARE(ended.signal, SIGTERM);
        QVERIFY(!sweep::stop_process(pid, "sleep")); // gone
        QVERIFY(!sweep::stop_process(0, "sleep"));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestSweepDetached)
#include "test_sweep_detached.moc"
