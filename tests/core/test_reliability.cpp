// How far a replicated table can be trusted (core/table/reliability.h), on fixtures whose answer is
// known: identical replicates, pure noise, a clear signal, and Spearman-Brown's own arithmetic; and
// the replicated table format (core/table/table.h): seed columns, their mean, and the paper's layout.
#include "core/model/zoo.h"
#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/reliability.h"
#include "core/table/table.h"
#include "core/util/error.h"
#include "core/util/statistics.h"
#include "tests/common/error_of.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

using rlda::test::qerror_of;

namespace sim = rlda::core::sim;

namespace {

// R replicates of S sequences: accuracy = signal[s] + noise, noise ~ N(0, sd) from `seed`.
sim::ReplicateAccuracies fixture(int replicates, int sequences, double signal_step, double noise_sd, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, noise_sd);
    sim::ReplicateAccuracies r;
    for (int i = 0; i < replicates; ++i) {
        r.seeds.push_back(static_cast<std::uint64_t>(42 + i));
        r.accuracy.emplace_back();
        for (int s = 0; s < sequences; ++s)
            r.accuracy.back().push_back(0.5 + signal_step * s + noise(rng));
    }
    return r;
}

} // namespace

class TestReliability : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void spearman_brown_arithmetic()
    {
        QCOMPARE(sim::stepped_up(0.5, 2), 2.0 / 3.0);
        QCOMPARE(sim::stepped_up(0.2, 1), 0.2);
        QCOMPARE(*sim::seeds_for(0.5), 4);  // 4 x 0.5 / (1 + 3 x 0.5) = 0.8 exactly
        QCOMPARE(*sim::seeds_for(0.2), 16); // 16 x 0.2 / (1 + 15 x 0.2) = 0.8
        QCOMPARE(*sim::seeds_for(0.9), 1);
        QVERIFY(!sim::seeds_for(0.0));
        QVERIFY(!sim::seeds_for(-0.1));
        // Just short of a whole number: rounded up, never down.
        const auto n = *sim::seeds_for(0.3);
        QVERIFY(sim::stepped_up(0.3, n) >= 0.8 && sim::stepped_up(0.3, n - 1) < 0.8);
    }

    void identical_replicates_are_perfectly_reliable_with_one_best()
    {
        auto r = fixture(1, 27, 0.01, 0.0, 1);
        r.accuracy.push_back(r.accuracy.front());
        r.accuracy.push_back(r.accuracy.front());
        r.seeds = {42, 43, 44};
        const auto rel = sim::rank_reliability(r);
        QCOMPARE(rel.replicates, 3);
        QCOMPARE(rel.splits, 3); // {0}{1 2}, {1}{0 2}, {2}{0 1}
        QCOMPARE(rel.split_half, 1.0);
        QCOMPARE(rel.single_seed, 1.0);
        QCOMPARE(rel.table, 1.0);
        QCOMPARE(*rel.seeds_needed, 1);
        const auto b = sim::bootstrap_ranks(r, 500, 3);
        QCOMPARE(b.indistinguishable, std::vector<std::int64_t>{26}); // the last sequence is the best
        QCOMPARE(b.best_share[26], 1.0);
        for (std::size_t s = 0; s < 27; ++s) {
            QCOMPARE(b.rank_low[s], b.mean_rank[s]);
            QCOMPARE(b.rank_high[s], b.mean_rank[s]);
        }
        QCOMPARE(b.mean_rank[0], 27);
    }

    void pure_noise_has_no_reliability()
    {
        // 6 replicates of 64 sequences that differ in nothing but noise (seed 1): the halves' rank
        // correlation is within 0.3 of 0 (its standard error over 64 sequences is about 0.13, and
        // the 10 splits share their replicates), and no number of seeds is promised.
        const auto r = fixture(6, 64, 0.0, 0.01, 1);
        const auto rel = sim::rank_reliability(r);
        QCOMPARE(rel.splits, 10); // C(6, 3) / 2
        QVERIFY2(std::abs(rel.split_half) < 0.3, qPrintable(QString::number(rel.split_half)));
        QVERIFY2(std::abs(rel.single_seed) < 0.15, qPrintable(QString::number(rel.single_seed)));
        QVERIFY(!rel.seeds_needed || *rel.seeds_needed > 20);
        // Many sequences cannot be told from the best.
        const auto b = sim::bootstrap_ranks(r, 2000, 1);
        QVERIFY2(b.indistinguishable.size() >= 3, qPrintable(QString::number(b.indistinguishable.size())));
        double total = 0.0;
        for (double p : b.best_share)
            total += p;
        QVERIFY(std::abs(total - 1.0) < 1e-9); // each resample's best shares one unit
    }

    void two_replicates_split_half_is_their_rank_correlation()
    {
        // With 2 seeds each half is one seed: the split-half rho is Spearman's rho of the two, which
        // is then the single-seed reliability itself, stepped up once for the table.
        const auto r = fixture(2, 40, 0.0005, 0.005, 7);
        const auto rel = sim::rank_reliability(r);
        const double rho = rlda::core::spearman(r.accuracy[0], r.accuracy[1]);
        QCOMPARE(rel.splits, 1);
        QCOMPARE(rel.split_half, rho);
        QCOMPARE(rel.single_seed, rho);
        QCOMPARE(rel.table, 2 * rho / (1 + rho));
    }

    void a_clear_signal_is_reliable_and_its_best_is_alone()
    {
        const auto r = fixture(4, 30, 0.01, 0.002, 5);
        const auto rel = sim::rank_reliability(r);
        QVERIFY2(rel.single_seed > 0.9, qPrintable(QString::number(rel.single_seed)));
        QCOMPARE(*rel.seeds_needed, 1);
        const auto b = sim::bootstrap_ranks(r, 1000, 2);
        QCOMPARE(b.indistinguishable, std::vector<std::int64_t>{29});
        QVERIFY(b.rank_high[29] <= 2);
    }

    void ties_share_the_best()
    {
        sim::ReplicateAccuracies r;
        r.seeds = {1, 2};
        r.accuracy = {{0.1, 0.9, 0.9, 0.2}, {0.1, 0.9, 0.9, 0.2}};
        const auto b = sim::bootstrap_ranks(r, 100, 0);
        QCOMPARE(b.best_share[1], 0.5);
        QCOMPARE(b.best_share[2], 0.5);
        QCOMPARE(b.indistinguishable, (std::vector<std::int64_t>{1, 2}));
        QCOMPARE(b.mean_rank, (std::vector<int>{4, 1, 1, 3}));
    }

    void one_seed_is_unknown_and_says_how_to_measure()
    {
        const auto r = fixture(1, 10, 0.01, 0.0, 1);
        const auto rel = sim::rank_reliability(r);
        QVERIFY(!rel.known());
        QCOMPARE(QString::fromStdString(sim::reliability_text(rel)),
                 QString("reliability: unknown for a table of one seed; build it at several seeds to measure it "
                         "(rlda simulate CONFIG --replicates 3)"));
        const auto known = sim::rank_reliability(fixture(4, 30, 0.01, 0.002, 5));
        QVERIFY(QString::fromStdString(sim::reliability_text(known)).startsWith("reliability: one seed "));
        QVERIFY(qerror_of([] { sim::rank_reliability({}); }).contains("no replicate"));
    }

    void a_replicated_table_keeps_every_seed_and_exports_the_paper_layout()
    {
        QTemporaryDir dir;
        const auto path = (std::filesystem::path(dir.path().toStdString()) / "t.csv").string();
        sim::SimulationTable t(1, 3);
        t.set_seeds({42, 43});
        t.add({{0}, {5.0}, 10.0, 0.55, {0.5, 0.6}});
        t.add({{1}, {5.0}, 10.0, 0.7, {0.7, 0.7}});
        t.add({{2}, {5.0}, 10.0, 0.25, {0.2, 0.3}});
        t.save(path);
        std::ifstream in(path, std::ios::binary);
        std::string header;
        std::getline(in, header);
        QCOMPARE(QString::fromStdString(header), QString("a1,timeleft1,totaltime,accuracy,accuracy_seed42,accuracy_seed43\r"));
        const auto back = sim::SimulationTable::load(path);
        QCOMPARE(back.seeds(), (std::vector<std::uint64_t>{42, 43}));
        QCOMPARE(back.rows(), t.rows());
        const auto r = sim::accuracies_by_seed(back);
        QCOMPARE(r.accuracy, (std::vector<std::vector<double>>{{0.5, 0.7, 0.2}, {0.6, 0.7, 0.3}}));
        QCOMPARE(r.sd()[1], 0.0);
        // The means in the paper's layout: a single-seed table that loads as one.
        const auto means = (std::filesystem::path(dir.path().toStdString()) / "means.csv").string();
        back.save_means(means);
        const auto single = sim::SimulationTable::load(means);
        QVERIFY(!single.replicated());
        QCOMPARE(single.accuracy({0}), 0.55);
        // A mean that is not its seeds' is refused at its line.
        std::ofstream(path, std::ios::binary) << "a1,timeleft1,totaltime,accuracy,accuracy_seed42,accuracy_seed43\r\n"
                                                 "0,5,10,0.9,0.5,0.6\r\n";
        QVERIFY(qerror_of([&] {
                    sim::SimulationTable::load(path);
                }).contains(":2: accuracy: 0.9 is not the mean of the seeds' accuracies (0.55)"));
        std::ofstream(path, std::ios::binary) << "a1,timeleft1,totaltime,accuracy,accuracy_seed42,accuracy_seed42\r\n";
        QVERIFY(qerror_of([&] {
                    sim::SimulationTable::load(path);
                }).contains(":1: header: the seed 42 has two columns"));
        std::ofstream(path, std::ios::binary) << "a1,timeleft1,totaltime,accuracy,seed42\r\n";
        QVERIFY(qerror_of([&] {
                    sim::SimulationTable::load(path);
                }).contains(":1: header: column 5: expected accuracy_seed<SEED> after accuracy"));
    }

    // An evaluation on a replicated table: identical seeds give an exact interval, one best, full
    // reliability and no spread of the random baseline; the greedy sequence's interval is its rank's,
    // reaching down over the rows that tie it (none is shown below it).
    void evaluation_statistics_of_identical_seeds()
    {
        const auto base = sim::SimulationTable::load(RLDA_PAPER_DIR "/tables/convnet2_early.csv");
        const auto t = sim::merge_seeds({1, 2, 3}, {&base, &base, &base});
        sim::Evaluation e;
        e.greedy = {0, 1, 3};
        e.optimal_sequence = t.optimal().actions;
        sim::add_seed_statistics(e, t);
        QCOMPARE(e.replicates, 3);
        QCOMPARE(e.greedy_spread.low, t.rank(e.greedy));
        int ties = 0;
        for (const auto& row : t.rows())
            ties += row.actions != e.greedy && row.accuracy == t.accuracy(e.greedy) ? 1 : 0;
        QCOMPARE(e.greedy_spread.high, t.rank(e.greedy) + ties);
        QCOMPARE(e.optimal_spread.low, 1);
        QCOMPARE(e.optimal_spread.best_share, 1.0);
        QCOMPARE(e.best_set, 1);
        QCOMPARE(e.greedy_among_best, false);
        QCOMPARE(e.reliability.table, 1.0);
        QCOMPARE(e.reliability.one_seed, 1.0);
        QCOMPARE(*e.reliability.needed.point, 1);
        QCOMPARE(e.random_expected_sd, 0.0);
        double ranks = 0.0;
        for (const auto& row : t.rows())
            ranks += t.rank(row.actions);
        QCOMPARE(e.random_rank, ranks / double(t.rows().size()));
        // A single-seed table is left as it was.
        sim::Evaluation single;
        sim::add_seed_statistics(single, base);
        QCOMPARE(single.replicates, 1);
        QVERIFY(!single.reliability.known());
    }

    // rlda evaluate on a replicated table prints the rank's interval, the best set, the baselines
    // under the same statistics and the reliability; on a single-seed table, how to measure it.
    void rlda_evaluate_prints_the_seed_statistics()
    {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        const auto base = sim::SimulationTable::load(RLDA_PAPER_DIR "/tables/convnet2_early.csv");
        std::mt19937_64 rng(5);
        std::normal_distribution<double> noise(0.0, 0.01);
        std::vector<sim::SimulationTable> seeds;
        for (int s = 0; s < 3; ++s) {
            sim::SimulationTable one(base.decisions(), base.num_actions());
            for (auto row : base.rows()) {
                row.accuracy = std::clamp(row.accuracy + noise(rng), 0.0, 1.0);
                one.add(row);
            }
            seeds.push_back(std::move(one));
        }
        const auto table = (folder / "replicated.csv").string();
        sim::merge_seeds({42, 43, 44}, {&seeds[0], &seeds[1], &seeds[2]}).save(table);
        const auto learned = (folder / "learned").string();
        auto r = rlda::test::rlda_cli({"learn", "--table", QString::fromStdString(table), "--episodes", "20", "--out",
                                       QString::fromStdString(learned)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // Issue 43, item 7: a rank on the table the policy learned on is said to be in-sample, by
        // learn and by evaluate; on another table it is not.
        const QString in_sample = QStringLiteral("in_sample: yes (the policy learned on this table");
        QVERIFY2(r.out.contains(in_sample), qPrintable(r.out));
        r = rlda::test::rlda_cli({"evaluate", "--policy", QString::fromStdString(learned + "/policy.pt"), "--table",
                                  QString::fromStdString(table)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(in_sample), qPrintable(r.out));
        for (const char* line :
             {"rank_interval: ", "(marginal 95 %, the seed-blocked model over the 3 seeds)",
              "best_set: ", "optimal_rank_interval: ", "no_adaptation_rank_interval: ", "random_rank: ",
              "random_expected_sd: ", "reliability: one seed ", "the table's 3 seeds"})
            QVERIFY2(r.out.contains(QString::fromLatin1(line)), qPrintable(QStringLiteral("%1 in:\n%2").arg(line, r.out)));
        r = rlda::test::rlda_cli({"evaluate", "--policy", QString::fromStdString(learned + "/policy.pt"), "--table",
                                  RLDA_PAPER_DIR "/tables/convnet2_early.csv"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!r.out.contains(QStringLiteral("rank_interval")));
        QVERIFY2(r.out.contains(QStringLiteral("reliability: unknown")), qPrintable(r.out));
        QVERIFY2(!r.out.contains(in_sample), qPrintable(r.out));
    }

    // Issue 43, item 8: a table whose sequences all end at one accuracy ranks nothing (every agent
    // is rank 1 on it); evaluate and learn say so, naming the table.
    void a_table_that_ranks_nothing_is_named()
    {
        QTemporaryDir dir;
        auto flat = sim::SimulationTable::load(RLDA_PAPER_DIR "/tables/convnet2_early.csv");
        sim::SimulationTable same(flat.decisions(), flat.num_actions());
        for (auto row : flat.rows()) {
            row.accuracy = 0.75;
            same.add(row);
        }
        const QString table = dir.filePath("flat.csv");
        same.save(table.toStdString());
        const QString warning =
            QStringLiteral("rlda: warning: %1: all 64 sequences end at the same accuracy (0.75), "
                           "so the table ranks nothing: every agent is rank 1/64 on it")
                .arg(table);
        auto r = rlda::test::rlda_cli({"evaluate", "--agent", "first", "--table", table});
        QVERIFY2(r.code == 0 && r.err.contains(warning), qPrintable(r.err));
        r = rlda::test::rlda_cli({"learn", "--table", table, "--episodes", "2", "--out", dir.filePath("l")});
        QVERIFY2(r.code == 0 && r.err.contains(warning), qPrintable(r.err));
        r = rlda::test::rlda_cli(
            {"evaluate", "--agent", "first", "--table", RLDA_PAPER_DIR "/tables/convnet2_early.csv"});
        QVERIFY2(r.code == 0 && !r.err.contains(QStringLiteral("ranks nothing")), qPrintable(r.err));
    }

    // Sequences that all tie at every seed have no ranking: the reliability is undefined, said so,
    // and a split whose half ties is left out of the mean rather than counted as rho = 0.
    void sequences_that_tie_have_an_undefined_reliability()
    {
        sim::ReplicateAccuracies r;
        r.seeds = {1, 2, 3};
        r.accuracy = {{1.0, 1.0, 1.0, 1.0}, {1.0, 1.0, 1.0, 1.0}, {1.0, 1.0, 1.0, 1.0}};
        auto rel = sim::rank_reliability(r);
        QVERIFY(rel.known());
        QCOMPARE(rel.splits, 0);
        QCOMPARE(rel.undefined_splits, 3);
        QVERIFY(!rel.seeds_needed);
        QVERIFY(!rel.needed.point && !rel.needed.low);
        QVERIFY2(QString::fromStdString(sim::reliability_text(rel))
                     .endsWith("split halves: undefined, a half ranks all the sequences equal in every split "
                               "of the 3 seeds"),
                 sim::reliability_text(rel).c_str());
        // Seeds 2 and 3 order them alike, seed 1 ties them: the split {1} | {2, 3} has no ranking in
        // one half and is left out; the other two agree perfectly.
        r.accuracy[1] = {0.1, 0.2, 0.3, 0.4};
        r.accuracy[2] = {0.2, 0.3, 0.4, 0.5};
        rel = sim::rank_reliability(r);
        QCOMPARE(rel.splits, 2);
        QCOMPARE(rel.undefined_splits, 1);
        QCOMPARE(rel.split_half, 1.0);
    }

    void the_paper_tables_still_load_byte_for_byte()
    {
        QTemporaryDir dir;
        const std::string paper = RLDA_PAPER_DIR "/tables/convnet2_early.csv";
        const auto t = sim::SimulationTable::load(paper);
        QVERIFY(!t.replicated());
        const auto copy = (std::filesystem::path(dir.path().toStdString()) / "c.csv").string();
        t.save(copy);
        std::ifstream a(paper, std::ios::binary), b(copy, std::ios::binary);
        QCOMPARE(std::string(std::istreambuf_iterator<char>(a), {}), std::string(std::istreambuf_iterator<char>(b), {}));
    }

    void each_episode_draws_one_seed_and_the_draws_average_to_the_mean()
    {
        // ConvNet2's 4 actions, one decision, three seeds that disagree a lot.
        const auto spec = rlda::core::model::load_model("ConvNet2");
        sim::SimulationTable t(1, 4);
        t.set_seeds({42, 43, 44});
        const std::vector<std::vector<double>> seeds{{0.2, 0.8, 0.5}, {0.6, 0.6, 0.9}, {0.1, 0.3, 0.2}, {0.5, 0.4, 0.3}};
        for (int a = 0; a < 4; ++a)
            t.add({{a}, {5.0}, 10.0, rlda::core::mean_of(seeds[a]), seeds[a]});
        const sim::LearnTask task{&t, &spec, rlda::core::model::action_space(spec), sim::RewardDraw::Replicate, 7};
        // The draw alone: each seed about a third of the time, its mean the row's.
        std::vector<int> count(3);
        double sum = 0.0;
        for (std::int64_t e = 0; e < 3000; ++e) {
            const double a = sim::episode_accuracy(task, t.rows()[0], e);
            sum += a;
            count[std::find(seeds[0].begin(), seeds[0].end(), a) - seeds[0].begin()]++;
        }
        QVERIFY2(std::abs(sum / 3000 - 0.5) < 0.02, qPrintable(QString::number(sum / 3000)));
        for (int c : count)
            QVERIFY2(c > 900 && c < 1100, qPrintable(QString::number(c))); // 1000 each expected
        auto mean_task = task;
        mean_task.reward = sim::RewardDraw::Mean;
        QCOMPARE(sim::episode_accuracy(mean_task, t.rows()[0], 5), 0.5);
        // Centred: the drawn seed's accuracy less that seed's offset, its mean over the four rows
        // (0.35, 0.525, 0.475) less their mean (0.45). The offsets sum to 0, so each row's mean over
        // the seeds is unchanged; a task without its offsets is refused.
        auto centred = task;
        centred.reward = sim::RewardDraw::Centred;
        QVERIFY_THROWS_EXCEPTION(rlda::core::Error, sim::episode_accuracy(centred, t.rows()[0], 0));
        centred.seed_offsets = sim::seed_offsets(t);
        const std::vector<double> offsets{-0.1, 0.075, 0.025};
        for (std::size_t s = 0; s < 3; ++s)
            QVERIFY(std::abs(centred.seed_offsets[s] - offsets[s]) < 1e-12);
        for (std::int64_t e = 0; e < 20; ++e) {
            const std::size_t r = sim::episode_replicate(task, e);
            QVERIFY(std::abs(sim::episode_accuracy(centred, t.rows()[1], e) - (seeds[1][r] - offsets[r])) <
                    1e-12);
        }
        QCOMPARE(sim::reward_draw_name(sim::RewardDraw::Centred), std::string("centred"));
        // Learning (seed 3, 2,000 episodes): what each sequence earned averages to its mean within 0.05.
        struct Collect : sim::LearnObserver {
            std::map<int, std::vector<double>> by_action;
            void on_episode(const sim::EpisodeRecord& r) override { by_action[r.actions[0]].push_back(r.accuracy); }
        } collect;
        auto learner = rlda::core::agent::PolicyLearner::for_model({}, spec, 3, task.actions);
        QCOMPARE(sim::learn(learner, task, 2000, &collect), std::int64_t{2000});
        for (const auto& [action, got] : collect.by_action)
            if (got.size() >= 100)
                QVERIFY2(std::abs(rlda::core::mean_of(got) - t.rows()[static_cast<std::size_t>(action)].accuracy) < 0.05,
                         qPrintable(QString("action %1: %2 over %3").arg(action).arg(rlda::core::mean_of(got)).arg(got.size())));
        // The same run continued from its counter draws the same: the draw is a function of the episode.
        QCOMPARE(sim::episode_accuracy(task, t.rows()[1], 1234), sim::episode_accuracy(task, t.rows()[1], 1234));
    }

    void a_table_being_written_reads_its_whole_lines()
    {
        // The one parser, as the sweeps read a part file another process appends to.
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "part.csv";
        QCOMPARE(sim::read_table_file(path, 1, true).rows.size(), std::size_t{0}); // no file yet
        std::ofstream(path, std::ios::binary) << "a1,timeleft1,totaltime,accuracy\r\n0,5,10,0.5\r\n1,5,10,0.";
        const auto f = sim::read_table_file(path, 1, true);
        QCOMPARE(f.rows.size(), std::size_t{1});
        QCOMPARE(f.lines, std::vector<int>{2});
        QVERIFY(qerror_of([&] {
                    sim::read_table_file(path, 2, true);
                }).contains(":1: header: a table of 1 decisions, expected 2"));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestReliability)
#include "test_reliability.moc"
