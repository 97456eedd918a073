// Run folders read back: whole runs, runs killed mid-write, learning runs, non-runs, and finding runs.
#include "core/io/run_folder.h"
#include "core/io/run_reader.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/text_file.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using namespace rlda::core;
namespace fs = std::filesystem;

namespace {

using rlda::test::dir_of;
using rlda::test::write_text;

const char* const kConfig = "name = \"hand\"\n[job]\nmodel = \"ConvNet2\"\n";

const char* const kSummary =
    R"j({"name":"ConvNet2","input":[3,16,16],"classes":4,"parameters":1234,"original_blocks":3,)j"
    R"j("units":[{"position":0,"original_index":0,"block":true,"original":true,)j"
    R"j("layers":["Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))","ReLU()"],"parameters":224}]})j";

// A training run as RunFolder writes it, typed out by hand.
void write_training_run(const fs::path& d)
{
    write_text(d / "config.toml", kConfig);
    write_text(d / "metrics/test_acc.csv", "epoch,time,value\n1,0.4,0.25\n2,0.8,0.5\n3,1.2,0.625\n");
    write_text(d / "metrics/train_loss.csv", "epoch,time,value\n1,0.4,1.5\n2,0.8,1.25\n3,1.2,1\n");
    write_text(d / "events.jsonl",
          R"({"type":"allocation","time":1.0,"change":"up","effect":"consulting the agent"})"
          "\n"
          R"({"type":"adaptation","decision":1,"time":1.0,"time_left":3.0,"agent":"fixed","action":0,)"
          R"("did_nothing":false,"probabilities":[0.5,0.25,0.125,0.125],"max_abs_diff":1e-7,)"
          R"("before":)" + std::string(kSummary) + R"(,"after":)" + kSummary + "}\n" +
              R"({"type":"message","text":"hello"})"
              "\n"
              R"({"type":"final","time":4.0,"test_acc":0.75,"parameters":1234,"steps":80})"
              "\n"
              R"({"type":"finished","final_test_acc":0.75,"epochs":10,"steps":80,"actions":[0,3],)"
              R"("cancelled":false,"parameters":1234})"
              "\n");
    write_text(d / "architecture.json", std::string(kSummary) + "\n");
}

std::vector<std::string> listing(const fs::path& d)
{
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(d))
        out.push_back(e.path().string() + ":" + std::to_string(e.is_regular_file() ? fs::file_size(e) : 0));
    std::sort(out.begin(), out.end());
    return out;
}

bool has_problem(const io::RunData& r, const std::string& text)
{
    return std::find(r.problems.begin(), r.problems.end(), text) != r.problems.end();
}

QString joined(const std::vector<std::string>& v)
{
    QStringList l;
    for (const auto& s : v)
        l << QString::fromStdString(s);
    return l.join(QStringLiteral(" / "));
}

} // namespace

class TestRunReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void completeTrainingRun()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "run-a";
        write_training_run(d);
        const auto before = listing(dir_of(tmp));

        const io::RunData r = io::read_run(d);
        QCOMPARE(listing(dir_of(tmp)), before); // read-only
        QVERIFY2(r.problems.empty(), qPrintable(joined(r.problems)));
        QVERIFY(!r.truncated);
        QCOMPARE(r.kind, io::RunKind::Training);
        QCOMPARE(io::to_string(r.kind), std::string("training"));
        QCOMPARE(r.name, std::string("run-a"));
        QCOMPARE(r.config_text, std::string(kConfig));
        QCOMPARE(r.series.size(), std::size_t(2));
        const auto& acc = r.series.at("test_acc");
        QCOMPARE(acc.size(), std::size_t(3));
        QCOMPARE(acc[1].step, 2.0);
        QCOMPARE(acc[1].time, 0.8);
        QCOMPARE(acc[2].value, 0.625);
        QCOMPARE(r.series.at("train_loss").back().value, 1.0);

        QCOMPARE(r.allocations.size(), std::size_t(1));
        QCOMPARE(r.allocations[0].change, train::Allocation::Up);
        QCOMPARE(r.allocations[0].effect, std::string("consulting the agent"));
        QCOMPARE(r.adaptations.size(), std::size_t(1));
        const auto& a = r.adaptations[0];
        QCOMPARE(a.agent, std::string("fixed"));
        QCOMPARE(a.time_left, 3.0);
        QCOMPARE(a.probabilities, (std::vector<double>{0.5, 0.25, 0.125, 0.125}));
        QCOMPARE(a.max_abs_diff, 1e-7);
        QCOMPARE(a.before.parameters, std::int64_t(1234));
        QCOMPARE(a.after.units.size(), std::size_t(1));
        QCOMPARE(a.after.units[0].layers.size(), std::size_t(2));
        QCOMPARE(a.after.units[0].original_index, 0);
        QCOMPARE(r.messages, std::vector<std::string>{"hello"});
        QVERIFY(r.final_metrics);
        QCOMPARE(r.final_metrics->steps, std::int64_t(80));
        QVERIFY(r.finished);
        QCOMPARE(r.finished->epochs, 10);
        QCOMPARE(r.finished->actions, (std::vector<int>{0, 3}));
        QVERIFY(!r.finished->cancelled);
        QCOMPARE(*io::final_accuracy(r), 0.75);
        QVERIFY(r.final_model);
        QCOMPARE(r.final_model->name, std::string("ConvNet2"));
        QCOMPARE(r.final_model->input, (model::Shape{3, 16, 16}));
        QCOMPARE(r.final_model->original_blocks, 3);
    }

    // What RunFolder itself writes reads back the same.
    void writtenByRunFolder()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "written";
        {
            io::RunFolder folder(d, false);
            folder.write_text("config.toml", kConfig);
            for (int e = 1; e <= 4; ++e) {
                train::EpochMetrics m;
                m.epoch = e;
                m.time = 0.1 * e;
                m.test_acc = 1.0 / 3.0 * e / 4;
                m.train_loss = 2.0 / e;
                m.lr = 0.01;
                m.parameters = 1000 + e;
                folder.on_epoch(m);
            }
            train::AdaptationEvent a;
            a.agent = "policy";
            a.action = 2;
            a.probabilities = {0.1, 0.7, 0.2};
            a.before.name = "ConvNet2";
            a.before.input = {3, 32, 32};
            a.after = a.before;
            a.after.parameters = 77;
            folder.on_adaptation(a);
            folder.on_allocation({2.5, train::Allocation::Down, "distilling"});
            folder.on_message("note, with \"quotes\"\nand a newline");
            train::RunResult res;
            res.final_test_acc = 0.5;
            res.cancelled = true;
            res.actions = {2};
            folder.on_finished(res);
        }
        const io::RunData r = io::read_run(d);
        QVERIFY2(r.problems.empty(), qPrintable(joined(r.problems)));
        QCOMPARE(r.kind, io::RunKind::Training);
        QCOMPARE(r.series.size(), std::size_t(5)); // train_loss, train_acc, test_acc, lr, params
        QCOMPARE(r.series.at("test_acc").size(), std::size_t(4));
        QCOMPARE(r.series.at("test_acc")[2].value, 1.0 / 3.0 * 3 / 4); // shortest round-trip text
        QCOMPARE(r.series.at("params").back().value, 1004.0);
        QCOMPARE(r.adaptations.at(0).action, 2);
        QCOMPARE(r.adaptations.at(0).after.parameters, std::int64_t(77));
        QCOMPARE(r.allocations.at(0).change, train::Allocation::Down);
        QCOMPARE(r.messages.at(0), std::string("note, with \"quotes\"\nand a newline"));
        QVERIFY(r.finished && r.finished->cancelled);
    }

    void truncatedRun()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "killed";
        write_text(d / "config.toml", kConfig);
        // line 4 is corrupt, line 6 was cut by the kill.
        write_text(d / "metrics/test_acc.csv", "epoch,time,value\n1,0.4,0.25\n2,0.8,0.5\n3,x,0.6\n4,1.6,0.7\n5,2.0,0.7");
        write_text(d / "metrics/lr.csv", "epoch,time,value\n1,0.4,0.01\n2,0.8\n");
        write_text(d / "events.jsonl",
              R"({"type":"allocation","time":1.0,"change":"up","effect":""})"
              "\n"
              "{not json\n"
              R"({"type":"allocation","time":"late","change":"up"})"
              "\n"
              R"({"type":"message","text":"ok"})"
              "\n"
              "{\"type\":\"adaptation\",\"decision\":1,\"time\":1.0,\"ag"); // cut mid-record
        const io::RunData r = io::read_run(d);
        QVERIFY(r.truncated);
        QCOMPARE(r.kind, io::RunKind::Training);
        QVERIFY(!r.finished);
        const auto& acc = r.series.at("test_acc");
        QCOMPARE(acc.size(), std::size_t(3));
        QCOMPARE(acc.back().step, 4.0);
        QCOMPARE(*io::final_accuracy(r), 0.7);
        QCOMPARE(r.series.at("lr").size(), std::size_t(1));
        QCOMPARE(r.allocations.size(), std::size_t(1));
        QCOMPARE(r.messages.size(), std::size_t(1));
        QVERIFY(r.adaptations.empty());
        QVERIFY2(has_problem(r, "metrics/test_acc.csv:6: partial last line skipped"), qPrintable(joined(r.problems)));
        QVERIFY2(has_problem(r, "metrics/test_acc.csv:4: not a number; row skipped"), qPrintable(joined(r.problems)));
        QVERIFY2(has_problem(r, "metrics/lr.csv:3: 2 fields, the header has 3; row skipped"),
                 qPrintable(joined(r.problems)));
        QVERIFY2(has_problem(r, "events.jsonl:5: partial last line skipped"), qPrintable(joined(r.problems)));
        QVERIFY2(has_problem(r, "events.jsonl:2: not a JSON object; line skipped"), qPrintable(joined(r.problems)));
        bool bad_type = false;
        for (const auto& p : r.problems)
            bad_type = bad_type || p.rfind("events.jsonl:3: bad \"allocation\" record", 0) == 0;
        QVERIFY2(bad_type, qPrintable(joined(r.problems)));
        QCOMPARE(r.problems.size(), std::size_t(6));
    }

    void emptyAndHeaderOnlyFiles()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "fresh";
        write_text(d / "metrics/test_acc.csv", "");
        write_text(d / "metrics/lr.csv", "epoch,time,value\n");
        write_text(d / "metrics/odd.csv", "a,b\n1,2\n");
        write_text(d / "events.jsonl", "");
        write_text(d / "architecture.json", "{\"name\": ");
        const io::RunData r = io::read_run(d);
        QCOMPARE(r.kind, io::RunKind::Training);
        QVERIFY(r.series.count("lr") && r.series.at("lr").empty());
        QVERIFY(!io::final_accuracy(r));
        QVERIFY(!r.final_model);
        QVERIFY(has_problem(r, "metrics/odd.csv: missing column \"epoch\"; file skipped"));
        QVERIFY(has_problem(r, "architecture.json: not a JSON object; skipped"));
        QCOMPARE(r.problems.size(), std::size_t(2));
    }

    void learningRun()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "learn";
        write_text(d / "policy.pt", "binary");
        write_text(d / "metrics/episodes.csv",
              "episode,time,objective,accuracy,reward,lr,temperature,actions,probabilities\n"
              "1,0.01,-2.5,0.61,-2.5,0.0001,1,0 2 3,0.25 0.25 0.25 0.25 | 0.1 0.2 0.3 0.4 | 0.4 0.3 0.2 0.1\n"
              "2,0.02,-1.5,0.65,-1.5,0.0001,1,1 1 3,0.25 0.25 0.25 0.25 | 0.1 0.2 0.3 0.4 | 0.4 0.3 0.2 0.1\n"
              "3,0.03,-1,0.7,-1,0.0001,0.9,3 a 3,0.25\n"
              "4,0.04,-0.5,0.72,-0.5,0.0001,0.9,0 0 0,0.25 0.25 0.25 0.25 | 0.1 0.2 0.3 0.4 | 0.4 0.3 0.2 0.1\n"
              "5,0.05,-0.5,0.7");
        write_text(d / "events.jsonl", R"({"type":"stage","index":0})"
                                  "\n");
        const io::RunData r = io::read_run(d);
        QCOMPARE(r.kind, io::RunKind::Learning);
        QCOMPARE(r.episodes.size(), std::size_t(3));
        QCOMPARE(r.episode_times, (std::vector<double>{0.01, 0.02, 0.04}));
        const auto& e = r.episodes[1];
        QCOMPARE(e.episode, std::int64_t(2));
        QCOMPARE(e.objective, -1.5);
        QCOMPARE(e.accuracy, 0.65);
        QCOMPARE(e.temperature, 1.0);
        QCOMPARE(e.actions, (std::vector<int>{1, 1, 3}));
        QCOMPARE(e.probabilities.size(), std::size_t(3));
        QCOMPARE(e.probabilities[1], (std::vector<double>{0.1, 0.2, 0.3, 0.4}));
        QCOMPARE(r.other_events, std::vector<std::string>{R"({"type":"stage","index":0})"});
        QVERIFY(has_problem(r, "metrics/episodes.csv:4: not a number; row skipped"));
        QVERIFY(has_problem(r, "metrics/episodes.csv:6: partial last line skipped"));
        QVERIFY(r.truncated);

        // policy.pt alone makes a learning run too; table.csv a simulation run.
        const fs::path p = dir_of(tmp) / "policy-only";
        write_text(p / "config.toml", kConfig);
        write_text(p / "policy.pt", "x");
        QCOMPARE(io::read_run(p).kind, io::RunKind::Learning);
        const fs::path s = dir_of(tmp) / "sim";
        write_text(s / "config.toml", kConfig);
        write_text(s / "table.csv", "a\n");
        QCOMPARE(io::read_run(s).kind, io::RunKind::Simulation);
        const fs::path u = dir_of(tmp) / "unknown";
        write_text(u / "config.toml", kConfig);
        QCOMPARE(io::read_run(u).kind, io::RunKind::Unknown);
        QVERIFY(!io::learn_settings(io::read_run(u)));
    }

    // The tables a learning run learned from, as its settings event recorded them (rlda figures
    // ranks a --run's policy on them).
    void a_learning_run_names_the_tables_it_learned_from()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "curriculum";
        write_text(d / "metrics/episodes.csv",
                   "episode,time,objective,accuracy,reward,lr,temperature,actions,probabilities\n");
        write_text(d / "events.jsonl",
                   R"({"type":"settings","model":"ConvNet2","stages":[{"table":"t/late.csv","episodes":10},)"
                   R"({"table":"runs/middle-table","episodes":5},{"table":"t/late.csv","episodes":5}]})"
                   "\n"
                   R"({"type":"stage","index":0,"table":"t/late.csv"})"
                   "\n");
        const auto settings = io::learn_settings(io::read_run(d));
        QVERIFY(settings);
        QCOMPARE(settings->tables, (std::vector<std::string>{"t/late.csv", "runs/middle-table"}));
        QCOMPARE(settings->model, std::string("ConvNet2"));
        QCOMPARE(settings->from, std::string()); // a new policy
        write_text(d / "events.jsonl", R"({"type":"settings","stages":"t/late.csv","from":"p/policy.pt"})"
                                       "\n");
        QVERIFY(io::learn_settings(io::read_run(d))->tables.empty());
        QCOMPARE(io::learn_settings(io::read_run(d))->from, std::string("p/policy.pt"));
        QCOMPARE(io::to_string(io::RunKind::Unknown), std::string("unknown"));
    }

    void notARunFolder()
    {
        QTemporaryDir tmp;
        const fs::path d = dir_of(tmp) / "plain";
        write_text(d / "notes.txt", "x");
        QString message;
        try {
            io::read_run(d);
        } catch (const Error& e) {
            message = QString::fromUtf8(e.what());
        }
        QVERIFY2(message.startsWith(QString::fromStdString(d.string() + ": not a run folder (")), qPrintable(message));
        message.clear();
        try {
            io::read_run(dir_of(tmp) / "missing");
        } catch (const Error& e) {
            message = QString::fromUtf8(e.what());
        }
        QVERIFY2(message.contains(QStringLiteral("not a run folder")), qPrintable(message));
        QCOMPARE(listing(dir_of(tmp)).size(), std::size_t(2)); // nothing created
    }

    void findRuns()
    {
        QTemporaryDir tmp;
        const fs::path root = dir_of(tmp);
        write_training_run(root / "b-run");
        write_text(root / "a-run/metrics/test_acc.csv", "epoch,time,value\n");
        write_text(root / "group/c-run/events.jsonl", "");
        write_text(root / "group/deeper/too/deep-run/config.toml", kConfig);
        write_text(root / "not-a-run/readme.txt", "x");

        const auto runs = io::find_runs(root);
        QCOMPARE(runs, (std::vector<fs::path>{root / "a-run", root / "b-run", root / "group/c-run"}));
        QCOMPARE(io::find_runs(root, 1), (std::vector<fs::path>{root / "a-run", root / "b-run"}));
        QCOMPARE(io::find_runs(root, 4).size(), std::size_t(4));
        QCOMPARE(io::find_runs(root / "b-run"), std::vector<fs::path>{root / "b-run"}); // root included
        QVERIFY(io::find_runs(root / "missing").empty());
    }
};

RLDA_SUITE_GUILESS_MAIN(TestRunReader)
#include "test_run_reader.moc"
