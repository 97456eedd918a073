// Simulation tables: the reference seed tables, the time-left rule, ranking and baselines, the
// file format round trip and one-line errors for malformed files.
#include "core/table/table.h"
#include "core/util/csv.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/text_file.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using rlda::core::Error;
using rlda::core::sim::SimulationTable;
using rlda::core::sim::TableRow;
using rlda::test::slurp;

namespace {

const std::string tables_dir = RLDA_PAPER_DIR "/tables";

std::vector<std::string> reference_tables()
{
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(tables_dir))
        if (e.path().extension() == ".csv" && e.path().filename() != "index.csv")
            files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

TableRow row(std::vector<int> actions, double accuracy)
{
    return {std::move(actions), {20.0, 10.0}, 30.0, accuracy};
}

// k = 2 over 3 actions (2 blocks + Do Nothing), added out of order; 0.6 three times for ties.
SimulationTable small_table()
{
    SimulationTable t(2, 3);
    for (auto&& r :
         {row({2, 2}, 0.55), row({0, 0}, 0.5), row({1, 1}, 0.9), row({0, 1}, 0.6), row({0, 2}, 0.4),
          row({1, 0}, 0.7), row({2, 1}, 0.6), row({1, 2}, 0.6), row({2, 0}, 0.3)})
        t.add(r);
    return t;
}

// The message of the Error that loading `text` (as a file) throws, and that file's path.
std::pair<std::string, std::string> load_error(const QTemporaryDir& dir, const std::string& text,
                                               int num_actions = 0)
{
    const std::string path = dir.filePath("bad.csv").toStdString();
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    try {
        SimulationTable::load(path, num_actions);
    } catch (const Error& e) {
        return {e.what(), path};
    }
    return {"(no error)", path};
}

const std::string good_header = "a1,a2,a3,timeleft1,timeleft2,timeleft3,totaltime,accuracy\n";

} // namespace

