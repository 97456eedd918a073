// A user's files are never lost (core/util/output_folder.h): --force replaces only a folder rlda
// made and never one holding the command's own inputs, replaces it by moving it aside first, and
// one writer at a time holds an output folder. Each case is a repro of the reliability probe of
// issue 25, run as a user runs rlda.
#include "core/util/output_folder.h"
#include "tests/common/folder_snapshot.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/unprivileged.h"

#include <QtTest/QtTest>

#include <unistd.h>

namespace {

using rlda::test::folder_snapshot;
using rlda::test::rlda_cli;

const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
const QString paper_table = RLDA_PAPER_DIR "/tables/convnet2_early.csv";

QString read_text(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void write(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// The three commands that take --out and --force, each cheap enough to finish when allowed.
QList<QStringList> writers()
{
    return {
        {"train", quick},
        {"learn", "--table", paper_table, "--model", "ConvNet2", "--episodes", "2"},
        {"simulate", quick, "--set", "trainer.max_decisions=1", "--workers", "1"},
    };
}

// One line on stderr, exit code 1.
bool refused(const rlda::test::CliResult& r)
{
    return r.code == 1 && r.err.startsWith("rlda: error: ") && r.err.count('\n') == 1;
}

// An rlda folder of the current layout: what `rlda train` leaves.
QString trained_run(const QTemporaryDir& dir, const QString& name)
{
    const QString out = dir.filePath(name);
    const auto r = rlda_cli({"train", quick, "--out", out});
    if (r.code != 0)
        qWarning("%s", qPrintable(r.err));
    return out;
}

} // namespace

class TestUserFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void force_leaves_a_user_folder_byte_for_byte()
    {
        // A user's folder that happens to hold the three names the old rule looked for, beside
        // their own work; through its own path and through a symbolic link.
        QTemporaryDir dir;
        const QString user = dir.filePath("u");
        write(user + "/thesis.tex", "\\documentclass{article}\n");
        write(user + "/src/main.c", "int main(void) { return 0; }\n");
        write(user + "/table.json", "{}\n");
        write(user + "/events.jsonl", "{\"type\":\"note\"}\n");
        write(user + "/ranks.csv", "rank\n1\n");
        QVERIFY(QFile::link(user, dir.filePath("link")));
        const auto before = folder_snapshot(user);
        for (const QString& out : {user, dir.filePath("link")})
            for (QStringList args : writers()) {
                args << "--out" << out << "--force";
                const auto r = rlda_cli(args);
                QVERIFY2(refused(r), qPrintable(args.join(' ') + ": " + r.err));
                QVERIFY2(r.err.contains("not a folder rlda made"), qPrintable(r.err));
                QCOMPARE(folder_snapshot(user), before);
            }
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList({"link", "u"}));
    }

    void an_older_folder_of_rlda_files_alone_is_still_rlda_s()
    {
        // Written before the marker: every entry one rlda writes. One file of the user's beside
        // them, and it is the user's.
        QTemporaryDir dir;
        const QString out = trained_run(dir, "run");
        QVERIFY(QFile::remove(out + "/.rlda"));
        write(out + "/notes.txt", "mine\n");
        const auto before = folder_snapshot(out);
        const QStringList args = {"train", quick, "--out", out, "--force"};
        QVERIFY(refused(rlda_cli(args)));
        QCOMPARE(folder_snapshot(out), before);
        QVERIFY(QFile::remove(out + "/notes.txt"));
        const auto again = rlda_cli(args);
        QVERIFY2(again.code == 0, qPrintable(again.err));
        QVERIFY(QFile::exists(out + "/.rlda"));
        QVERIFY(QFile::exists(out + "/model.pt"));
    }

    void force_replaces_by_moving_the_old_folder_aside()
    {
        QTemporaryDir dir;
        const QString out = trained_run(dir, "run");
        write(out + "/metrics/extra.csv", "epoch,time,value\n");
        const auto r = rlda_cli({"train", quick, "--out", out, "--force"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!QFile::exists(out + "/metrics/extra.csv"));
        // Nothing of the old folder is left beside the new one.
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList({"run"}));
    }

