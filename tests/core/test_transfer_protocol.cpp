// The transfer protocol on the paper's tables: leave ConvNet3 out, learn on ConvNet2's five tables,
// judge on ConvNet3's five, beside the references the issue names (random 32.5, the hindsight-best
// fixed sequence (0 0 0) at 13.4); the files it leaves read back; bad settings are refused.
#include "core/run/transfer_protocol.h"
#include "core/sim/learn.h"
#include "core/sim/table_meta.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <QtTest/QtTest>

#include <filesystem>

namespace fs = std::filesystem;
using namespace rlda::core;

namespace {

std::vector<fs::path> paper_tables()
{
    std::vector<fs::path> out;
    for (const auto& t : sim::expand_tables({paper_tables_dir().string()}))
        out.push_back(t);
    return out;
}

fs::path fresh_folder(const char* name)
{
    const fs::path p = fs::temp_directory_path() / fmt::format("rlda-transfer-{}-{}", ::getpid(), name);
    fs::remove_all(p);
    return p;
}

struct Count final : run::TransferObserver {
    int folds = 0, seeds = 0, ranks = 0;
    std::int64_t episodes = 0;
    void on_fold(const run::TransferFold&) override { ++folds; }
    void on_seed(const run::TransferFold&, std::uint64_t) override { ++seeds; }
    void on_episode(const sim::EpisodeRecord&) override { ++episodes; }
    void on_rank(const run::TransferRank&) override { ++ranks; }
};

} // namespace

