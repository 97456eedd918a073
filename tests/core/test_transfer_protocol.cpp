// The transfer protocol on the paper's tables: leave ConvNet3 out, learn on ConvNet2's five tables,
// judge on ConvNet3's five, beside the references the issue names (random 32.5, the hindsight-best
// fixed sequence (0 0 0) at 13.4); the files it leaves read back; bad settings are refused.
#include "core/run/transfer_protocol.h"
#include "core/table/judge.h"
#include "core/table/open_table.h"
#include "core/transfer/files.h"
#include "core/transfer/references.h"
#include "core/transfer/study.h"
#include "core/transfer/summary.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"
#include "core/util/statistics.h"
#include "tests/common/suite.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <QtTest/QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

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
        QCOMPARE(f.random_rank, 32.45625); // tie-aware: the five tables' ties pull it below (64 + 1) / 2
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
        // A random agent judged as often as the policies (2 seeds x 5 tables of 64 sequences):
        // the interval of its mean rank, around 32.5 and far narrower than one draw's.
        QVERIFY(f.random_mean_low > 15.0 && f.random_mean_low < 32.5);
        QVERIFY(f.random_mean_high > 32.5 && f.random_mean_high < 50.0);
        QCOMPARE(back.folds.front().random_mean_low, f.random_mean_low);
        QCOMPARE(back.folds.front().random_mean_high, f.random_mean_high);
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

        // The references of each held-out table, judged once: the paper's tables have no decision
        // features, so of the heuristics only first and last; then none, best-fixed and random.
        QCOMPARE(r.references.size(), std::size_t{5 * 5});
        for (const auto& row : t.rows) {
            QStringList agents;
            for (const auto& x : row.references)
                agents << QString::fromStdString(x.agent);
            QCOMPARE(agents.join(' '), QStringLiteral("first last none best-fixed random"));
            QCOMPARE(row.references[0].sequence, (std::vector<int>{0, 0, 0}));
            QCOMPARE(row.references[0].rank, static_cast<double>(row.best_fixed_rank)); // first is (0 0 0) too
            QCOMPARE(row.references[2].rank, static_cast<double>(row.no_adaptation_rank));
            QCOMPARE(row.references[3].rank, static_cast<double>(row.best_fixed_rank));
            // A random sequence's expected rank counts ties as the rank they share (expected_random_rank):
            // below 32.5 where the table has ties.
            const auto ranks = run::sequence_ranks(sim::SimulationTable::load(row.table));
            QCOMPARE(row.references[4].rank, rlda::core::expected_random_rank(ranks));
            QVERIFY(row.references[4].rank <= 32.5);
            QVERIFY(row.references[4].rank_low < row.references[4].rank_high);
        }
        QCOMPARE(back.references.size(), r.references.size());
        for (std::size_t i = 0; i < r.references.size(); ++i) {
            QCOMPARE(back.references[i].agent, r.references[i].agent);
            QCOMPARE(back.references[i].rank, r.references[i].rank);
            QCOMPARE(back.references[i].sequence, r.references[i].sequence);
            QCOMPARE(back.references[i].rank_high, r.references[i].rank_high);
        }
        // The same seed learns the same policy: a second run judges alike.
        const auto again = run::run_transfer(s, out, /*force=*/true);
        for (std::size_t i = 0; i < r.ranks.size(); ++i)
            QCOMPARE(again.ranks[i].evaluation.greedy, r.ranks[i].evaluation.greedy);
        fs::remove_all(out);
    }

    // With balance_models, each training model weighs the same: FeedForwardNet3's three tables and
    // TinyConvNet3's one take turns (3 decisions, then 2), where the tables in turn give
    // FeedForwardNet3 three episodes in four.
    void balanced_models_take_turns()
    {
        const fs::path dir = fashion_mnist_tables_dir();
        run::TransferSettings s;
        for (const char* t : {"feedforwardnet2_middle", "feedforwardnet3_early", "feedforwardnet3_middle",
                              "feedforwardnet3_late", "tinyconvnet3_middle"})
            s.tables.push_back(dir / (std::string(t) + ".csv"));
        s.held_out = {"FeedForwardNet2"};
        s.episodes = 12;
        struct Decisions final : run::TransferObserver {
            std::vector<std::size_t> of;
            void on_episode(const sim::EpisodeRecord& r) override { of.push_back(r.actions.size()); }
        };
        for (const bool balanced : {false, true}) {
            s.balance_models = balanced;
            Decisions d;
            const fs::path out = fresh_folder(balanced ? "balanced" : "by-table");
            (void)run::run_transfer(s, out, false, &d);
            const std::vector<std::size_t> expected =
                balanced ? std::vector<std::size_t>{3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2}
                         : std::vector<std::size_t>{3, 3, 3, 2, 3, 3, 3, 2, 3, 3, 3, 2};
            QCOMPARE(d.of, expected);
            fs::remove_all(out);
        }
    }

    // A held-out model whose tables carry decision features (FeedForwardNet2's, replicated over 5
    // seeds) is judged against every heuristic too, each with its interval over the seeds; the
    // state encoder learns only where every training table has features, refused before anything
    // is written otherwise.
    void heuristics_are_references_where_the_tables_have_features()
    {
        run::TransferSettings s;
        for (const auto& t : sim::expand_tables({(fashion_mnist_tables_dir() / "index.csv").string()}))
            s.tables.push_back(t);
        s.held_out = {"FeedForwardNet2"};
        s.episodes = 30;
        s.seeds = {1};
        const fs::path out = fresh_folder("ffn2");
        const auto r = run::run_transfer(s, out, false);
        const auto summary = run::summarize_transfer(r);
        QCOMPARE(summary.front().rows.size(), std::size_t{3});
        for (const auto& row : summary.front().rows) {
            QStringList agents;
            for (const auto& x : row.references) {
                agents << QString::fromStdString(x.agent);
                // A rule that lands each seed on its own sequence can fall below every row: 28.
                QVERIFY(x.rank >= 1 && x.rank <= 28);
                QVERIFY2(x.rank_low >= 1 && x.rank_low <= x.rank_high && x.rank_high <= 28, x.agent.c_str());
            }
            QCOMPARE(agents.join(' '),
                     QStringLiteral("gradient loss-drop first last grow-while-improving none best-fixed random"));
        }
        // The best heuristic: the lowest mean rank over the tables among the five.
        const auto best = run::best_heuristic(summary.front());
        QVERIFY(best.has_value());
        for (const char* kind : {"gradient", "loss-drop", "first", "last", "grow-while-improving"}) {
            double sum = 0.0;
            for (const auto& row : summary.front().rows)
                for (const auto& x : row.references)
                    sum += x.agent == kind ? x.rank : 0.0;
            QVERIFY(best->mean_rank <= sum / 3.0 + 1e-12);
            if (best->agent == kind)
                QCOMPARE(best->mean_rank, sum / 3.0);
        }
        fs::remove_all(out);

        s.policy.encoder = config::PolicyEncoder::State;
        s.tables = paper_tables(); // no features
        s.held_out = {"ConvNet3"};
        const fs::path refused = fresh_folder("state");
        try {
            run::run_transfer(s, refused, false);
            QFAIL("a state policy learned from tables without features");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("has no decision features"), e.what());
        }
        QVERIFY(!fs::exists(refused));
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

    // The interval of a random agent's mean rank, exactly: the quantiles of a sum of uniform draws.
    void a_random_agents_mean_rank_has_an_exact_interval()
    {
        // One draw from 1..4: each 25 %, so the 2.5 % quantile is 1 and the 97.5 % one is 4.
        auto i = run::random_mean_interval({{1, 2, 3, 4}}, 1);
        QCOMPARE(i.low, 1.0);
        QCOMPARE(i.high, 4.0);
        // Two draws from {1, 2}: means 1, 1.5, 2 with 25 %, 50 %, 25 %.
        i = run::random_mean_interval({{1, 2}}, 2);
        QCOMPARE(i.low, 1.0);
        QCOMPARE(i.high, 2.0);
        // Tied ranks count once per sequence: {1, 1, 1, 4} puts 75 % on 1.
        i = run::random_mean_interval({{1, 1, 1, 4}}, 1);
        QCOMPARE(i.low, 1.0);
        QCOMPARE(i.high, 4.0);
        // 27 sequences, 5 draws from each of 3 tables: about 14 +- 1.96 * 7.8 / sqrt(15).
        std::vector<int> ranks(27);
        std::iota(ranks.begin(), ranks.end(), 1);
        i = run::random_mean_interval({ranks, ranks, ranks}, 5);
        QVERIFY(std::abs(i.low - (14.0 - 3.9)) < 0.5);
        QVERIFY(std::abs(i.high - (14.0 + 3.9)) < 0.5);
        QVERIFY(std::abs(i.low + i.high - 28.0) <= 1.0 / 15 + 1e-9); // symmetric, to one draw
        // Nothing to draw from: no interval.
        i = run::random_mean_interval({{}}, 3);
        QCOMPARE(i.high, 0.0);
    }

    // Runs side by side: each held-out model's mean per run and the references; runs that judged
    // a model on other tables are refused, naming both; a run written before the random agent's
    // interval was recorded still reads (no interval, never "better than chance").
    void transfer_runs_compare_per_held_out_model()
    {
        run::TransferSettings s;
        s.tables = paper_tables();
        s.episodes = 40;
        s.seeds = {1, 2};
        const fs::path a = fresh_folder("study-a");
        const fs::path b = fresh_folder("study-b");
        const auto ra = run::run_transfer(s, a, false);
        s.seeds = {3};
        s.held_out = {"ConvNet3"};
        const auto rb = run::run_transfer(s, b, false);
        const std::vector<run::StudyRun> runs{{"a", run::summarize_transfer(run::read_transfer(a))},
                                              {"b", run::summarize_transfer(run::read_transfer(b))}};
        const auto rows = run::compare_transfers(runs);
        QCOMPARE(rows.size(), std::size_t{2});
        // A run read by its folder is named by it, a trailing separator or not; a label given wins.
        QCOMPARE(run::read_study_run(a.string() + "/").label, a.filename().string());
        QCOMPARE(run::read_study_run(a, "mine").label, std::string("mine"));
        QCOMPARE(*run::compare_transfers({run::read_study_run(a)})[0].means[0], *rows[0].means[0]);
        QCOMPARE(rows[0].model, std::string("ConvNet2"));
        QCOMPARE(rows[1].model, std::string("ConvNet3"));
        QCOMPARE(rows[1].sequences, 64);
        QCOMPARE(rows[1].tables, 5);
        QCOMPARE(rows[0].means.size(), std::size_t{2});
        QCOMPARE(*rows[0].means[0], *run::summarize_transfer(ra)[0].mean);
        QVERIFY(!rows[0].means[1]); // b left ConvNet2 in
        QCOMPARE(*rows[1].means[1], *run::summarize_transfer(rb)[0].mean);
        QCOMPARE(rows[1].random, 32.45625);
        QCOMPARE(rows[1].random_low, ra.folds[1].random_mean_low); // from the first run
        QCOMPARE(rows[1].best_fixed, 13.4);
        QVERIFY(rows[1].heuristic); // first or last, the paper's tables have no features
        QVERIFY(run::beats_random(rows[1], rows[1].random_low - 0.1));
        QVERIFY(!run::beats_random(rows[1], rows[1].random_low));

        // Each agent over the models, as a fraction of their sequences: the runs, then the references.
        const auto averages = run::study_averages(runs, rows);
        QCOMPARE(averages[0].agent, std::string("a"));
        QVERIFY(averages[0].run);
        QCOMPARE(averages[0].models, 2);
        QVERIFY(std::abs(averages[0].fraction - (*rows[0].means[0] / 64 + *rows[1].means[0] / 64) / 2) < 1e-12);
        QCOMPARE(averages[1].agent, std::string("b"));
        QCOMPARE(averages[1].models, 1);
        const auto random = std::find_if(averages.begin(), averages.end(),
                                         [](const run::StudyAverage& x) { return x.agent == "random"; });
        QVERIFY(random != averages.end() && !random->run);
        QCOMPARE(random->models, 2);
        double random_fraction = 0.0; // each model's random reference over its 64 sequences, averaged
        for (const auto& row : rows)
            for (const auto& [agent, mean] : row.references)
                random_fraction += agent == "random" ? mean / 64 / static_cast<double>(rows.size()) : 0.0;
        QVERIFY(std::abs(random->fraction - random_fraction) < 1e-12);
        QVERIFY(random->fraction <= 32.5 / 64);

        auto other = runs;
        other[1].summaries[0].fold.tables.pop_back();
        try {
            run::compare_transfers(other);
            QFAIL("runs judged on different tables were compared");
        } catch (const Error& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains("runs a and b") && what.contains("ConvNet3"), e.what());
        }

        // folds.csv as written before random_mean_low and random_mean_high: it reads, with no interval.
        {
            std::ifstream in(a / "folds.csv");
            std::stringstream text;
            text << in.rdbuf();
            std::string csv = text.str();
            std::ofstream out(a / "folds.csv", std::ios::trunc);
            std::istringstream lines(csv);
            for (std::string line; std::getline(lines, line);) {
                // drop the 4th and 5th fields
                std::vector<std::string> f;
                std::stringstream ls(line);
                for (std::string x; std::getline(ls, x, ',');)
                    f.push_back(x);
                f.erase(f.begin() + 3, f.begin() + 5);
                out << fmt::format("{}\n", fmt::join(f, ","));
            }
        }
        const auto old = run::read_transfer(a);
        QCOMPARE(old.folds[0].random_mean_high, 0.0);
        const auto old_rows = run::compare_transfers({{"old", run::summarize_transfer(old)}});
        QVERIFY(!run::beats_random(old_rows[0], 0.5));
        fs::remove_all(a);
        fs::remove_all(b);
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

RLDA_SUITE_APPLESS_MAIN(TestTransferProtocol)
#include "test_transfer_protocol.moc"
