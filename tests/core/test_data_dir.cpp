// Where programs find the shipped data: $RLDA_DATA_DIR, the installed package, the source tree, and
// one line naming every place looked at when none holds it.
#include "core/util/csv.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

namespace fs = std::filesystem;
using namespace rlda::core;

namespace {

const fs::path source_tables = fs::path(RLDA_PAPER_DIR) / "tables";

void set_data_dir(const std::string& dir)
{
    if (dir.empty())
        ::unsetenv("RLDA_DATA_DIR");
    else
        ::setenv("RLDA_DATA_DIR", dir.c_str(), 1);
}

void touch(const fs::path& file)
{
    fs::create_directories(file.parent_path());
    std::ofstream(file) << "x\n";
}

QString error_of(const fs::path& relative, const std::vector<fs::path>& dirs)
{
    try {
        find_data_file(relative, dirs);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestDataDir : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { set_data_dir({}); }
    void cleanupTestCase() { set_data_dir({}); }

    // A build-tree binary has no share/rlda-workbench beside it: the source tree's data/ answers.
    void build_tree_binaries_find_the_source_tree()
    {
        const fs::path tables = paper_tables_dir();
        QVERIFY2(fs::equivalent(tables, source_tables), tables.c_str());
        const CsvTable index = read_csv(tables / "index.csv");
        QCOMPARE(index.header, (std::vector<std::string>{"file", "model", "scenario", "adaptation_start_s",
                                                         "budget_s", "sequences"}));
        QCOMPARE(index.rows.size(), std::size_t{10});
        for (const auto& row : index.rows)
            QVERIFY2(fs::is_regular_file(tables / row[0]), row[0].c_str());
        QVERIFY(fs::equivalent(paper_ranks_file(), fs::path(RLDA_PAPER_DIR) / "ranks.csv"));
    }

    // The transfer study of docs/agent.md: a run per encoder, state first, each a transfer run.
    void the_transfer_study_is_found_the_same_way()
    {
        const auto runs = transfer_study_runs();
        QCOMPARE(runs.size(), std::size_t{2});
        const fs::path study = fs::path(RLDA_SOURCE_DIR) / "data" / "fashion-mnist" / "study";
        QVERIFY(fs::equivalent(runs[0], study / "state"));
        QVERIFY(fs::equivalent(runs[1], study / "structural"));
        for (const auto& run : runs)
            for (const char* file : {"folds.csv", "ranks.csv", "references.csv"})
                QVERIFY2(fs::is_regular_file(run / file), (run / file).c_str());
    }

    void ranks_file_holds_the_published_ranks()
    {
        const CsvTable ranks = read_csv(paper_ranks_file());
        QCOMPARE(ranks.header,
                 (std::vector<std::string>{"trained_on", "evaluated_on_model", "scenario", "rank"}));
        QCOMPARE(ranks.rows.size(), std::size_t{16}); // 6 from scratch, 5 + 5 after the curriculum
        std::set<std::string> tables;
        for (const auto& row : read_csv(paper_tables_dir() / "index.csv").rows)
            tables.insert(row[1] + "/" + row[2]);
        std::map<std::string, int> rank;
        for (const auto& row : ranks.rows) {
            QVERIFY2(row[0] == "scratch" || row[0] == "curriculum", row[0].c_str());
            QVERIFY2(tables.count(row[1] + "/" + row[2]), (row[1] + "/" + row[2]).c_str()); // a shipped table
            const int r = std::stoi(row[3]);
            QVERIFY(r >= 1 && r <= 64);
            rank[row[0] + " " + row[1] + " " + row[2]] = r;
        }
        QCOMPARE(rank.size(), std::size_t{16});
        QCOMPARE(rank["scratch ConvNet2 middle"], 5);
        QCOMPARE(rank["scratch ConvNet3 early"], 6);
        QCOMPARE(rank["curriculum ConvNet2 middle"], 17);
        QCOMPARE(rank["curriculum ConvNet3 early"], 60);
        QCOMPARE(rank["curriculum ConvNet3 late"], 47);
    }

    void places_are_tried_in_order()
    {
        const fs::path exe = fs::read_symlink("/proc/self/exe");
        auto dirs = data_dirs();
        QCOMPARE(dirs.size(), std::size_t{2});
        QCOMPARE(dirs[0].string(), (exe.parent_path().parent_path() / "share" / "rlda-workbench").string());
        QVERIFY(fs::equivalent(dirs[1], fs::path(RLDA_SOURCE_DIR) / "data"));
        set_data_dir("/somewhere/else");
        dirs = data_dirs();
        QCOMPARE(dirs.size(), std::size_t{3});
        QCOMPARE(dirs[0].string(), std::string("/somewhere/else"));
        set_data_dir(""); // empty = not set
        QCOMPARE(data_dirs().size(), std::size_t{2});
    }

    void rlda_data_dir_comes_first()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        touch(root / "paper" / "tables" / "index.csv");
        touch(root / "paper" / "ranks.csv");
        set_data_dir(root.string());
        QCOMPARE(paper_tables_dir().string(), (root / "paper" / "tables").string());
        QCOMPARE(paper_ranks_file().string(), (root / "paper" / "ranks.csv").string());
    }

    // A folder without the file is passed over, not taken: the next place answers.
    void rlda_data_dir_without_the_data_is_passed_over()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        fs::create_directories(root / "paper" / "tables"); // the folder alone is not enough
        touch(root / "paper" / "ranks.csv");
        set_data_dir(root.string());
        QVERIFY(fs::equivalent(paper_tables_dir(), source_tables));
        QCOMPARE(paper_ranks_file().string(), (root / "paper" / "ranks.csv").string());
    }

