// Reproducing the paper on its shipped tables: the plan, one rank a table beside the published
// one, ranks.csv written as it goes, and a stop that keeps what was judged.
#include "core/run/reproduce.h"
#include "core/util/csv.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <filesystem>

namespace fs = std::filesystem;
using namespace rlda::core;

class StopAfterRuns final : public run::ReproduceObserver {
public:
    StopAfterRuns(std::stop_source& stop, int runs) : stop_(stop), runs_(runs) {}
    void on_run(int index, int, const run::ReproduceRun&) override
    {
        started.push_back(index);
        if (index == runs_)
            stop_.request_stop();
    }
    void on_rank(const run::ReproducedRank&) override { ++ranks; }
    std::vector<int> started;
    int ranks = 0;

private:
    std::stop_source& stop_;
    int runs_;
};

class TestReproduce : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void the_plan_is_six_from_scratch_and_one_curriculum()
    {
        const auto plan = run::reproduction_plan({}, "out");
        QCOMPARE(plan.size(), std::size_t{7});
        QCOMPARE(plan.front().name, std::string("scratch-convnet2_early"));
        QCOMPARE(plan[5].name, std::string("scratch-convnet3_late"));
        QCOMPARE(plan.back().name, std::string("curriculum-convnet2"));
        QCOMPARE(plan.back().tables.size(), std::size_t{3}); // early, then late, then middle
        QVERIFY(plan.back().tables[1].ends_with("convnet2_late.csv"));
        QVERIFY(plan.back().tables[2].ends_with("convnet2_middle.csv"));
    }

    void ranks_every_table_beside_the_paper()
    {
        QTemporaryDir dir;
        const fs::path out = dir.filePath("reproduce").toStdString();
        run::ReproduceSettings s;
        s.episodes = 40;
        s.stage_episodes = 20;
        const auto r = run::reproduce_paper(s, out, false);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.ranks.size(), std::size_t{16}); // 6 from scratch, the curriculum on all 10
        // The published ranks, as data/paper/ranks.csv lists them.
        const auto paper = run::load_paper_ranks(paper_ranks_file());
        QCOMPARE(paper.size(), std::size_t{16});
        for (std::size_t i = 0; i < r.ranks.size(); ++i) {
            QCOMPARE(r.ranks[i].paper_rank, paper[i].rank);
            QCOMPARE(r.ranks[i].model, paper[i].model);
            QCOMPARE(r.ranks[i].scenario, paper[i].scenario);
            QVERIFY(r.ranks[i].evaluation.rank >= 1 && r.ranks[i].evaluation.rank <= 64);
        }
        const auto csv = read_csv((out / "ranks.csv").string());
        QCOMPARE(csv.rows.size(), std::size_t{16});
        QCOMPARE(csv.rows[0][csv.column("paper_rank")], std::string("1"));
        for (const auto& run : r.runs)
            QVERIFY(fs::exists(run.folder / "policy.pt"));
        // The curriculum went on from the ConvNet2 early agent: 40 + 20 + 20 episodes.
        QVERIFY(fs::exists(out / "curriculum-convnet2" / "metrics" / "episodes.csv"));
        // A second reproduction into the same folder is refused unless forced.
        bool refused = false;
        try {
            (void)run::reproduce_paper(s, out, false);
        } catch (const Error& e) {
            refused = QString(e.what()).contains("--force");
        }
        QVERIFY(refused);
    }

    void a_stop_keeps_what_was_judged()
    {
        QTemporaryDir dir;
        const fs::path out = dir.filePath("reproduce").toStdString();
        run::ReproduceSettings s;
        s.episodes = 30;
        std::stop_source stop;
        StopAfterRuns observer(stop, 2); // stopped as the third run starts
        const auto r = run::reproduce_paper(s, out, false, &observer, stop.get_token());
        QVERIFY(r.cancelled);
        QCOMPARE(observer.started, (std::vector<int>{0, 1, 2}));
        QCOMPARE(r.ranks.size(), std::size_t{2});
        QCOMPARE(read_csv((out / "ranks.csv").string()).rows.size(), std::size_t{2});
    }
};

RLDA_SUITE_GUILESS_MAIN(TestReproduce)
#include "test_reproduce.moc"
