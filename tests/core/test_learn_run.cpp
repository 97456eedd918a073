// Learning runs into run folders: chunking does not change learning, a stop request ends between
// episodes with the policy saved, bad input fails before anything is written.
#include "core/run/learn_run.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/synthetic_table.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

using namespace rlda::core;
namespace fs = std::filesystem;

namespace {

// Written once, outside any test's temporary folder.
const std::string reference_table =
    rlda::test::write_synthetic_table((std::filesystem::temp_directory_path() / "rlda-test-learn-run-table.csv").string());

run::LearnRunSettings settings(std::int64_t episodes)
{
    run::LearnRunSettings s;
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

struct StopAfter final : run::LearnRunObserver {
    std::stop_source& source;
    std::int64_t after;
    std::int64_t seen = 0;
    int stages = 0;
    int greedy_reports = 0;
    StopAfter(std::stop_source& s, std::int64_t n) : source(s), after(n) {}
    void on_stage(const run::StageStart&) override { ++stages; }
    void on_episode(const sim::EpisodeRecord&) override
    {
        if (++seen == after)
            source.request_stop();
    }
    void on_greedy(std::int64_t, const sim::Evaluation&) override { ++greedy_reports; }
};

// Every hook of LearnRunObserver as a line, in the order they came.
struct LearnLog final : run::LearnRunObserver {
    std::vector<std::string> hooks;
    std::vector<run::StageStart> stages;
    std::vector<std::int64_t> episodes;
    std::vector<std::int64_t> greedy;
    std::int64_t throw_at = -1;
    void on_stage(const run::StageStart& s) override
    {
        hooks.push_back("stage");
        stages.push_back(s);
    }
    void on_episode(const sim::EpisodeRecord& r) override
    {
        if (hooks.empty() || hooks.back() != "episode")
            hooks.push_back("episode");
        episodes.push_back(r.episode);
        if (r.episode == throw_at)
            throw std::runtime_error("observer stops at episode " + std::to_string(r.episode));
    }
    void on_greedy(std::int64_t episode, const sim::Evaluation& e) override
    {
        hooks.push_back("greedy");
        greedy.push_back(episode);
        QCOMPARE(static_cast<int>(e.greedy.size()), 3); // the synthetic table's decisions
    }
    void on_message(const std::string&) override { hooks.push_back("message"); }
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
        const auto ra = run::run_learning(a, fs::path(tmp.path().toStdString()) / "a", false);
        const auto rb = run::run_learning(b, fs::path(tmp.path().toStdString()) / "b", false);
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
        const auto r = run::run_learning(s, out, false, &observer, stop.get_token());
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
        const auto r2 = run::run_learning(more, fs::path(tmp.path().toStdString()) / "more", false, nullptr,
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
            run::run_learning(s, out, false);
            QFAIL("a missing table was accepted");
        } catch (const Error& e) {
            QVERIFY(std::string(e.what()).find("/no/such/table.csv") != std::string::npos);
        }
        QVERIFY(!fs::exists(out));
        auto negative = settings(10);
        negative.temperature_every = -1;
        QVERIFY_THROWS_EXCEPTION(Error, run::run_learning(negative, out, false));
        QVERIFY(!fs::exists(out));
        QVERIFY_THROWS_EXCEPTION(Error, run::parse_stage("t.csv:ten"));
        QCOMPARE(run::parse_stage("t.csv:10:2.5"), (run::LearnStage{"t.csv", 10, 2.5}));
    }

    // on_message, on_stage, on_episode and on_greedy fire as learn_run.h states, over two stages (seed 7).
    void every_learning_hook_fires_in_order()
    {
        QTemporaryDir tmp;
        auto s = settings(30);
        s.stages.push_back({reference_table, 15, 2.0});
        s.report_every = 10;
        LearnLog log;
        const auto r = run::run_learning(s, fs::path(tmp.path().toStdString()) / "run", false, &log);
        QCOMPARE(r.episodes, std::int64_t{45});
        std::string hooks;
        for (const auto& h : log.hooks)
            hooks += (hooks.empty() ? "" : " ") + h;
        QCOMPARE(QString::fromStdString(hooks),
                 QString("message message " // the test table has no metadata: one note per stage's table, first
                         "stage episode greedy episode greedy episode greedy stage episode greedy episode greedy"));
        QCOMPARE(log.stages.size(), std::size_t{2});
        QCOMPARE(log.stages[0].index, 0);
        QCOMPARE(log.stages[0].count, 2);
        QCOMPARE(log.stages[0].first_episode, std::int64_t{0});
        QCOMPARE(log.stages[1].index, 1);
        QCOMPARE(log.stages[1].first_episode, std::int64_t{30});
        QCOMPARE(log.stages[1].temperature, 2.0);
        // Every 10 episodes of a stage, and at each stage's end (30 + 15 = 45).
        QCOMPARE(log.greedy, (std::vector<std::int64_t>{10, 20, 30, 40, 45}));
        QCOMPARE(log.episodes.size(), std::size_t{45});
        for (std::size_t i = 0; i < log.episodes.size(); ++i)
            QCOMPARE(log.episodes[i], static_cast<std::int64_t>(i + 1));

        // An exception from a hook ends the run with that exception, and no "finished" event.
        LearnLog thrower;
        thrower.throw_at = 12;
        const fs::path out = fs::path(tmp.path().toStdString()) / "thrown";
        auto every10 = settings(30);
        every10.report_every = 10;
        try {
            run::run_learning(every10, out, false, &thrower);
            QFAIL("the observer's exception was swallowed");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), std::string("observer stops at episode 12"));
        }
        QCOMPARE(thrower.episodes.size(), std::size_t{12});
        QCOMPARE(thrower.greedy, std::vector<std::int64_t>{10});
        std::ifstream events(out / "events.jsonl");
        std::stringstream text;
        text << events.rdbuf();
        QVERIFY(text.str().find("\"finished\"") == std::string::npos);
        QCOMPARE(episode_rows(out).size(), std::size_t{13}); // the header and every episode until then
    }
};

RLDA_SUITE_GUILESS_MAIN(TestLearnRun)
#include "test_learn_run.moc"
