// The study judged with the held-out model as its unit (core/transfer/study.h): the exact tests it
// rests on, checked against brute force, and its verdicts on synthetic runs and on the shipped study.
#include "core/transfer/references.h"
#include "core/transfer/study.h"
#include "core/util/statistics.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <vector>

namespace run = rlda::core::run;
using rlda::core::sign_test_p;
using rlda::core::signed_rank_test;

namespace {

// Wilcoxon's two-sided p by enumerating every sign of the nonzero differences.
double brute_signed_rank_p(const std::vector<double>& d)
{
    std::vector<double> nonzero;
    for (const double v : d)
        if (v != 0.0)
            nonzero.push_back(v);
    if (nonzero.empty())
        return 1.0;
    std::vector<double> magnitude;
    for (const double v : nonzero)
        magnitude.push_back(std::abs(v));
    const std::vector<double> rank = rlda::core::fractional_ranks(magnitude);
    double observed = 0.0;
    for (std::size_t i = 0; i < nonzero.size(); ++i)
        observed += nonzero[i] > 0.0 ? rank[i] : 0.0;
    const std::size_t n = nonzero.size();
    double below = 0.0, above = 0.0;
    for (std::size_t mask = 0; mask < (std::size_t{1} << n); ++mask) {
        double w = 0.0;
        for (std::size_t i = 0; i < n; ++i)
            w += (mask >> i) & 1U ? rank[i] : 0.0;
        below += w <= observed + 1e-9 ? 1.0 : 0.0;
        above += w >= observed - 1e-9 ? 1.0 : 0.0;
    }
    return std::min(1.0, 2.0 * std::min(below, above) / static_cast<double>(std::size_t{1} << n));
}

// P(mean over tables of the mean of draws[t] draws from ranks[t] <= mean), by enumeration.
double brute_random_mean_p(const std::vector<std::vector<int>>& ranks, const std::vector<int>& draws,
                           double mean)
{
    std::vector<std::vector<int>> slots; // one list per draw
    std::vector<double> weight;
    for (std::size_t t = 0; t < ranks.size(); ++t)
        for (int d = 0; d < draws[t]; ++d) {
            slots.push_back(ranks[t]);
            weight.push_back(1.0 / (draws[t] * static_cast<double>(ranks.size())));
        }
    std::vector<std::size_t> at(slots.size(), 0);
    double hits = 0.0, all = 0.0;
    while (true) {
        double m = 0.0;
        for (std::size_t s = 0; s < slots.size(); ++s)
            m += weight[s] * slots[s][at[s]];
        hits += m <= mean + 1e-9 ? 1.0 : 0.0;
        all += 1.0;
        std::size_t s = 0;
        while (s < slots.size() && ++at[s] == slots[s].size())
            at[s++] = 0;
        if (s == slots.size())
            break;
    }
    return hits / all;
}

// A transfer run of `models` held-out models, one table each of `sequences` sequences, judged at
// `seeds` learning seeds: ranks[m][s] the rank seed s reached on model m, the greedy sequence
// differing between seeds only where the ranks do.
run::StudyRun synthetic_run(const std::string& label, const std::vector<std::vector<int>>& ranks,
                            int sequences, const std::vector<std::pair<std::string, int>>& references)
{
    run::TransferResult r;
    for (std::size_t m = 0; m < ranks.size(); ++m) {
        run::TransferFold f;
        f.model = "Model" + std::to_string(m);
        f.tables = {"model" + std::to_string(m) + ".csv"};
        f.sequences = sequences;
        r.folds.push_back(f);
        for (std::size_t s = 0; s < ranks[m].size(); ++s) {
            run::TransferRank x;
            x.model = f.model;
            x.seed = s + 1;
            x.table = f.tables[0];
            x.evaluation.rank = ranks[m][s];
            x.evaluation.sequences = sequences;
            x.evaluation.greedy = {ranks[m][s]};
            r.ranks.push_back(x);
        }
        for (const auto& [agent, rank] : references) {
            run::TransferReference ref;
            ref.model = f.model;
            ref.table = f.tables[0];
            ref.agent = agent;
            ref.rank = rank;
            r.references.push_back(ref);
        }
    }
    return {label, run::summarize_transfer(r)};
}

} // namespace