    void force_never_deletes_an_input_of_the_command()
    {
        // Every input inside the folder that --force would replace: refused before anything is
        // touched, whichever input it is.
        QTemporaryDir dir;
        const QString out = trained_run(dir, "run");
        QVERIFY(QFile::copy(paper_table, out + "/table.csv"));
        QVERIFY(QFile::copy(quick, out + "/experiment.toml"));
        write(out + "/model.toml", "[model]\nname = \"M\"\nlayers = []\n");
        write(out + "/policy.pt", "not read: the check comes first\n");
        QVERIFY(QDir().mkpath(out + "/data"));
        const auto before = folder_snapshot(out);
        const QList<QPair<QStringList, QString>> cases = {
            {{"learn", "--table", out + "/table.csv", "--model", "ConvNet2", "--episodes", "1"}, out + "/table.csv"},
            {{"learn", "--table", out, "--model", "ConvNet2", "--episodes", "1"}, out + "/table.csv"},
            {{"learn", "--table", paper_table, "--model", "ConvNet2", "--episodes", "1", "--config",
              out + "/experiment.toml"},
             out + "/experiment.toml"},
            {{"train", out + "/experiment.toml"}, out + "/experiment.toml"},
            {{"simulate", out + "/experiment.toml"}, out + "/experiment.toml"},
            {{"train", quick, "--set", "job.model=\"" + out + "/model.toml\""}, out + "/model.toml"},
            {{"train", quick, "--set", "agent.kind=\"policy\"", "--set", "agent.policy=\"" + out + "/policy.pt\""},
             out + "/policy.pt"},
            {{"train", quick, "--set", "dataset.kind=\"fashion-mnist\"", "--set", "dataset.path=\"" + out + "/data\""},
             out + "/data"},
        };
        for (auto [args, input] : cases) {
            args << "--out" << out << "--force";
            const auto r = rlda_cli(args);
            QVERIFY2(refused(r), qPrintable(args.join(' ') + ": " + r.err));
            QVERIFY2(r.err.contains("--force would delete " + input + ", an input of this command"), qPrintable(r.err));
            QCOMPARE(folder_snapshot(out), before);
        }
    }

    void a_folder_it_cannot_empty_is_left_whole()
    {
        // Run without privileges: a subfolder the user may not write cannot be emptied, so the
        // folder is refused before anything in it is deleted.
        QTemporaryDir dir;
        rlda::test::open_to_all(dir.path());
        const QString out = trained_run(dir, "run");
        QVERIFY(QDir().mkpath(out + "/metrics/locked"));
        write(out + "/metrics/locked/kept.csv", "epoch,time,value\n");
        QProcess::execute("chmod", {"-R", "a+rwX", out});
        QProcess::execute("chmod", {"0555", out + "/metrics/locked"});
        QVERIFY(QDir().mkpath(dir.filePath("bin")));
        rlda::test::open_to_all(dir.filePath("bin"));
        const auto before = folder_snapshot(out);
        const auto r = rlda::test::rlda_unprivileged(dir.filePath("bin"), {"train", quick, "--out", out, "--force"});
        QVERIFY2(refused(r), qPrintable(r.err));
        QVERIFY2(r.err.contains("permission denied; nothing was deleted"), qPrintable(r.err));
        QCOMPARE(folder_snapshot(out), before);
        QProcess::execute("chmod", {"-R", "u+w", out});
    }

    void a_second_writer_is_refused_naming_the_first()
    {
        // This process holds the folder as a run does; every command, with --force or without, is
        // refused in one line naming this pid, and the holder's files stay as they are.
        QTemporaryDir dir;
        const QString out = dir.filePath("busy");
        const auto lock = rlda::core::prepare_output_folder(out.toStdString(), false);
        write(out + "/events.jsonl", "{\"type\":\"message\",\"text\":\"the first writer's\"}\n");
        const auto before = folder_snapshot(out);
        const QString pid = QStringLiteral("(pid %1)").arg(::getpid());
        for (QStringList args : writers())
            for (const bool force : {false, true}) {
                QStringList a = args;
                a << "--out" << out;
                if (force)
                    a << "--force";
                const auto r = rlda_cli(a);
                QVERIFY2(refused(r), qPrintable(a.join(' ') + ": " + r.err));
                QVERIFY2(r.err.contains("in use by another rlda process " + pid), qPrintable(r.err));
                QCOMPARE(folder_snapshot(out), before);
            }
    }

