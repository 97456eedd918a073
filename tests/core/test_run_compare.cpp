// What the runs list compares runs by: the config keys that differ (diff_configs), a run's fields as
// columns (run_fields), and its tags and note (notes.json), which never break the run's reader.
#include "core/config/config_diff.h"
#include "core/config/experiment_io.h"
#include "core/io/run_fields.h"
#include "core/io/run_notes.h"
#include "core/io/run_reader.h"
#include "core/util/error.h"
#include "tests/common/error_of.h"
#include "tests/common/suite.h"
#include "tests/common/text_file.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using rlda::test::error_of;

using namespace rlda::core;
namespace fs = std::filesystem;

namespace {

using rlda::test::dir_of;
using rlda::test::write_text;

config::ExperimentConfig parse(const std::string& text) { return config::parse_experiment(text, "x.toml"); }

} // namespace

class TestRunCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void equalConfigsDifferInNothing()
    {
        const auto a = parse("name = \"a\"\n[job]\nlr = 0.01\n");
        QVERIFY(config::diff_configs(a, a).empty());
        // A default written out is the same setting as one left out.
        QVERIFY(config::diff_configs(a, parse(config::to_toml(a))).empty());
    }

    void onlyTheKeysThatDiffer()
    {
        const auto a = parse("name = \"a\"\n[job]\nlr = 0.01\nseed = 7\n[scheduler]\nbudget = 60\n");
        const auto b = parse("name = \"b\"\n[job]\nlr = 0.02\nseed = 7\n[scheduler]\nbudget = 60\n"
                             "[agent]\nkind = \"random\"\n");
        const auto d = config::diff_configs(a, b);
        // In the schema's order, each key named once by its schema name, values as TOML writes them.
        const std::vector<config::KeyDifference> expected{
            {"name", "\"a\"", "\"b\""}, {"job.lr", "0.01", "0.02"}, {"agent.kind", "\"fixed\"", "\"random\""}};
        QCOMPARE(d.size(), expected.size());
        for (std::size_t i = 0; i < d.size(); ++i) {
            QCOMPARE(d[i].key, expected[i].key);
            QCOMPARE(d[i].a, expected[i].a);
            QCOMPARE(d[i].b, expected[i].b);
            QVERIFY(config::experiment_schema().find(d[i].key));
        }
        // Swapped, the same keys with their sides swapped.
        const auto r = config::diff_configs(b, a);
        QCOMPARE(r.size(), d.size());
        QCOMPARE(r[1].a, d[1].b);
    }

    void arraysAndEventsCompareWhole()
    {
        const auto a = parse("[scheduler]\nevents = [{ time = 1.0, change = \"up\" }]\n[agent]\nsequence = [0, 1]\n");
        const auto b = parse("[scheduler]\nevents = [{ time = 2.0, change = \"up\" }]\n[agent]\nsequence = [0, 1]\n");
        const auto d = config::diff_configs(a, b);
        QCOMPARE(d.size(), std::size_t(1));
        QCOMPARE(d[0].key, std::string("scheduler.events"));
    }

    void fieldsOfATrainingRun()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "run";
        write_text(d / "config.toml", "name = \"r\"\n[job]\nmodel = \"ConvNet2\"\nseed = 11\n[scheduler]\nbudget = 60\n");
        write_text(d / "metrics/test_acc.csv", "epoch,time,value\n1,1,0.5\n");
        write_text(d / "events.jsonl", R"({"type":"finished","final_test_acc":0.75,"epochs":10,"steps":80,)"
                                  R"("actions":[0],"cancelled":false,"parameters":1234})"
                                  "\n");
        const auto f = io::run_fields(io::read_run(d));
        QVERIFY(f.config_error.empty());
        QCOMPARE(f.values.at("job.model").text, std::string("ConvNet2")); // unquoted
        QCOMPARE(*f.values.at("job.seed").number, 11.0);
        QCOMPARE(*f.values.at("scheduler.budget").number, 60.0);
        QVERIFY(!f.values.at("job.model").number);
        QCOMPARE(*f.values.at("final_accuracy").number, 0.75);
        QCOMPARE(f.values.at("final_accuracy").text, std::string("0.75"));
        QCOMPARE(*f.values.at("epochs").number, 10.0);
        QCOMPARE(*f.values.at("parameters").number, 1234.0);
        QVERIFY(!f.values.count("rank"));
        // Result ids never clash with a config key.
        for (const auto& r : io::result_fields())
            QVERIFY(!config::experiment_schema().find(r.id));
    }

    void fieldsOfALearningRun()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "learn";
        write_text(d / "metrics/episodes.csv",
              "episode,time,objective,accuracy,reward,lr,temperature,actions,probabilities\n"
              "1,0.1,-1,0.5,0,0.001,1,0 1,0.5 0.5 | 0.5 0.5\n");
        write_text(d / "events.jsonl", R"({"type":"settings","model":"ConvNet3","seed":3})"
                                  "\n"
                                  R"({"type":"greedy","episode":1,"greedy":[0,1],"rank":9})"
                                  "\n"
                                  R"({"type":"evaluation","evaluation":{"rank":4,"accuracy":0.625,"regret":0.01}})"
                                  "\n");
        const auto f = io::run_fields(io::read_run(d));
        QCOMPARE(f.values.at("job.model").text, std::string("ConvNet3"));
        QCOMPARE(*f.values.at("rank").number, 4.0);
        QCOMPARE(*f.values.at("final_accuracy").number, 0.625);
        QCOMPARE(*f.values.at("episodes").number, 1.0);
    }

    void aBadConfigIsOneLineAndNoColumns()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "bad";
        write_text(d / "config.toml", "[job]\nlr = -1\n");
        const auto f = io::run_fields(io::read_run(d));
        QVERIFY(!f.config_error.empty());
        QVERIFY(f.config_error.find('\n') == std::string::npos);
        QVERIFY(!f.values.count("job.lr"));
    }

    void notesRoundTrip()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp);
        QVERIFY(io::read_notes(d).empty()); // no file: no notes
        io::RunNotes n{io::parse_tags(" baseline, lr-sweep,,baseline "), "first try\nwith a second line"};
        QCOMPARE(n.tags, (std::vector<std::string>{"baseline", "lr-sweep"}));
        QCOMPARE(io::tags_text(n.tags), std::string("baseline, lr-sweep"));
        io::write_notes(d, n);
        QVERIFY(fs::exists(d / io::kNotesFile));
        QVERIFY(!fs::exists(d / (std::string(io::kNotesFile) + ".tmp")));
        QVERIFY(io::read_notes(d) == n);
        io::write_notes(d, {}); // empty notes remove the file
        QVERIFY(!fs::exists(d / io::kNotesFile));
    }

    void badNotesAreOneLineErrors()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp);
        const std::string file = (d / io::kNotesFile).string();
        const std::pair<const char*, const char*> cases[] = {
            {"not json", "not a JSON object"},
            {"[1, 2]", "not a JSON object"},
            {R"({"tags": "a"})", "\"tags\" is not a list of strings"},
            {R"({"tags": [1]})", "\"tags\" is not a list of strings"},
            {R"({"note": 3})", "\"note\" is not a string"},
            {R"({"tags": ["a,b"]})", "holds a comma"},
        };
        for (const auto& [text, reason] : cases) {
            write_text(d / io::kNotesFile, text);
            const std::string e = error_of([&] { (void)io::read_notes(d); });
            QVERIFY2(e.rfind(file + ": ", 0) == 0 && e.find(reason) != std::string::npos && e.find('\n') == std::string::npos,
                     e.c_str());
        }
        QVERIFY(error_of([] { (void)io::parse_tags(std::string(io::kMaxTagLength + 1, 'x')); }).find("longer than") !=
                std::string::npos);
        QVERIFY(error_of([&] {
                    io::write_notes(d, {{}, std::string(io::kMaxNoteBytes + 1, 'n')});
                }) != "(no error)");
    }

    void notesNeverBreakTheRunsReader()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "run";
        write_text(d / "config.toml", "name = \"r\"\n");
        write_text(d / io::kNotesFile, "{ broken");
        const auto run = io::read_run(d);
        QVERIFY(run.problems.empty());
        // A folder holding only notes is no run.
        const fs::path only = dir_of(tmp) / "only-notes";
        io::write_notes(only.parent_path(), {}); // no-op on a folder without notes
        write_text(only / io::kNotesFile, R"({"tags":["x"]})");
        QVERIFY(error_of([&] { (void)io::read_run(only); }) != "(no error)");
        QCOMPARE(io::find_runs(dir_of(tmp)).size(), std::size_t(1));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestRunCompare)
#include "test_run_compare.moc"