class TestStudy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Wilcoxon's signed-rank test: exact, as enumeration over the signs gives it, with tied
    // magnitudes and zeros; six differences all of one sign give 2 / 64, the least p of six models.
    void the_signed_rank_test_is_exact()
    {
        const auto all_lower = signed_rank_test(std::vector<double>{-1, -2, -3, -4, -5, -6});
        QCOMPARE(all_lower.negative, 6);
        QCOMPARE(all_lower.w_plus, 0.0);
        QCOMPARE(all_lower.p, 2.0 / 64.0);
        QCOMPARE(signed_rank_test(std::vector<double>{0, 0}).p, 1.0);
        QCOMPARE(signed_rank_test(std::vector<double>{}).p, 1.0);
        const auto with_zero = signed_rank_test(std::vector<double>{0.0, 1.0, -1.0, 2.0});
        QCOMPARE(with_zero.zero, 1);
        QCOMPARE(with_zero.w_plus, 1.5 + 3.0); // the tie 1, -1 shares rank 1.5
        std::mt19937 rng(7);
        std::uniform_int_distribution<int> value(-3, 3);
        for (int trial = 0; trial < 200; ++trial) {
            std::vector<double> d(static_cast<std::size_t>(1 + trial % 9));
            for (auto& v : d)
                v = value(rng) * 0.25;
            QCOMPARE(signed_rank_test(d).p, brute_signed_rank_p(d));
        }
    }

    // The sign test: 5 of 5 gives 2 / 32; an even split gives 1.
    void the_sign_test_is_binomial()
    {
        QCOMPARE(sign_test_p(5, 0), 2.0 / 32.0);
        QCOMPARE(sign_test_p(0, 6), 2.0 / 64.0);
        QCOMPARE(sign_test_p(3, 3), 1.0);
        QCOMPARE(sign_test_p(0, 0), 1.0);
        QVERIFY(std::abs(sign_test_p(1, 5) - 2.0 * 7.0 / 64.0) < 1e-15);
    }

    // A random agent's mean rank, one draw on some tables and several on others (ties in a list),
    // is as likely to be as low as a given mean as enumeration says.
    void a_random_agents_mean_is_exact()
    {
        const std::vector<std::vector<int>> ranks{{1, 2, 3}, {1, 1, 3, 4}};
        for (const auto& draws : std::vector<std::vector<int>>{{1, 1}, {1, 2}, {3, 2}, {2, 3}})
            for (const double mean : {1.0, 1.5, 2.0, 7.0 / 3.0, 2.5, 3.5})
                QVERIFY2(
                    std::abs(run::random_mean_p(ranks, draws, mean) -
                             brute_random_mean_p(ranks, draws, mean)) < 1e-12,
                    qPrintable(QStringLiteral("draws %1 %2, mean %3").arg(draws[0]).arg(draws[1]).arg(mean)));
        QCOMPARE(run::random_mean_p(ranks, {1, 1}, 0.5), 0.0);
        QCOMPARE(run::random_mean_p(ranks, {1, 1}, 4.0), 1.0);
    }

    // The tests hold their level where the null is true, by simulation with a known truth: differences
    // symmetric about 0 (6 to 12 models) reject at most 5 % of the time, and a "policy" that is itself
    // a random agent is called better than chance at most 5 % of the time, one draw a table or five.
    void the_tests_keep_their_level_under_the_null()
    {
        std::mt19937 rng(11);
        std::normal_distribution<double> noise(0.0, 1.0);
        int rejected = 0;
        const int trials = 4000;
        for (int t = 0; t < trials; ++t) {
            std::vector<double> d(static_cast<std::size_t>(6 + t % 7));
            for (auto& v : d)
                v = noise(rng);
            rejected += signed_rank_test(d).p < 0.05 ? 1 : 0;
        }
        QVERIFY2(rejected <= trials * 0.05 + 2 * std::sqrt(trials * 0.05),
                 qPrintable(QString::number(rejected)));
        // A random agent's own mean rank over tables with ties, tested against random agents.
        const std::vector<std::vector<int>> ranks{{1, 2, 2, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 5, 5, 8, 9, 10}};
        for (const std::vector<int>& draws : {std::vector<int>{1, 1}, std::vector<int>{5, 5}}) {
            int called = 0;
            for (int t = 0; t < trials; ++t) {
                double mean = 0.0;
                for (std::size_t k = 0; k < ranks.size(); ++k) {
                    double sum = 0.0;
                    for (int i = 0; i < draws[k]; ++i)
                        sum +=
                            ranks[k][std::uniform_int_distribution<std::size_t>(0, ranks[k].size() - 1)(rng)];
                    mean += sum / draws[k] / static_cast<double>(ranks.size());
                }
                called += run::random_mean_p(ranks, draws, mean) < 0.05 ? 1 : 0;
            }
            QVERIFY2(called <= trials * 0.05 + 2 * std::sqrt(trials * 0.05),
                     qPrintable(QString::number(called)));
        }
    }

    // Six models, a policy lower than another on every one: better, at the least p six models allow;
    // lower on five of six: not distinguishable. A policy better than every agent is the best; where
    // one comparison is not distinguishable, no agent is named. A choice that does not vary with the
    // learning seed counts one draw, else one per seed.
    void verdicts_need_the_test()
    {
        const std::vector<std::pair<std::string, int>> references{{"first", 9}, {"none", 12}};
        const std::vector<std::vector<int>> low(6, std::vector<int>(3, 2));
        std::vector<std::vector<int>> mixed(6, std::vector<int>(3, 5));
        mixed[0] = {1, 1, 1}; // lower than `low` on one model
        std::vector<run::StudyRun> runs{synthetic_run("low", low, 16, references),
                                        synthetic_run("mixed", mixed, 16, references)};
        const auto rows = run::compare_transfers(runs);
        run::StudyTables ranks; // ranks alone: no seeds, so no contrast within a model
        for (int m = 0; m < 6; ++m) {
            std::vector<int> list(16);
            for (int i = 0; i < 16; ++i)
                list[static_cast<std::size_t>(i)] = i + 1;
            ranks["model" + std::to_string(m) + ".csv"].ranks = list;
        }
        const auto tests = run::test_study(runs, rows, ranks);
        const auto find = [&](const std::string& a, const std::string& b) {
            for (const auto& c : tests.comparisons)
                if (c.agent == a && c.against == b)
                    return c;
            QTest::qFail("no such comparison", __FILE__, __LINE__);
            return run::StudyComparison{};
        };
        const auto low_first = find("low", "first");
        QCOMPARE(low_first.better, 6);
        QCOMPARE(low_first.p, 2.0 / 64.0);
        QVERIFY(low_first.verdict == run::StudyVerdict::Better);
        const auto low_mixed = find("low", "mixed");
        QCOMPARE(low_mixed.better, 5);
        QCOMPARE(low_mixed.worse, 1);
        QVERIFY(low_mixed.verdict == run::StudyVerdict::NotDistinguishable);
        QVERIFY(find("mixed", "low").verdict == run::StudyVerdict::NotDistinguishable);
        QVERIFY(find("mixed", "none").verdict == run::StudyVerdict::Better);
        QVERIFY(tests.best.empty()); // low is not distinguishable from mixed
        // Every seed chose one sequence: one draw a table; p of a rank 2 in 16 is 2 / 16.
        QCOMPARE(tests.chance.size(), std::size_t{12});
        QCOMPARE(tests.chance[0].draws, 1);
        QCOMPARE(tests.chance[0].p, 2.0 / 16.0);
        const auto lines = run::study_test_lines(rows, tests);
        QVERIFY(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
            return l.find("best agent: not distinguishable") != std::string::npos;
        }));
        // Alone, `low` is better than every reference: the best agent.
        const std::vector<run::StudyRun> one{runs[0]};
        QCOMPARE(run::test_study(one, run::compare_transfers(one), ranks).best, std::string("low"));
    }

    // Within a model, paired by the table's seeds: one table of 4 sequences (1 decision) at 5 seeds,
    // sequence 0 two points above the others at every seed, each seed offset by a point; sigma_e 1
    // point on 12 df. `good` chose 0 at both learning seeds, `poor` 1, and so did the reference `none`.
    void contrasts_within_a_model_are_paired_by_the_table_seeds()
    {
        const auto make = [](const std::string& label, int choice) {
            run::TransferResult r;
            run::TransferFold f;
            f.model = "M";
            f.tables = {"t.csv"};
            f.sequences = 4;
            r.folds.push_back(f);
            for (std::uint64_t seed : {1, 2}) {
                run::TransferRank x;
                x.model = "M";
                x.seed = seed;
                x.table = "t.csv";
                x.evaluation.rank = choice == 0 ? 1 : 2;
                x.evaluation.sequences = 4;
                x.evaluation.greedy = {choice};
                r.ranks.push_back(x);
            }
            run::TransferReference none;
            none.model = "M";
            none.table = "t.csv";
            none.agent = "none";
            none.rank = 2;
            none.sequence = {1};
            r.references.push_back(none);
            return run::StudyRun{label, run::summarize_transfer(r)};
        };
        const std::vector<run::StudyRun> runs{make("good", 0), make("poor", 1)};
        const auto rows = run::compare_transfers(runs);
        run::StudyTables tables;
        auto& t = tables["t.csv"];
        t.ranks = {1, 2, 2, 2};
        t.num_actions = 4;
        for (int r = 0; r < 5; ++r) {
            t.accuracies.seeds.push_back(static_cast<std::uint64_t>(r));
            t.accuracies.accuracy.push_back(
                {0.82 + 0.01 * r, 0.80 + 0.01 * r, 0.80 + 0.01 * r, 0.80 + 0.01 * r});
        }
        t.sigma_e = 0.01;
        t.df_error = 12;
        const auto tests = run::test_study(runs, rows, tables);
        // good against poor (once: poor against good is its mirror), each against none and random.
        QCOMPARE(tests.contrasts.size(), std::size_t{5});
        const auto find = [&](const std::string& a, const std::string& b) {
            for (const auto& c : tests.contrasts)
                if (c.agent == a && c.against == b)
                    return c;
            QTest::qFail("no such contrast", __FILE__, __LINE__);
            return run::ModelContrast{};
        };
        const auto good_poor = find("good", "poor");
        QCOMPARE(good_poor.tables, 1);
        QVERIFY(std::abs(good_poor.difference - 0.02) < 1e-12); // the seed offsets cancel
        QVERIFY(std::abs(good_poor.se - 0.01 * std::sqrt(2.0 / 5.0)) < 1e-12);
        QCOMPARE(good_poor.df, 12.0);
        // Unadjusted 2 (1 - T12(3.162)) = 0.0082; Holm multiplies it by at most 4 of the 5.
        QVERIFY(good_poor.p > 0.0082 && good_poor.p < 0.05);
        QVERIFY(good_poor.verdict == run::StudyVerdict::Better);
        QVERIFY(find("good", "none").verdict == run::StudyVerdict::Better);
        // Against random: the mean of every sequence, 0.5 points below `good`'s two (w = 3/4 - 1/4 ...).
        const auto good_random = find("good", "random");
        QVERIFY(std::abs(good_random.difference - 0.015) < 1e-12);
        QVERIFY(std::abs(good_random.se - 0.01 * std::sqrt(0.75 / 5.0)) < 1e-12);
        QVERIFY(good_random.verdict == run::StudyVerdict::Better);
        // The same sequence is no difference at all; half a point at 0.39 se is not distinguishable.
        const auto poor_none = find("poor", "none");
        QCOMPARE(poor_none.difference, 0.0);
        QCOMPARE(poor_none.p, 1.0);
        QVERIFY(find("poor", "random").verdict == run::StudyVerdict::NotDistinguishable);
        const auto lines = run::study_test_lines(rows, tests);
        QVERIFY(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
            return l.starts_with("  M, good against poor: +2.00 points (se 0.63, 1 table), p = ") &&
                   l.ends_with(": better");
        }));
        QVERIFY(std::find(lines.begin(), lines.end(),
                          "  M, poor against none: the same sequences (1 table)") != lines.end());
    }

    // The shipped study (data/fashion-mnist/study): the state-aware and structural policies cannot be
    // told apart over the six models, no agent is the best, and on three conv tables both chose one
    // sequence at every seed, so that there it is one draw against chance, not five.
    void the_shipped_study_names_no_best_agent()
    {
        // The runs name their tables as data/fashion-mnist/tables/...: found where the shipped data is.
        const std::string study = RLDA_SOURCE_DIR "/data/fashion-mnist/study/";
        const std::vector<run::StudyRun> runs{run::read_study_run(study + "state"),
                                              run::read_study_run(study + "structural")};
        const auto rows = run::compare_transfers(runs);
        const auto tests = run::test_study(runs, rows, run::read_study_tables(rows));
        QVERIFY(tests.best.empty());
        for (const auto& c : tests.comparisons)
            if (c.against == "structural" || c.against == "state")
                QVERIFY(c.verdict == run::StudyVerdict::NotDistinguishable);
        QCOMPARE(tests.chance.size(), std::size_t{12});
        // On DeepConvNet6 the seeds chose (2 1), (3 1) or (4 1): five draws there.
        for (const auto& c : tests.chance)
            if (c.model.find("ConvNet") != std::string::npos)
                QCOMPARE(c.draws, c.model == "DeepConvNet6" ? 5 : 1);
    }
};

RLDA_SUITE_GUILESS_MAIN(TestStudy)
#include "test_study.moc"
