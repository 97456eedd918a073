// A user's files are never lost (core/util/output_folder.h): --force replaces only a folder rlda
// made and never one holding the command's own inputs, replaces it by moving it aside first, and
// one writer at a time holds an output folder. Each case is a repro of the reliability probes of
// issue 25 and of its round two (issue 42), run as a user runs rlda.
#include "core/util/output_folder.h"
#include "tests/common/folder_snapshot.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"
#include "tests/common/unprivileged.h"

#include <QtTest/QtTest>

#include <atomic>
#include <functional>
#include <thread>

#include <csignal>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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

// An rlda folder of the current layout, made in-process as a run's folder starts (its marker and
// lock, core/util/output_folder.h), with the first files a training run writes: what the cases need
// of `rlda train`'s folder, without a second of training each.
QString rlda_run_folder(const QTemporaryDir& dir, const QString& name)
{
    QString out = dir.filePath(name);
    (void)rlda::core::prepare_output_folder(out.toStdString(), false);
    QFile::copy(quick, out + "/config.toml");
    write(out + "/events.jsonl", "{\"type\":\"note\"}\n");
    write(out + "/metrics/test_acc.csv", "epoch,time,value\n");
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

    void generic_names_alone_do_not_make_a_folder_rlda_s()
    {
        // Round two, item 3: a user's folder of generic names (what a training run also writes),
        // with no marker, is the user's; so is a run folder whose marker was removed.
        QTemporaryDir dir;
        const QString user = dir.filePath("u");
        write(user + "/config.toml", "[mine]\n");
        write(user + "/events.jsonl", "{\"type\":\"note\"}\n");
        write(user + "/model.pt", "weights\n");
        write(user + "/metrics/accuracy.csv", "epoch,time,value\n");
        const QString old = rlda_run_folder(dir, "run");
        QVERIFY(QFile::remove(old + "/.rlda"));
        for (const QString& out : {user, old}) {
            const auto before = folder_snapshot(out);
            const auto r = rlda_cli({"train", quick, "--out", out, "--force"});
            QVERIFY2(refused(r) && r.err.contains("not a folder rlda made"), qPrintable(r.err));
            QCOMPARE(folder_snapshot(out), before);
        }
    }

    void a_marker_is_rlda_s_only_as_rlda_writes_it()
    {
        // Round two, item 2: `.rlda` as a link to a regular file, or a file of other words, does
        // not make a user's folder rlda's.
        QTemporaryDir dir;
        write(dir.filePath("elsewhere/.rlda"), "made by rlda; --force may replace this folder\n");
        const QString linked = dir.filePath("linked");
        write(linked + "/mine.txt", "mine\n");
        QVERIFY(QFile::link(dir.filePath("elsewhere/.rlda"), linked + "/.rlda"));
        const QString worded = dir.filePath("worded");
        write(worded + "/mine.txt", "mine\n");
        write(worded + "/.rlda", "anything\n");
        for (const QString& out : {linked, worded}) {
            const auto before = folder_snapshot(out);
            const auto r = rlda_cli({"train", quick, "--out", out, "--force"});
            QVERIFY2(refused(r) && r.err.contains("not a folder rlda made"), qPrintable(r.err));
            QCOMPARE(folder_snapshot(out), before);
        }
    }

    void force_replaces_by_moving_the_old_folder_aside()
    {
        QTemporaryDir dir;
        const QString out = rlda_run_folder(dir, "run");
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
        const QString out = rlda_run_folder(dir, "run");
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
        const QString out = rlda_run_folder(dir, "run");
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
        for (const QStringList& args : writers())
            for (const bool force : {false, true}) {
                QStringList a = args;
                a << "--out" << out;
                if (force)
                    a << "--force";
                const auto r = rlda_cli(a);
                QVERIFY2(refused(r), qPrintable(a.join(' ') + ": " + r.err));
                QVERIFY2(r.err.contains("in use by another process " + pid), qPrintable(r.err));
                QCOMPARE(folder_snapshot(out), before);
            }
    }

    void two_learning_runs_into_one_folder()
    {
        // The probe's repro: learn A runs, learn B --force starts into the same folder. B is
        // refused naming A; A goes on until it is stopped, and ends with its own files whole. A has
        // episodes enough never to finish first.
        QTemporaryDir dir;
        const QString out = dir.filePath("learn");
        const QStringList learn = {"learn", "--table", paper_table, "--model", "ConvNet2", "--out", out};
        QProcess a;
        a.start(rlda::test::rlda_program, learn + QStringList{"--episodes", "100000000"});
        QVERIFY(a.waitForStarted());
        const QByteArray pid = QByteArray::number(a.processId());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(out + "/events.jsonl") &&
                                     read_text(out + "/.rlda.lock").trimmed() == QString::fromLatin1(pid),
                                 60000);
        const auto b = rlda_cli(learn + QStringList{"--episodes", "1", "--force"});
        QVERIFY2(refused(b), qPrintable(b.err));
        QVERIFY2(b.err.contains("in use by another process (pid " + QString::fromLatin1(pid) + ")"),
                 qPrintable(b.err));
        QVERIFY(a.state() == QProcess::Running);
        ::kill(static_cast<pid_t>(a.processId()), SIGINT);
        QVERIFY(a.waitForFinished(60000));
        QVERIFY2(a.exitStatus() == QProcess::NormalExit && a.exitCode() == 130,
                 qPrintable(QString::fromUtf8(a.readAllStandardError())));
        const auto eval = rlda_cli({"evaluate", "--policy", out + "/policy.pt", "--table", paper_table, "--model",
                                    "ConvNet2"});
        QVERIFY2(eval.code == 0, qPrintable(eval.err));
        const QString settings = read_text(out + "/events.jsonl");
        QCOMPARE(settings.count("\"type\":\"settings\""), 1);
        // A's header and whole episode lines, one per line: nothing of B's.
        const QStringList episodes = read_text(out + "/metrics/episodes.csv").split('\n');
        QVERIFY(episodes.size() > 2 && episodes.back().isEmpty());
        QVERIFY(episodes.first().startsWith("episode,"));
        for (qsizetype i = 1; i + 1 < episodes.size(); ++i)
            QCOMPARE(episodes[i].section(',', 0, 0), QString::number(i));
    }

    void a_lock_left_by_a_dead_process_does_not_block()
    {
        QTemporaryDir dir;
        const QString out = rlda_run_folder(dir, "run");
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

    void a_lock_file_rlda_did_not_make_is_refused()
    {
        // Round two, item 1: `.rlda.lock` as a hard link to a user's file, a symbolic link to one,
        // or a FIFO: refused naming what it is; the user's file keeps its bytes.
        QTemporaryDir dir;
        write(dir.filePath("mine.txt"), "the user's\n");
        const QString out = rlda_run_folder(dir, "run");
        const QString lock = out + "/.rlda.lock";
        const QList<QPair<std::function<bool()>, QString>> cases = {
            {[&] {
                 return ::link(QFile::encodeName(dir.filePath("mine.txt")), QFile::encodeName(lock)) == 0;
             },
             "a file with 2 names (hard links), not a lock file rlda made"},
            {[&] { return QFile::link(dir.filePath("mine.txt"), lock); }, "a symbolic link"},
            {[&] { return ::mkfifo(QFile::encodeName(lock), 0600) == 0; },
             "a FIFO, not a lock file rlda made"},
        };
        for (const auto& [plant, named] : cases) {
            QFile::remove(lock);
            QVERIFY(plant());
            for (const bool force : {false, true}) {
                QStringList args = {"train", quick, "--out", out};
                if (force)
                    args << "--force";
                const auto r = rlda_cli(args, 60000);
                QVERIFY2(refused(r), qPrintable(r.err));
                if (force)
                    QVERIFY2(r.err.contains(lock + ": " + named), qPrintable(r.err));
            }
            QCOMPARE(read_text(dir.filePath("mine.txt")), QString("the user's\n"));
        }
    }

    void the_lock_message_names_the_holder_not_the_file()
    {
        // Round two, item 24: a stale pid in the file; the lock held by this process (as a shell's
        // flock(1) holds one). The message names this process.
        QTemporaryDir dir;
        const QString out = rlda_run_folder(dir, "run");
        const int fd = ::open(QFile::encodeName(out + "/.rlda.lock"), O_RDWR);
        QVERIFY(fd >= 0);
        QVERIFY(::flock(fd, LOCK_EX) == 0);
        QVERIFY(::pwrite(fd, "4242\n", 5, 0) == 5);
        const auto r = rlda_cli({"train", quick, "--out", out, "--force"});
        ::close(fd);
        QVERIFY2(refused(r), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("in use by another process (pid %1)").arg(::getpid())),
                 qPrintable(r.err));
    }

    void force_through_a_link_that_flips_loses_nothing()
    {
        // Round two, item 3: --out LINK flipped between an rlda folder and a user's folder while
        // `learn --force` runs again and again. The user's folder keeps its bytes, and no file of
        // rlda's lands in it.
        QTemporaryDir dir;
        const QString user = dir.filePath("user");
        write(user + "/precious.txt", "keep me\n");
        const auto before = folder_snapshot(user);
        const QString rlda_folder = rlda_run_folder(dir, "run");
        const QString link = dir.filePath("link");
        QVERIFY(QFile::link(rlda_folder, link));
        std::atomic<bool> done{false};
        std::thread flipper([&] {
            const QByteArray tmp = QFile::encodeName(dir.filePath("link.tmp"));
            const QByteArray to[2] = {QFile::encodeName(rlda_folder), QFile::encodeName(user)};
            for (int i = 0; !done; ++i) { // an atomic swap of the link: symlink(2), then rename(2)
                ::unlink(tmp);
                if (::symlink(to[i % 2], tmp) == 0)
                    ::rename(tmp, QFile::encodeName(link));
            }
        });
        int ran = 0;
        for (int i = 0; i < 12; ++i) {
            const auto r = rlda_cli({"learn", "--table", paper_table, "--model", "ConvNet2", "--episodes",
                                     "1", "--out", link, "--force"});
            ran += r.code == 0 ? 1 : 0;
            QVERIFY2(r.code == 0 || refused(r), qPrintable(r.err));
        }
        done = true;
        flipper.join();
        QCOMPARE(folder_snapshot(user), before);
        QVERIFY(ran > 0);
    }

    void what_a_killed_force_left_aside_goes_with_the_next_one()
    {
        // Round two, item 3: a --force killed while it removed the old folder left
        // `.run.rlda-replaced-PID`; the next command that prepares `run` removes it, unless the
        // --force that moved it is still at work (it holds the lock).
        QTemporaryDir dir;
        const QString out = rlda_run_folder(dir, "run");
        const auto rlda_folder = [&](const QString& name) {
            write(rlda_run_folder(dir, name) + "/model.pt", "weights\n");
            return dir.filePath(name);
        };
        const QString left = rlda_folder(".run.rlda-replaced-999999999");
        const QString busy = rlda_folder(".run.rlda-replaced-1");
        const auto held = rlda::core::FolderLock::take((busy + "/.rlda.lock").toStdString(), "busy");
        const auto r = rlda_cli({"train", quick, "--out", out, "--force"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(left));
        QVERIFY(QFileInfo::exists(busy + "/model.pt"));
    }

    void force_never_replaces_the_folder_it_runs_in()
    {
        // Round two, item 3: `--out . --force` inside a run folder deleted the run and then failed.
        QTemporaryDir dir;
        const QString out = rlda_run_folder(dir, "run");
        const auto before = folder_snapshot(out);
        QProcess p;
        p.setWorkingDirectory(out);
        p.start(rlda::test::rlda_program, {"train", quick, "--out", ".", "--force"});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 1);
        QCOMPARE(err,
                 QString("rlda: error: .: --force would replace the folder this command runs in; run it from "
                         "outside the folder\n"));
        QCOMPARE(folder_snapshot(out), before);
    }

    void parts_as_a_link_is_refused()
    {
        // Round two, item 4: a table folder's parts/ as a link to a user's folder.
        QTemporaryDir dir;
        const QString out = dir.filePath("table");
        const auto prepared = rlda_cli({"simulate", quick, "--out", out, "--prepare"});
        QVERIFY2(prepared.code == 0, qPrintable(prepared.err));
        QVERIFY(QDir().mkpath(dir.filePath("user")));
        QDir(out + "/parts").removeRecursively();
        QVERIFY(QFile::link(dir.filePath("user"), out + "/parts"));
        const auto r = rlda_cli({"simulate", quick, "--out", out, "--part", "1/2"});
        QVERIFY2(refused(r), qPrintable(r.err));
        QCOMPARE(r.err, "rlda: error: " + out +
                            "/parts: a symbolic link; rlda writes into no folder but its own; "
                            "remove it\n");
        QCOMPARE(QDir(dir.filePath("user")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList());
    }

    void a_replicated_table_refuses_other_seeds_before_writing()
    {
        // Round two, item 5: a resume whose seeds are not the folder's (none, another order, other
        // replicates) is refused before a byte is written, and the folder still resumes.
        QTemporaryDir dir;
        const QString out = dir.filePath("table");
        const QStringList build = {"simulate",  quick, "--set", "trainer.max_decisions=1",
                                   "--workers", "1",   "--out", out};
        const auto first = rlda_cli(build + QStringList{"--seeds", "1", "2"});
        QVERIFY2(first.code == 0, qPrintable(first.err));
        const auto files = [&] {
            auto s = folder_snapshot(out);
            s.remove(".rlda.lock"); // the pid of whoever looked last
            return s;
        };
        const auto before = files();
        for (const QStringList& seeds :
             {QStringList{}, QStringList{"--seeds", "2", "1"}, QStringList{"--replicates", "3"}}) {
            const auto r = rlda_cli(build + seeds);
            QVERIFY2(refused(r), qPrintable(r.err));
            QVERIFY2(r.err.contains(
                         "/config.toml: the table there was built at seeds 1, 2; give --seeds 1 2 (more "
                         "seeds may follow them) to go on, or pass --force to start over"),
                     qPrintable(r.err));
            QCOMPARE(files(), before);
        }
        // Round two, item 25: a seed folder's table.csv that does not parse is named with its line.
        const QString seed_table = out + "/seeds/seed-2/table.csv";
        const QString whole = read_text(seed_table);
        write(seed_table, whole.toUtf8() + "0,1,x,0.5\r\n");
        const auto bad = rlda_cli(build + QStringList{"--seeds", "1", "2"});
        QVERIFY2(refused(bad), qPrintable(bad.err));
        QVERIFY2(bad.err.contains("/seeds/seed-2/table.csv:6: "), qPrintable(bad.err));
        write(seed_table, whole.toUtf8());
        const auto grown = rlda_cli(build + QStringList{"--seeds", "1", "2", "3"});
        QVERIFY2(grown.code == 0, qPrintable(grown.err));
        QVERIFY2(grown.out.contains("(each the mean of 3 seeds)"), qPrintable(grown.out));
    }

    void one_seed_builds_at_that_seed()
    {
        // Round two, item 6: `--seeds 5` built at job.seed; sweep.seeds = [5] beside another
        // job.seed is refused, naming both keys.
        QTemporaryDir dir;
        const QString out = dir.filePath("table");
        const auto r = rlda_cli({"simulate", quick, "--set", "trainer.max_decisions=1", "--workers", "1",
                                 "--seeds", "5", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(read_text(out + "/table.json").contains("\"seed\": 5"),
                 qPrintable(read_text(out + "/table.json")));
        QVERIFY(read_text(out + "/config.toml").contains("seed = 5"));
        const auto bad =
            rlda_cli({"simulate", quick, "--set", "sweep.seeds=[5]", "--out", dir.filePath("other")});
        QVERIFY2(refused(bad), qPrintable(bad.err));
        QVERIFY2(
            bad.err.contains("sweep.seeds: one seed, 5, builds an unreplicated table at job.seed, which is "),
            qPrintable(bad.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("other")));
    }

    void replicates_past_the_largest_seed_are_refused()
    {
        // Round two, item 20: job.seed = 2^63 - 1 with --replicates 2 wrapped to -2^63, and the
        // message named a --set the user never typed.
        QTemporaryDir dir;
        const auto r = rlda_cli({"simulate", quick, "--set", "job.seed=9223372036854775807", "--replicates",
                                 "2", "--out", dir.filePath("t")});
        QVERIFY2(refused(r), qPrintable(r.err));
        QCOMPARE(r.err, QString("rlda: error: job.seed 9223372036854775807: 2 consecutive seeds from it pass "
                                "9223372036854775807, the largest seed; lower job.seed\n"));
        QVERIFY(!QFileInfo::exists(dir.filePath("t")));
    }

    void sigterm_ends_learning_with_its_policy_whole()
    {
        // Round two, item 22: `learn` had no handler; SIGTERM during a checkpoint left
        // policy.pt.tmp. It now stops between episodes, saves, and says so (exit 130).
        QTemporaryDir dir;
        const QString out = dir.filePath("learn");
        QProcess p;
        p.start(rlda::test::rlda_program,
                {"learn", "--table", paper_table, "--model", "ConvNet2", "--episodes", "100000000",
                 "--checkpoint-every", "1", "--out", out});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(out + "/policy.pt"), 60000);
        ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY(QString::fromUtf8(p.readAllStandardError())
                    .contains("rlda: learn: interrupted; the policy so far is kept in"));
        QVERIFY(!QFile::exists(out + "/policy.pt.tmp"));
        const auto eval = rlda_cli(
            {"evaluate", "--policy", out + "/policy.pt", "--table", paper_table, "--model", "ConvNet2"});
        QVERIFY2(eval.code == 0, qPrintable(eval.err));
    }

    void a_folder_named_like_an_option_reaches_the_workers()
    {
        // Round two, item 26: `--out=-dash` with workers spawned each with `--out -dash`, which
        // they refused as an option.
        QTemporaryDir dir;
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(rlda::test::rlda_program,
                {"simulate", quick, "--set", "trainer.max_decisions=1", "--workers", "2", "--out=-dash"});
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QVERIFY(QFile::exists(dir.filePath("-dash/table.csv")));
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

RLDA_SUITE_GUILESS_MAIN(TestUserFiles)
#include "test_user_files.moc"