    void two_learning_runs_into_one_folder()
    {
        // The probe's repro: learn A runs, learn B --force starts into the same folder. B is
        // refused naming A; A goes on and ends with its own files whole. A's 20,000 episodes take
        // seconds; B is refused within a moment of A's start.
        QTemporaryDir dir;
        const QString out = dir.filePath("learn");
        const QStringList learn = {"learn", "--table", paper_table, "--model", "ConvNet2", "--out", out};
        QProcess a;
        a.start(rlda::test::rlda_program, learn + QStringList{"--episodes", "20000"});
        QVERIFY(a.waitForStarted());
        const QByteArray pid = QByteArray::number(a.processId());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(out + "/events.jsonl") &&
                                     read_text(out + "/.rlda.lock").trimmed() == QString::fromLatin1(pid),
                                 60000);
        const auto b = rlda_cli(learn + QStringList{"--episodes", "1", "--force"});
        QVERIFY2(refused(b), qPrintable(b.err));
        QVERIFY2(b.err.contains("in use by another rlda process (pid " + QString::fromLatin1(pid) + ")"), qPrintable(b.err));
        QVERIFY(a.waitForFinished(300000));
        QVERIFY2(a.exitStatus() == QProcess::NormalExit && a.exitCode() == 0,
                 qPrintable(QString::fromUtf8(a.readAllStandardError())));
        const auto eval = rlda_cli({"evaluate", "--policy", out + "/policy.pt", "--table", paper_table, "--model",
                                    "ConvNet2"});
        QVERIFY2(eval.code == 0, qPrintable(eval.err));
        const QString settings = read_text(out + "/events.jsonl");
        QCOMPARE(settings.count("\"type\":\"settings\""), 1);
        QCOMPARE(read_text(out + "/metrics/episodes.csv").count('\n'), 20001); // A's header and episodes
    }

    void a_lock_left_by_a_dead_process_does_not_block()
    {
        QTemporaryDir dir;
        const QString out = trained_run(dir, "run");
        write(out + "/.rlda.lock", "999999999\n"); // a pid no process has; nobody holds the flock
        const auto r = rlda_cli({"train", quick, "--out", out, "--force"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    void two_sweeps_into_one_table_folder()
    {
        // The second `rlda simulate` on a folder being built is refused instead of training every
        // row a second time.
        QTemporaryDir dir;
        const QString out = dir.filePath("table");
        const auto lock = rlda::core::prepare_output_folder(out.toStdString(), false);
        const auto r = rlda_cli({"simulate", quick, "--out", out, "--workers", "1"});
        QVERIFY2(refused(r), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("(pid %1)").arg(::getpid())), qPrintable(r.err));
        QVERIFY(!QFile::exists(out + "/table.csv"));
    }

    void bad_output_paths_say_what_is_wrong()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::link(dir.filePath("nowhere"), dir.filePath("dangling")));
        const QList<QPair<QString, QString>> cases = {
            {"", "--out: an empty path; name the output folder"},
            {dir.filePath("dangling"), dir.filePath("dangling") + ": a symbolic link to " + dir.filePath("nowhere") +
                                           ", which does not exist; choose another --out"},
        };
        for (const auto& [out, message] : cases) {
            const auto r = rlda_cli({"learn", "--table", paper_table, "--model", "ConvNet2", "--episodes", "1", "--out", out});
            QVERIFY2(refused(r), qPrintable(r.err));
            QCOMPARE(r.err, "rlda: error: " + message + "\n");
        }
        QVERIFY(!QFileInfo::exists(dir.filePath("nowhere")));
    }

    void a_run_name_cannot_leave_the_runs_folder()
    {
        QTemporaryDir dir;
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(rlda::test::rlda_program, {"train", quick, "--set", "name=\"../../../escaped\""});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("name: \"../../../escaped\" cannot name a folder inside runs/"), qPrintable(err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
    }

    void a_run_folder_reruns_from_another_working_directory()
    {
        // A model file named relative to the working directory: the run's config.toml names it
        // relative to itself, as its comment says, so the run folder re-runs from anywhere.
        QTemporaryDir dir;
        write(dir.filePath("project/models/net.toml"),
              read_text(RLDA_SOURCE_DIR "/config/models/small_convnet.toml").toUtf8());
        QVERIFY(QFile::copy(quick, dir.filePath("project/quick.toml")));
        QProcess first;
        first.setWorkingDirectory(dir.filePath("project"));
        first.start(rlda::test::rlda_program, {"train", "quick.toml", "--set", "job.model=\"models/net.toml\"",
                                               "--set", "agent.sequence=[0]", "--out", "runs/one"});
        QVERIFY(first.waitForFinished(120000));
        QVERIFY2(first.exitCode() == 0, qPrintable(QString::fromUtf8(first.readAllStandardError())));
        const QString saved = read_text(dir.filePath("project/runs/one/config.toml"));
        QVERIFY2(saved.contains("model = \"../../models/net.toml\""), qPrintable(saved));
        QProcess again;
        again.setWorkingDirectory(dir.path());
        again.start(rlda::test::rlda_program, {"train", "project/runs/one/config.toml", "--out", "elsewhere"});
        QVERIFY(again.waitForFinished(120000));
        QVERIFY2(again.exitCode() == 0, qPrintable(QString::fromUtf8(again.readAllStandardError())));
        QCOMPARE(read_text(dir.filePath("elsewhere/architecture.json")),
                 read_text(dir.filePath("project/runs/one/architecture.json")));
    }
};

QTEST_GUILESS_MAIN(TestUserFiles)
#include "test_user_files.moc"
