// Learning runs into run folders: chunking does not change learning, a stop request ends between
// episodes with the policy saved, bad input fails before anything is written.
#include "core/sim/learn_run.h"
#include "core/util/error.h"
#include "tests/common/synthetic_table.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace rlda::core;
namespace fs = std::filesystem;

namespace {

// Written once, outside any test's temporary folder.
const std::string reference_table =
    rlda::test::write_synthetic_table((std::filesystem::temp_directory_path() / "rlda-test-learn-run-table.csv").string());

sim::LearnRunSettings settings(std::int64_t episodes)
{
    sim::LearnRunSettings s;
    s.stages = {{reference_table, episodes, 0.0}};
    s.seed = 7;
    return s;
}

// metrics/episodes.csv without its wall-time column.
std::vector<std::string> episode_rows(const fs::path& run)
{
    std::ifstream in(run / "metrics" / "episodes.csv");
    std::vector<std::string> rows;
    for (std::string line; std::getline(in, line);) {
        const auto a = line.find(',');
        const auto b = line.find(',', a + 1);
        rows.push_back(line.substr(0, a) + line.substr(b));
    }
    return rows;
}

struct StopAfter final : sim::LearnRunObserver {
    std::stop_source& source;
    std::int64_t after;
    std::int64_t seen = 0;
    int stages = 0;
    int greedy_reports = 0;
    StopAfter(std::stop_source& s, std::int64_t n) : source(s), after(n) {}
    void on_stage(const sim::StageStart&) override { ++stages; }
    void on_episode(const sim::EpisodeRecord&) override
    {
        if (++seen == after)
            source.request_stop();
    }
    void on_greedy(std::int64_t, const sim::Evaluation&) override { ++greedy_reports; }
};

} // namespace

class TestLearnRun : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void chunking_does_not_change_learning()
    {
        QTemporaryDir tmp;
        auto a = settings(300);
        auto b = settings(300);
        b.report_every = 7;
        b.checkpoint_every = 45;
        const auto ra = sim::run_learning(a, fs::path(tmp.path().toStdString()) / "a", false);
        const auto rb = sim::run_learning(b, fs::path(tmp.path().toStdString()) / "b", false);
        QCOMPARE(ra.episodes, std::int64_t{300});
        QCOMPARE(ra.evaluation.greedy, rb.evaluation.greedy);
        QCOMPARE(ra.evaluation.probabilities, rb.evaluation.probabilities);
        const auto rows = episode_rows(fs::path(tmp.path().toStdString()) / "a");
        QCOMPARE(rows.size(), std::size_t{301});
        QCOMPARE(rows, episode_rows(fs::path(tmp.path().toStdString()) / "b"));
        QVERIFY(fs::exists(ra.policy_file));
    }

    void stop_ends_between_episodes_with_the_policy_saved()
    {
        QTemporaryDir tmp;
        std::stop_source stop;
        StopAfter observer(stop, 120);
        auto s = settings(1000);
        s.stages.push_back({reference_table, 1000, 5.0});
        const fs::path out = fs::path(tmp.path().toStdString()) / "run";
        const auto r = sim::run_learning(s, out, false, &observer, stop.get_token());
        QVERIFY(r.cancelled);
        QCOMPARE(r.episodes, std::int64_t{120});
        QCOMPARE(observer.stages, 1); // the second stage never starts
        QCOMPARE(observer.greedy_reports, 1);
        QCOMPARE(episode_rows(out).size(), std::size_t{121});
        QVERIFY(fs::exists(out / "policy.pt"));
        std::ifstream events(out / "events.jsonl");
        std::stringstream text;
        text << events.rdbuf();
        QVERIFY(text.str().find("\"cancelled\":true") != std::string::npos);

        // Continuing that policy carries its episode counter on.
        auto more = settings(10);
        more.from = (out / "policy.pt").string();
        StopAfter count(stop, -1);
        std::stop_source fresh;
        const auto r2 = sim::run_learning(more, fs::path(tmp.path().toStdString()) / "more", false, nullptr,
                                          fresh.get_token());
        QCOMPARE(r2.episodes, std::int64_t{10});
        QCOMPARE(episode_rows(fs::path(tmp.path().toStdString()) / "more")[1].substr(0, 4), std::string("121,"));
    }

    void bad_input_writes_nothing()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "run";
        auto s = settings(10);
        s.stages.push_back({"/no/such/table.csv", 10, 0.0});
        try {
            sim::run_learning(s, out, false);
            QFAIL("a missing table was accepted");
        } catch (const Error& e) {
            QVERIFY(std::string(e.what()).find("/no/such/table.csv") != std::string::npos);
        }
        QVERIFY(!fs::exists(out));
        auto negative = settings(10);
        negative.temperature_every = -1;
        QVERIFY_THROWS_EXCEPTION(Error, sim::run_learning(negative, out, false));
        QVERIFY(!fs::exists(out));
        QVERIFY_THROWS_EXCEPTION(Error, sim::parse_stage("t.csv:ten"));
        QCOMPARE(sim::parse_stage("t.csv:10:2.5"), (sim::LearnStage{"t.csv", 10, 2.5}));
    }
};

QTEST_GUILESS_MAIN(TestLearnRun)
#include "test_learn_run.moc"