    // The examples and the docs: config/ and the tree's root from a build tree, and under
    // $RLDA_DATA_DIR's examples/ and doc/ when those hold them.
    void examples_and_documentation_are_found_the_same_way()
    {
        const fs::path source = RLDA_SOURCE_DIR;
        QVERIFY(fs::equivalent(examples_dir(), source / "config"));
        QVERIFY(fs::equivalent(documentation_dir(), source));
        const auto examples = example_files();
        QVERIFY(examples.size() >= 2);
        QVERIFY(std::is_sorted(examples.begin(), examples.end()));
        QVERIFY(std::find(examples.begin(), examples.end(), examples_dir() / "default.toml") != examples.end());
        for (const auto& f : examples)
            QCOMPARE(f.extension().string(), std::string(".toml")); // models/ is not an experiment

        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        set_data_dir(root.string());
        QVERIFY(fs::equivalent(examples_dir(), source / "config")); // no examples/ there: passed over
        QCOMPARE(example_dirs().front().string(), (root / "examples").string());
        QCOMPARE(documentation_dirs().front().string(), (root / "doc").string());
        touch(root / "examples" / "default.toml");
        touch(root / "doc" / "README.md");
        QCOMPARE(examples_dir().string(), (root / "examples").string());
        QCOMPARE(example_files(), std::vector<fs::path>{root / "examples" / "default.toml"});
        QCOMPARE(documentation_dir().string(), (root / "doc").string());
    }

    void nothing_found_is_one_line_naming_every_place()
    {
        QTemporaryDir tmp;
        const fs::path a = fs::path(tmp.path().toStdString()) / "a",
                       b = fs::path(tmp.path().toStdString()) / "b";
        fs::create_directories(b / "paper" / "tables");
        const fs::path relative = fs::path("paper") / "tables" / "index.csv";
        const QString msg = error_of(relative, {a, b});
        QVERIFY2(msg.startsWith("paper/tables/index.csv not found (looked at: "), qPrintable(msg));
        QVERIFY2(msg.contains(QString::fromStdString((a / relative).string()) + ", " +
                              QString::fromStdString((b / relative).string()) + ")"),
                 qPrintable(msg));
        QVERIFY2(msg.contains("RLDA_DATA_DIR"), qPrintable(msg));
        QVERIFY2(!msg.contains('\n'), qPrintable(msg));
        QVERIFY(error_of(relative, {}).contains("(looked at: nothing)"));
        QCOMPARE(find_data_file(relative, {a, fs::path(RLDA_SOURCE_DIR) / "data"}).string(),
                 (fs::path(RLDA_SOURCE_DIR) / "data" / relative).string());
    }
};

RLDA_SUITE_GUILESS_MAIN(TestDataDir)
#include "test_data_dir.moc"