class TestSimTable : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The header test the workbench's drops use is the parser's own: replicated headers included.
    void a_header_is_told_by_the_tables_parser()
    {
        using rlda::core::sim::is_table_header;
        using rlda::core::sim::table_header;
        QVERIFY(is_table_header("a1,a2,timeleft1,timeleft2,totaltime,accuracy"));
        QVERIFY(is_table_header(table_header(3, {42, 43})));
        QVERIFY(!is_table_header("epoch,train_acc,test_acc"));
        QVERIFY(!is_table_header("a1,a2,timeleft1,timeleft2,totaltime,accuracy,accuracy_seedx"));
        QVERIFY(!is_table_header(""));
    }

    void loads_every_reference_table()
    {
        const auto files = reference_tables();
        QCOMPARE(files.size(), std::size_t{10});
        for (const auto& f : files) {
            const auto t = SimulationTable::load(f);
            QCOMPARE(t.decisions(), 3);
            QCOMPARE(t.num_actions(), 4);
            QCOMPARE(t.rows().size(), std::size_t{64});
            QVERIFY(t.complete());
            QCOMPARE(t.sequences(), std::int64_t{64});
            for (std::size_t i = 1; i < t.rows().size(); ++i)
                QVERIFY(t.rows()[i - 1].actions < t.rows()[i].actions);
            for (const auto& r : t.rows()) {
                QCOMPARE(r.total_time, 400.0);
                QCOMPARE(t.find(r.actions), &r);
            }
        }
    }

    void reads_the_index()
    {
        const auto index = rlda::core::sim::load_table_index(tables_dir + "/index.csv");
        QCOMPARE(index.size(), std::size_t{10});
        QCOMPARE(index[0].model, std::string("ConvNet2"));
        QCOMPARE(index[0].scenario, std::string("early"));
        QCOMPARE(index[0].adaptation_start, 70.0);
        QCOMPARE(index[0].budget, 400.0);
        QCOMPARE(index[4].scenario, std::string("late"));
        QCOMPARE(index[4].adaptation_start, 330.0);
        QCOMPARE(index[9].model, std::string("ConvNet3"));
        for (const auto& e : index) {
            const auto t = SimulationTable::load(e.file); // the path opens from anywhere
            QCOMPARE(static_cast<int>(t.rows().size()), e.sequences);
            QCOMPARE(t.rows().front().total_time, e.budget);
            // The first decision comes right after the allocation goes up.
            QVERIFY(std::abs(e.budget - e.adaptation_start - t.time_left({})) < 2.0);
        }
    }

    void time_left_follows_the_original_rule()
    {
        const std::string file = tables_dir + "/convnet2_early.csv";
        const auto t = SimulationTable::load(file);
        const auto raw = rlda::core::read_csv(file);
        // The raw CSV cell timeleft(j+1) of the row "prefix, then zeros".
        const auto raw_time_left = [&](const std::vector<int>& prefix) {
            std::vector<int> seq = prefix;
            seq.resize(3, 0);
            for (const auto& r : raw.rows)
                if (std::stoi(r[0]) == seq[0] && std::stoi(r[1]) == seq[1] && std::stoi(r[2]) == seq[2])
                    return std::stod(r[3 + prefix.size()]);
            return -1.0;
        };
        QCOMPARE(t.time_left({}), 328.882122);
        QCOMPARE(t.time_left({}), raw_time_left({}));
        int checked = 1;
        for (int a = 0; a < 4; ++a) {
            QCOMPARE(t.time_left({a}), raw_time_left({a}));
            ++checked;
            for (int b = 0; b < 4; ++b, ++checked)
                QCOMPARE(t.time_left({a, b}), raw_time_left({a, b}));
        }
        QCOMPARE(checked, 21);
        QCOMPARE(t.time_left({1}), 318.117121);    // row 1,0,0: timeleft2
        QCOMPARE(t.time_left({1, 0}), 306.059441); // row 1,0,0: timeleft3
        QCOMPARE(t.time_left({0, 1}), 306.346805); // row 0,1,0: timeleft3
        QVERIFY_THROWS_EXCEPTION(Error, t.time_left({0, 1, 2}));
    }

    void ranks_optimum_and_baselines_on_a_small_table()
    {
        const auto t = small_table();
        QVERIFY(t.complete());
        QCOMPARE(t.rows().size(), std::size_t{9});
        QCOMPARE(t.rows().front().actions, (std::vector<int>{0, 0}));
        QCOMPARE(t.rows()[5].actions, (std::vector<int>{1, 2}));
        QCOMPARE(t.optimal().actions, (std::vector<int>{1, 1}));
        QCOMPARE(t.rank({1, 1}), 1);
        QCOMPARE(t.rank({1, 0}), 2);
        // Ties share the best rank.
        QCOMPARE(t.rank({0, 1}), 3);
        QCOMPARE(t.rank({1, 2}), 3);
        QCOMPARE(t.rank({2, 1}), 3);
        QCOMPARE(t.rank({2, 2}), 6);
        QCOMPARE(t.rank({0, 0}), 7);
        QCOMPARE(t.rank({2, 0}), 9);
        QCOMPARE(t.no_adaptation_sequence(), (std::vector<int>{2, 2}));
        QCOMPARE(t.accuracy(t.no_adaptation_sequence()), 0.55);
        QCOMPARE(t.expected_random(), (0.5 + 0.6 + 0.4 + 0.7 + 0.9 + 0.6 + 0.3 + 0.6 + 0.55) / 9.0);
        QCOMPARE(t.time_left({}), 20.0);
        QCOMPARE(t.time_left({2}), 10.0);
    }

    void optimal_ties_go_to_the_first_sequence()
    {
        SimulationTable t(1, 3);
        t.add({{2}, {5.0}, 10.0, 0.8});
        t.add({{1}, {5.0}, 10.0, 0.8});
        t.add({{0}, {5.0}, 10.0, 0.1});
        QCOMPARE(t.optimal().actions, std::vector<int>{1});
        QCOMPARE(t.rank({1}), 1);
        QCOMPARE(t.rank({2}), 1);
        QCOMPARE(t.rank({0}), 3);
    }

    void random_mean_is_seeded_and_unbiased()
    {
        const auto t = small_table();
        // The documented recipe: std::mt19937_64(seed), each action uniform in 0..n.
        std::mt19937_64 rng(7);
        std::uniform_int_distribution<int> pick(0, 2);
        double sum = 0.0;
        for (int i = 0; i < 10; ++i) {
            const int a = pick(rng);
            const int b = pick(rng);
            sum += t.accuracy({a, b});
        }
        QCOMPARE(t.random_mean(10, 7), sum / 10);
        QCOMPARE(t.random_mean(10, 7), t.random_mean(10, 7));
        // Seed 11, 200,000 draws: the standard error is ~0.0004, the bound 0.003.
        QVERIFY(std::abs(t.random_mean(200000, 11) - t.expected_random()) < 0.003);
        QVERIFY_THROWS_EXCEPTION(Error, t.random_mean(0));
    }

    void add_find_and_missing_sequences()
    {
        SimulationTable t(2, 3);
        QVERIFY(!t.complete());
        QCOMPARE(t.sequences(), std::int64_t{9});
        t.add(row({1, 2}, 0.5));
        QVERIFY(t.find({1, 2}) != nullptr);
        QVERIFY(t.find({2, 1}) == nullptr);
        QVERIFY(t.find({3, 0}) == nullptr);
        QVERIFY(t.find({1}) == nullptr);
        QVERIFY_THROWS_EXCEPTION(Error, t.add(row({1, 2}, 0.4)));  // duplicate
        QVERIFY_THROWS_EXCEPTION(Error, t.add(row({1, 3}, 0.4)));  // action out of range
        QVERIFY_THROWS_EXCEPTION(Error, t.add(row({1, 1}, 1.01))); // accuracy
        QVERIFY_THROWS_EXCEPTION(Error, t.add({{0, 0}, {1.0}, 2.0, 0.5}));
        try {
            t.accuracy({0, 1});
            QFAIL("no error for a missing sequence");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("[0 1]") != std::string::npos, e.what());
        }
        try {
            t.time_left({2}); // needs row [2 0]
            QFAIL("no error for a missing time-left row");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("[2 0]") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(Error, SimulationTable(0, 3));
        QVERIFY_THROWS_EXCEPTION(Error, SimulationTable(40, 9));
    }

    void resaving_a_reference_table_is_byte_identical()
    {
        QTemporaryDir dir;
        for (const auto& f : reference_tables()) {
            const std::string copy = dir.filePath("copy.csv").toStdString();
            SimulationTable::load(f).save(copy);
            QCOMPARE(slurp(copy), slurp(f));
        }
    }

    void save_load_round_trip()
    {
        QTemporaryDir dir;
        const std::string first = dir.filePath("first.csv").toStdString();
        const std::string second = dir.filePath("second.csv").toStdString();
        SimulationTable t(2, 3);
        t.add({{2, 1}, {12.25, 1.0 / 3.0}, 30.5, 0.123456789});
        t.add({{0, 2}, {12.25, 7.0}, 30.5, 1.0});
        t.add({{1, 0}, {12.25, 0.0}, 30.5, 0.0});
        t.save(first);
        const auto back = SimulationTable::load(first);
        QCOMPARE(back.decisions(), 2);
        QCOMPARE(back.num_actions(), 3);
        QCOMPARE(back.rows().size(), std::size_t{3});
        QCOMPARE(back.rows()[0].actions, (std::vector<int>{0, 2}));
        QCOMPARE(back.rows()[2].accuracy, 0.123456789); // shortest exact text: no digits lost
        QCOMPARE(back.rows()[2].total_time, 30.5);
        QCOMPARE(back.rows()[2].time_left, (std::vector<double>{12.25, 0.333333})); // 6 decimals
        QCOMPARE(back.rows()[1], t.rows()[1]);
        back.save(second);
        QCOMPARE(slurp(second), slurp(first));
        QCOMPARE(slurp(first).substr(0, 44), std::string("a1,a2,timeleft1,timeleft2,totaltime,accuracy"));
        QVERIFY(!std::filesystem::exists(first + ".tmp"));
    }

    // Errors about a loaded table's fit name its file, whichever command reads it.
    void a_loaded_table_is_named_in_its_errors()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("partial.csv").toStdString();
        std::ofstream(path, std::ios::binary) << good_header << "0,0,0,3.0,2.0,1.0,4,0.5\n";
        const auto t = SimulationTable::load(path, 3);
        QCOMPARE(t.source(), path);
        QCOMPARE(small_table().source(), std::string("simulation table"));
    }

    void malformed_files_give_one_line_errors()
    {
        QTemporaryDir dir;
        struct Case {
            const char* name;
            std::string text;
            int line;
            const char* reason;
            int num_actions = 0;
        };
        const std::string row0 = "0,0,0,3.0,2.0,1.0,4,0.5\n";
        const std::vector<Case> cases{
            {"bad header", "a1,a2,a3,timeleft1,timeleft2,timeleft3,total,accuracy\n" + row0, 1, "header"},
            {"missing header column", "a1,a2,a3,timeleft1,timeleft2,timeleft3,totaltime\n", 1, "header"},
            {"missing column", good_header + row0 + "0,0,1,3.0,2.0,1.0,4\n", 3, "fields"},
            {"not a number", good_header + row0 + "0,0,1,3.0,x2,1.0,4,0.5\n", 3, "timeleft2"},
            {"not an integer", good_header + "0,1.5,0,3.0,2.0,1.0,4,0.5\n", 2, "a2"},
            {"duplicate row", good_header + row0 + "0,0,1,3.0,2.0,1.0,4,0.5\n" + row0, 4, "duplicate"},
            {"accuracy above 1", good_header + "0,0,0,3.0,2.0,1.0,4,1.2\n", 2, "accuracy"},
            {"negative action", good_header + "0,-1,0,3.0,2.0,1.0,4,0.5\n", 2, "a2"},
            {"action out of range", good_header + row0 + "0,0,4,3.0,2.0,1.0,4,0.5\n", 3, "a3", 4},
            {"time left beyond the total", good_header + row0 + "0,0,1,3.0,5.0,1.0,4,0.5\n", 3,
             "timeleft2: 5 is more than the total time 4"},
            // Totals have a limit (about 31 years), so that no absurd figure is ranked or learned from.
            {"total time beyond its limit", good_header + row0 + "0,0,1,3.0,2.0,1.0,1e18,0.5\n", 3,
             "totaltime: must be a number from 0 to 1e+09 seconds, got 1e+18"},
            {"negative total time", good_header + "0,0,1,0,0,0,-1,0.5\n", 2,
             "totaltime: must be a number from 0"},
            {"NaN total time", good_header + "0,0,1,0,0,0,nan,0.5\n", 2, "totaltime: not a number: \"nan\""},
            {"infinite time left", good_header + "0,0,1,inf,0,0,1,0.5\n", 2,
             "timeleft1: not a number: \"inf\""},
            {"NaN accuracy", good_header + "0,0,1,0,0,0,1,nan\n", 2, "accuracy: not a number"},
            {"negative accuracy", good_header + "0,0,1,0,0,0,1,-0.1\n", 2, "accuracy: must lie in [0, 1]"},
            // Without a given number of actions the largest sizes the table: refused at its line.
            {"action that would size the table beyond any",
             good_header + row0 + "0,2147483647,0,3.0,2.0,1.0,4,0.5\n", 3,
             "a2: action 2147483647 makes 2147483648^3 action sequences, too many to tabulate (at most "
             "1048576)"},
            {"action too large for 3 decisions", good_header + "0,0,102,3.0,2.0,1.0,4,0.5\n", 2,
             "a3: action 102 makes 103^3 action sequences"},
        };
        for (const auto& c : cases) {
            const auto [message, path] = load_error(dir, c.text, c.num_actions);
            const std::string prefix = path + ":" + std::to_string(c.line) + ": ";
            QVERIFY2(message.rfind(prefix, 0) == 0,
                     qPrintable(QString("%1: %2").arg(c.name, message.c_str())));
            QVERIFY2(message.find(c.reason) != std::string::npos,
                     qPrintable(QString("%1: %2").arg(c.name, message.c_str())));
            QVERIFY2(message.find('\n') == std::string::npos, c.name);
        }
    }
};

RLDA_SUITE_GUILESS_MAIN(TestSimTable)
#include "test_sim_table.moc"
