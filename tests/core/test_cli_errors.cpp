// Errors are one line whatever threw them: LibTorch's backtraces, the standard library's and the
// parsers' messages are cut to their first line (core/util/error_text.h), rlda names the command
// in front of one it did not diagnose, and `--verbose` prints the rest; a file rlda reads that is
// a folder is refused by name (core/util/read_file.h) instead of a stream's "underflow error".
#include "core/util/error.h"
#include "core/util/error_text.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_sim.h"

#include <QtTest/QtTest>

#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <new>

namespace {

void write_file(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

} // namespace

class TestCliErrors : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void error_line_is_the_first_line_of_any_exception()
    {
        using rlda::core::error_line;
        // LibTorch's errors: test_net2net (libtorch_errors_are_one_line), which links LibTorch.
        try {
            (void)toml::parse(std::string_view("a = "), std::string_view("x.toml"));
            QFAIL("no parse error");
        } catch (const toml::parse_error& e) {
            const std::string line = error_line(e);
            QVERIFY2(line.starts_with("x.toml:1:") && line.find('\n') == std::string::npos, line.c_str());
        }
        QCOMPARE(error_line(std::bad_alloc()), std::string("out of memory (std::bad_alloc)"));
        QCOMPARE(error_line(std::runtime_error("one\ntwo")), std::string("one"));
        // rlda's own messages are left as they are.
        QCOMPARE(error_line(rlda::core::Error("f.toml: key: reason")), std::string("f.toml: key: reason"));
    }

    void an_error_rlda_did_not_diagnose_is_one_line_naming_the_command()
    {
        // A prepared table folder whose parts/ is a file: creating the part file's folder throws the
        // standard library's filesystem_error. Should the engine come to name it itself, the exit code
        // becomes 1 and --verbose adds nothing; one line it stays.
        QTemporaryDir dir;
        const QString out = dir.filePath("table");
        QVERIFY(QDir().mkpath(out));
        write_file(out + "/config.toml", rlda::test::tiny_toml);
        write_file(out + "/warm_start.pt", "");
        write_file(out + "/parts", "");
        const QStringList args = {"simulate", out + "/config.toml", "--out", out, "--part", "0/2"};
        const auto r = rlda::test::rlda_cli(args);
        QVERIFY2(r.code == 3 || r.code == 1, qPrintable(r.err));
        QVERIFY2(r.err.startsWith("rlda: error: ") && r.err.contains(out + "/parts") && r.err.count('\n') == 1,
                 qPrintable(r.err));
        if (r.code == 3)
            QVERIFY2(r.err.startsWith("rlda: error: simulate: "), qPrintable(r.err));
        // --verbose, before or after the subcommand: the same first line, then the whole text.
        for (const QStringList& verbose : {QStringList{"--verbose"} + args, args + QStringList{"--verbose"}}) {
            const auto v = rlda::test::rlda_cli(verbose);
            QCOMPARE(v.code, r.code);
            QVERIFY2(v.err.startsWith(r.err), qPrintable(v.err));
            QVERIFY2(r.code == 1 ? v.err == r.err : v.err.size() > r.err.size(), qPrintable(v.err));
        }
    }

    void a_sweep_record_that_is_a_folder_is_named()
    {
        // Was "rlda: internal error: basic_filebuf::underflow error reading the file: Is a directory".
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("sweep.json")));
        const QString record = QDir(dir.path()).absoluteFilePath("sweep.json");
        for (const QString& command : {QString("status"), QString("wait"), QString("cancel")}) {
            const auto r = rlda::test::rlda_cli({"sweep", command, dir.path()});
            QCOMPARE(r.code, 1);
            QCOMPARE(r.err, "rlda: error: " + record + ": is a folder, not a file\n");
        }
        // rlda's own errors are the same with --verbose.
        const auto v = rlda::test::rlda_cli({"--verbose", "sweep", "status", dir.path()});
        QCOMPARE(v.err, "rlda: error: " + record + ": is a folder, not a file\n");
    }

    void table_metadata_that_is_a_folder_is_named()
    {
        // Was read as "no metadata" and the table's model assumed.
        QTemporaryDir dir;
        const QString table = dir.filePath("t");
        QVERIFY(QDir().mkpath(table + "/table.json"));
        QVERIFY(QFile::copy(RLDA_PAPER_DIR "/tables/convnet2_early.csv", table + "/table.csv"));
        const auto r = rlda::test::rlda_cli({"learn", "--table", table, "--episodes", "1", "--out", dir.filePath("o")});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err, "rlda: error: " + table + "/table.json: is a folder, not a file\n");
        QVERIFY(!QFileInfo::exists(dir.filePath("o")));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestCliErrors)
#include "test_cli_errors.moc"