class TestTransferProtocol : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void the_hindsight_best_fixed_sequence_of_convnet3()
    {
        std::vector<sim::OpenedTable> opened;
        for (const auto& t : paper_tables())
            if (sim::open_table(t).meta.model == "ConvNet3")
                opened.push_back(sim::open_table(t));
        QCOMPARE(opened.size(), std::size_t{5});
        std::vector<const sim::SimulationTable*> tables;
        for (const auto& t : opened)
            tables.push_back(&t.table);
        const auto best = sim::best_fixed_sequence(tables);
        QCOMPARE(best.actions, (std::vector<int>{0, 0, 0}));
        QVERIFY(std::abs(best.mean_rank - 13.4) < 1e-9);
        QVERIFY_THROWS_EXCEPTION(Error, sim::best_fixed_sequence({}));
    }

    void leaving_convnet3_out_judges_it_on_its_five_tables()
    {
        run::TransferSettings s;
        s.tables = paper_tables();
        s.held_out = {"ConvNet3"};
        s.episodes = 100;
        s.seeds = {1, 2};
        const fs::path out = fresh_folder("convnet3");
        Count count;
        const auto r = run::run_transfer(s, out, false, &count);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.folds.size(), std::size_t{1});
        const auto& f = r.folds.front();
        QCOMPARE(f.model, std::string("ConvNet3"));
        QCOMPARE(f.tables.size(), std::size_t{5});
        QCOMPARE(f.training_tables.size(), std::size_t{5});
        QCOMPARE(f.random_rank, 32.5);
        QCOMPARE(f.best_fixed, (std::vector<int>{0, 0, 0}));
        QCOMPARE(r.ranks.size(), std::size_t{10}); // 2 seeds x 5 tables
        QCOMPARE(count.folds, 1);
        QCOMPARE(count.seeds, 2);
        QCOMPARE(count.ranks, 10);
        QCOMPARE(count.episodes, std::int64_t{200});
        for (const auto& x : r.ranks) {
            QCOMPARE(x.model, std::string("ConvNet3"));
            QVERIFY(x.evaluation.rank >= 1 && x.evaluation.rank <= 64);
            QCOMPARE(x.evaluation.greedy.size(), std::size_t{3});
        }
        QVERIFY(fs::exists(out / "ConvNet3-seed1" / "policy.pt"));
        QVERIFY(fs::exists(out / "ConvNet3-seed2" / "policy.pt"));

        const auto back = run::read_transfer(out);
        QCOMPARE(back.folds.size(), std::size_t{1});
        QCOMPARE(back.folds.front().best_fixed, f.best_fixed);
        QCOMPARE(back.folds.front().tables, f.tables);
        QCOMPARE(back.folds.front().best_fixed_rank, f.best_fixed_rank);
        QCOMPARE(back.ranks.size(), r.ranks.size());
        for (std::size_t i = 0; i < r.ranks.size(); ++i) {
            QCOMPARE(back.ranks[i].evaluation.rank, r.ranks[i].evaluation.rank);
            QCOMPARE(back.ranks[i].evaluation.greedy, r.ranks[i].evaluation.greedy);
            QCOMPARE(back.ranks[i].best_fixed_rank, r.ranks[i].best_fixed_rank);
        }
        // The summary the command line prints and the Policy page shows.
        const auto summary = run::summarize_transfer(r);
        QCOMPARE(summary.size(), std::size_t{1});
        const auto& t = summary.front();
        QCOMPARE(t.seeds, (std::vector<std::uint64_t>{1, 2}));
        QCOMPARE(t.rows.size(), std::size_t{5});
        double sum = 0;
        for (const auto& x : r.ranks)
            sum += x.evaluation.rank;
        QVERIFY(std::abs(*t.mean - sum / 10.0) < 1e-12);
        for (const auto& row : t.rows) {
            QCOMPARE(row.ranks.size(), std::size_t{2});
            QCOMPARE(*row.worst, std::max(*row.ranks[0], *row.ranks[1]));
            QCOMPARE(*row.mean, (*row.ranks[0] + *row.ranks[1]) / 2.0);
        }
        QCOMPARE(*t.worst_seed_mean, std::max(*t.seed_means[0], *t.seed_means[1]));
        // The same seed learns the same policy: a second run judges alike.
        const auto again = run::run_transfer(s, out, /*force=*/true);
        for (std::size_t i = 0; i < r.ranks.size(); ++i)
            QCOMPARE(again.ranks[i].evaluation.greedy, r.ranks[i].evaluation.greedy);
        fs::remove_all(out);
    }

    void a_stop_keeps_what_was_judged()
    {
        run::TransferSettings s;
        s.tables = paper_tables();
        s.held_out = {"ConvNet2", "ConvNet3"};
        s.episodes = 50;
        struct StopAtSecondFold final : run::TransferObserver {
            std::stop_source stop;
            int folds = 0;
            void on_fold(const run::TransferFold&) override
            {
                if (++folds == 2)
                    stop.request_stop();
            }
        } observer;
        const fs::path out = fresh_folder("stop");
        const auto r = run::run_transfer(s, out, false, &observer, observer.stop.get_token());
        QVERIFY(r.cancelled);
        QCOMPARE(r.ranks.size(), std::size_t{5}); // ConvNet2's, judged before the stop
        QCOMPARE(run::read_transfer(out).ranks.size(), std::size_t{5});
        fs::remove_all(out);
    }

    void bad_settings_are_refused_before_anything_is_written()
    {
        const fs::path out = fresh_folder("bad");
        run::TransferSettings s;
        s.tables = paper_tables();
        s.episodes = 10;
        s.held_out = {"ResNet"};
        QVERIFY_THROWS_EXCEPTION(Error, run::run_transfer(s, out, false));
        s.held_out = {};
        s.tables = {paper_tables().front()}; // one model only: nothing to learn from
        QVERIFY_THROWS_EXCEPTION(Error, run::run_transfer(s, out, false));
        s.tables = {};
        QVERIFY_THROWS_EXCEPTION(Error, run::run_transfer(s, out, false));
        QVERIFY(!fs::exists(out));
    }
};

QTEST_APPLESS_MAIN(TestTransferProtocol)
#include "test_transfer_protocol.moc"
