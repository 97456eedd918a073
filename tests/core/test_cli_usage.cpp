// rlda as a user meets it before any run: an unknown subcommand is named with its nearest match,
// at every level (app/cli/unknown_command.h, core/util/nearest_name.h); the bash completion and the man page are generated
// from the command line's own definition (app/cli/completion.h, manpage.h), so they list every
// subcommand and option rlda parses.
#include "core/util/nearest_name.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <string>
#include <vector>

namespace {

using rlda::test::CliResult;
using rlda::test::rlda_cli;

// Every command rlda has, by its path: what the completion and the man page must all hold.
// Every command a user runs, nested ones as "parent child"; the_command_list_is_every_command
// checks it against what `rlda --help` lists, so that a new command cannot be left out here.
const QStringList kCommands{"config keys",  "config examples", "model show",   "train",
                            "simulate",     "learn",           "evaluate",     "figures",
                            "reproduce",    "transfer",        "transfer-compare", "noise",
                            "sweep status", "sweep wait",      "sweep cancel", "completion bash",
                            "manpage"};

// Runs `program args` with `input` on stdin; exit code and both streams.
CliResult run(const QString& program, const QStringList& args, const QByteArray& input = {})
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return {-1, {}, program + ": not started"};
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, program + ": timed out"};
    }
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestCliUsage : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString completion_;

    // What the completion script offers for `line` (the word under the cursor is the last one; a
    // line ending in a space completes an empty word), one word per line.
    QStringList complete(const QString& line)
    {
        const QString script = dir_.filePath("rlda.bash");
        const auto r = run(
            "bash", {"-c",
                     "source \"$1\"; read -ra COMP_WORDS <<< \"$2\"; [[ $2 == *' ' ]] && COMP_WORDS+=('');"
                     " COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _rlda; printf '%s\\n' \"${COMPREPLY[@]}\"",
                     "_", script, line});
        return r.out.split('\n', Qt::SkipEmptyParts);
    }

    // The data row's args end with exit code 2 and exactly its expected one-line error.
    static void usage_error_as_expected()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CliResult r = rlda_cli(args);
        QCOMPARE(r.err, "rlda: error: " + expected + "\n");
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        const CliResult r = rlda_cli({"completion", "bash"});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(r.err));
        completion_ = r.out;
        QFile f(dir_.filePath("rlda.bash"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(completion_.toUtf8());
    }

    void edit_distance_counts_a_swap_as_one()
    {
        using rlda::core::edit_distance;
        QCOMPARE(edit_distance("trian", "train"), std::size_t{1});
        QCOMPARE(edit_distance("stauts", "status"), std::size_t{1});
        QCOMPARE(edit_distance("tain", "train"), std::size_t{1});
        QCOMPARE(edit_distance("", "sweep"), std::size_t{5});
        QCOMPARE(edit_distance("learn", "learn"), std::size_t{0});
        QCOMPARE(edit_distance("model", "modle"), std::size_t{1});
        QCOMPARE(edit_distance("kitten", "sitting"), std::size_t{3});
        const std::vector<std::string> names{"train", "simulate", "learn", "sweep", "model"};
        QCOMPARE(rlda::core::nearest_name("trian", names), std::string("train"));
        QCOMPARE(rlda::core::nearest_name("sim", names), std::string("simulate")); // begins only one
        QCOMPARE(rlda::core::nearest_name("xyzzy", names), std::string());
        QCOMPARE(rlda::core::nearest_name("swep", names), std::string("sweep"));
    }

    void an_unknown_command_is_named_with_the_nearest_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("top level") << QStringList{"trian", "x.toml"}
                                   << "unknown command 'trian'; did you mean 'train'?";
        QTest::newRow("alone") << QStringList{"trian"} << "unknown command 'trian'; did you mean 'train'?";
        QTest::newRow("after --verbose") << QStringList{"--verbose", "evalute", "--policy", "p.pt"}
                                         << "unknown command 'evalute'; did you mean 'evaluate'?";
        QTest::newRow("nested") << QStringList{"sweep", "stauts", "runs/x"}
                                << "unknown command 'sweep stauts'; did you mean 'sweep status'?";
        QTest::newRow("nested config")
            << QStringList{"config", "kyes"} << "unknown command 'config kyes'; did you mean 'config keys'?";
        QTest::newRow("a prefix") << QStringList{"sim", "x.toml"}
                                  << "unknown command 'sim'; did you mean 'simulate'?";
        QTest::newRow("nothing near")
            << QStringList{"xyzzy"}
            << "unknown command 'xyzzy' (commands: config, model, train, simulate, learn, evaluate, figures, "
               "reproduce, transfer, transfer-compare, noise, sweep, completion, manpage)";
    }
    void an_unknown_command_is_named_with_the_nearest() { usage_error_as_expected(); }

    // The tests that check "every command" (completion, man page) go through kCommands: it is the
    // list --help gives, each command with subcommands by its own --help.
    void the_command_list_is_every_command()
    {
        const auto subcommands = [](const QStringList& args) {
            const CliResult help = rlda_cli(args);
            QStringList names;
            const int from = help.out.indexOf(QStringLiteral("\nSubcommands:\n"));
            if (from < 0)
                return names;
            for (const QString& line : help.out.mid(from).split('\n').mid(2)) {
                const auto m = QRegularExpression(QStringLiteral("^  (\\S+)\\s")).match(line);
                if (!m.hasMatch())
                    break;
                names << m.captured(1);
            }
            return names;
        };
        QStringList every;
        for (const QString& command : subcommands({"--help"})) {
            const QStringList nested = subcommands({command, "--help"});
            if (nested.isEmpty())
                every << command;
            for (const QString& sub : nested)
                every << command + ' ' + sub;
        }
        QVERIFY(every.size() >= 16);
        QStringList listed = kCommands;
        listed.sort();
        every.sort();
        QCOMPARE(listed, every);
    }

    // An unknown option is named for its command, with what was most likely meant: an option of
    // the command, a setting through --set, or the schema's hint (issue 27: `rlda train x.toml
    // --epochs 3` said "The following arguments were not expected: 3 --epochs").
    void an_unknown_option_is_named_with_what_was_meant_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString epochs = "unknown option '--epochs' for 'rlda train': a run lasts its time budget in seconds, "
                               "not a number of epochs; use --set scheduler.budget=SECONDS";
        QTest::newRow("epochs") << QStringList{"train", "x.toml", "--epochs", "3"} << epochs;
        QTest::newRow("epochs=") << QStringList{"train", "x.toml", "--epochs=3"} << epochs;
        QTest::newRow("epochs first") << QStringList{"train", "--epochs", "3", "x.toml"} << epochs;
        QTest::newRow("a setting") << QStringList{"train", "x.toml", "--lr", "0.1"}
                                   << "unknown option '--lr' for 'rlda train'; did you mean --set job.lr=0.1?";
        QTest::newRow("a setting with dashes")
            << QStringList{"simulate", "x.toml", "--batch-size"}
            << "unknown option '--batch-size' for 'rlda simulate'; did you mean --set job.batch_size=VALUE?";
        QTest::newRow("an option") << QStringList{"train", "x.toml", "--ot", "runs/x"}
                                   << "unknown option '--ot' for 'rlda train'; did you mean '--out'?";
        QTest::newRow("after a value") << QStringList{"model", "show", "ConvNet2", "--deepen", "0", "--chek"}
                                       << "unknown option '--chek' for 'rlda model show'; did you mean '--check'?";
        QTest::newRow("nothing near") << QStringList{"train", "x.toml", "--bogus"}
                                      << "unknown option '--bogus' for 'rlda train' (rlda train --help lists them)";
        QTest::newRow("dashes alone") << QStringList{"train", "x.toml", "---"}
                                      << "unknown option '---' for 'rlda train' (rlda train --help lists them)";
        QTest::newRow("no --set") << QStringList{"learn", "--epochs", "3"}
                                  << "unknown option '--epochs' for 'rlda learn' (rlda learn --help lists them)";
        QTest::newRow("nested") << QStringList{"sweep", "status", "runs/x", "--bogus"}
                                << "unknown option '--bogus' for 'rlda sweep status' (rlda sweep status --help "
                                   "lists them)";
    }
    void an_unknown_option_is_named_with_what_was_meant() { usage_error_as_expected(); }

    // A line with every subcommand and option known keeps CLI11's own message: a missing argument,
    // a missing subcommand.
    void other_mistakes_keep_their_own_message()
    {
        CliResult r = rlda_cli({"train"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, QString("rlda: error: CONFIG is required (see rlda --help)\n"));
        r = rlda_cli({"sweep"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("rlda: error: A subcommand is required"), qPrintable(r.err));
        r = rlda_cli({"train", "x.toml", "extra.toml"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("extra.toml") && !r.err.contains("unknown"), qPrintable(r.err));
        // An option's value that starts with a dash is a value.
        r = rlda_cli({"model", "show", "ConvNet2", "--deepen", "-1"});
        QVERIFY2(!r.err.contains("unknown option"), qPrintable(r.err));
        // An option's value that looks like a command is a value.
        r = rlda_cli({"model", "show", "trian"});
        QVERIFY2(!r.err.contains("unknown command"), qPrintable(r.err));
    }

    // The shipped examples: listed where this rlda finds them (a build tree's: config/), and taken
    // by name where a file is due.
    void examples_are_listed_and_taken_by_name()
    {
        const CliResult list = rlda_cli({"config", "examples"});
        QCOMPARE(list.code, 0);
        QCOMPARE(list.out, QString(RLDA_SOURCE_DIR "/config/default.toml\n" RLDA_SOURCE_DIR
                                                   "/config/synthetic-quick.toml\n"));
        const QString out = dir_.filePath("quick");
        const CliResult r = rlda_cli({"train", "synthetic-quick", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("\nfinal_test_acc: "), qPrintable(r.out));
        QVERIFY(QFile::exists(out + "/config.toml"));
        // Not a file and not an example: the reader's own message, naming what was given.
        const CliResult missing = rlda_cli({"train", "synthetic-slow", "--out", dir_.filePath("slow")});
        QCOMPARE(missing.code, 1);
        QCOMPARE(missing.err, QString("rlda: error: synthetic-slow: no such file\n"));
    }

    void the_completion_script_parses_and_lists_every_command()
    {
        const CliResult r = run("bash", {"-n", dir_.filePath("rlda.bash")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(completion_.contains("complete -F _rlda rlda"));
        for (const QString& c : kCommands) {
            const QStringList words = c.split(' ');
            const QString parent = words.size() == 1 ? QString() : "/" + words.front();
            const QRegularExpression line(
                QString("\"%1\"\\) echo \"[^\"]*\\b%2\\b").arg(parent, words.back()));
            QVERIFY2(line.match(completion_).hasMatch(), qPrintable(c));
        }
    }

    void the_completion_completes_commands_options_and_choices()
    {
        QCOMPARE(complete("rlda tr"), (QStringList{"train", "transfer", "transfer-compare"}));
        QCOMPARE(complete("rlda sweep st"), QStringList{"status"});
        QCOMPARE(complete("rlda --verbose sweep c"), QStringList{"cancel"});
        QCOMPARE(complete("rlda config "), (QStringList{"keys", "examples"}));
        QCOMPARE(complete("rlda train --c"), QStringList{"--compare"});
        QCOMPARE(complete("rlda train --compare "), QStringList{"none"});
        QVERIFY(complete("rlda train --").contains("--verbose")); // rlda's own, after the subcommand
        QVERIFY(complete("rlda learn --").contains("--temperature-decay"));
        // An option's value is not a subcommand, and values and positionals complete file names.
        QFile(dir_.filePath("exp.toml")).open(QIODevice::WriteOnly);
        QCOMPARE(complete("rlda train --out train " + dir_.filePath("ex")),
                 QStringList{dir_.filePath("exp.toml")});
        QCOMPARE(complete("rlda train --out " + dir_.filePath("ex")), QStringList{dir_.filePath("exp.toml")});
    }

    void the_man_page_documents_every_command_and_option()
    {
        const CliResult r = rlda_cli({"manpage"});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(r.err));
        const QString page = r.out;
        QVERIFY2(page.contains(QRegularExpression("^\\.TH RLDA 1 \"\" \"rlda \\d+\\.\\d+\\.\\d+\"",
                                                  QRegularExpression::MultilineOption)),
                 qPrintable(page.left(300)));
        for (const char* section : {"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "ENVIRONMENT",
                                    "FILES", "EXIT STATUS", "EXAMPLES"})
            QVERIFY2(page.contains(QString("\n.SH %1\n").arg(section)), section);
        for (const QString& c : kCommands)
            QVERIFY2(page.contains(QString(".SS \"rlda %1").arg(QString(c).replace('-', "\\-"))),
                     qPrintable(c));
        // Every option of a command, as its --help lists them.
        const CliResult help = rlda_cli({"learn", "--help"});
        QCOMPARE(help.code, 0);
        const auto options = QRegularExpression("\\s(--[a-z-]+)").globalMatch(help.out);
        int count = 0;
        for (auto it = options; it.hasNext(); ++count) {
            const QString name = it.next().captured(1);
            QVERIFY2(page.contains("\\fB" + QString(name).replace('-', "\\-") + "\\fR"), qPrintable(name));
        }
        QVERIFY(count > 10);
        QVERIFY2(help.out.contains("man rlda") && help.out.contains("rlda completion bash"),
                 qPrintable(help.out));
        QVERIFY(page.contains("RLDA_DATA_DIR"));
        QVERIFY(!page.contains(QChar(0x2026))); // non-ASCII text is escaped for groff

        // groff reads it without a warning. scripts/test installs it (groff-base); without it the check
        // is skipped where it shows, and fails in CI, which must run it.
        const QString groff = QStandardPaths::findExecutable("groff");
        if (groff.isEmpty()) {
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                QFAIL("groff not found: the man page cannot be checked (Debian package groff-base)");
            QSKIP("groff not found: the man page is not checked (Debian package groff-base)");
        }
        const CliResult g = run(groff, {"-man", "-Tutf8", "-ww", "-z"}, page.toUtf8());
        QVERIFY2(g.code == 0 && g.err.isEmpty(), qPrintable(g.err));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestCliUsage)
#include "test_cli_usage.moc"
