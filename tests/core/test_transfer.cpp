// Transfer metrics: jumpstart, episodes to a threshold of the rolling mean, and their difference;
// and core::RollingMean, the one rolling mean they (and the views and the progress line) use.
#include "core/io/transfer_metrics.h"
#include "core/util/rolling_mean.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace rlda::core::sim;

class TestTransfer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The contract in core/util/rolling_mean.h: means of what was added until the window is full,
    // then of the last `window` values; count, added, full; window 0 counts as 1; reset.
    void rollingMeanContract()
    {
        rlda::core::RollingMean m(3);
        QCOMPARE(m.window(), std::size_t(3));
        QCOMPARE(m.count(), std::size_t(0));
        QCOMPARE(m.mean(), 0.0); // no values
        QVERIFY(!m.full());
        const std::vector<double> want{1, 1.5, 2, 3, 4, 5};
        for (int i = 0; i < 6; ++i) {
            m.add(i + 1.0);
            QCOMPARE(m.mean(), want[static_cast<std::size_t>(i)]);
            QCOMPARE(m.count(), std::size_t(std::min(i + 1, 3)));
            QCOMPARE(m.added(), std::size_t(i + 1));
            QCOMPARE(m.full(), i >= 2);
        }
        m.reset();
        QCOMPARE(m.count(), std::size_t(0));
        QCOMPARE(m.added(), std::size_t(0));
        QCOMPARE(m.window(), std::size_t(3));
        m.add(-2.0);
        QCOMPARE(m.mean(), -2.0);

        rlda::core::RollingMean one(0);
        QCOMPARE(one.window(), std::size_t(1));
        one.add(4);
        one.add(2);
        QCOMPARE(one.mean(), 2.0);
        QVERIFY(one.full());
    }

    // Over a long run the running sum does not drift: every mean is the window summed afresh (in
    // long double, oldest first), to the last bits of a double; exactly so right after a re-sum.
    void rollingMeanStaysExact()
    {
        std::mt19937 rng(11); // seeded; the bound is a rounding bound, not statistical
        std::uniform_real_distribution<double> value(-1000.0, 1000.0);
        for (std::size_t w : {1u, 7u, 75u, 1000u}) {
            rlda::core::RollingMean m(w);
            std::vector<double> s;
            for (std::size_t i = 0; i < 20000; ++i) {
                s.push_back(value(rng));
                m.add(s.back());
                if (i % 97 != 0 && (i + 1) % 4096 != 0)
                    continue;
                const std::size_t from = i + 1 >= w ? i + 1 - w : 0;
                long double sum = 0;
                for (std::size_t j = from; j <= i; ++j)
                    sum += s[j];
                const double plain = static_cast<double>(sum / static_cast<long double>(i + 1 - from));
                if ((i + 1) % 4096 == 0)
                    QCOMPARE(m.mean(), plain);
                else
                    QVERIFY2(std::abs(m.mean() - plain) <= 1e-12 * 1000.0,
                             qPrintable(QString("w %1 i %2: %3 vs %4").arg(w).arg(i).arg(m.mean()).arg(plain)));
            }
        }
    }

    void meanOfFirst()
    {
        QVERIFY(!mean_of_first({}, 3));
        QCOMPARE(*mean_of_first({1, 2, 3, 10}, 3), 2.0);
        QCOMPARE(*mean_of_first({1, 2}, 5), 1.5); // fewer than the window: all of them
        QCOMPARE(*mean_of_first({4, 2}, 0), 4.0); // window 0 counts as 1
    }

    void episodesToThreshold()
    {
        const std::vector<double> s{0.1, 0.2, 0.5, 0.5, 0.75, 1.0};
        // windows of 2: 0.15, 0.35, 0.5, 0.625, 0.875
        QCOMPARE(episodes_to_threshold(s, 2, 0.5), std::optional<std::int64_t>(4));
        QCOMPARE(episodes_to_threshold(s, 2, 0.6), std::optional<std::int64_t>(5));
        QCOMPARE(episodes_to_threshold(s, 1, 0.5), std::optional<std::int64_t>(3));
        QCOMPARE(episodes_to_threshold(s, 0, 0.5), std::optional<std::int64_t>(3));
        QVERIFY(!episodes_to_threshold(s, 2, 0.95)); // never
        QVERIFY(!episodes_to_threshold(s, 7, 0.0));  // no full window
        QCOMPARE(episodes_to_threshold(s, 6, 0.5), std::optional<std::int64_t>(6)); // exactly the mean
        // Objectives are negative: higher is still better.
        QCOMPARE(episodes_to_threshold({-3, -2, -1, -0.5}, 2, -1.0), std::optional<std::int64_t>(4));
    }

    // A long noisy series: the running sum gives what a window recomputed from scratch gives.
    void matchesBruteForce()
    {
        std::mt19937 rng(5); // seeded; the check is exact, not statistical
        std::normal_distribution<double> noise(0.0, 0.05);
        std::vector<double> s;
        for (int i = 0; i < 20000; ++i)
            s.push_back(0.5 + 0.3 * (1.0 - std::exp(-i / 4000.0)) + noise(rng));
        for (std::size_t w : {1u, 10u, 100u, 1000u})
            for (double th : {0.6, 0.7, 0.78, 0.9}) {
                std::optional<std::int64_t> expect;
                for (std::size_t i = w; i <= s.size() && !expect; ++i) {
                    long double sum = 0;
                    for (std::size_t j = i - w; j < i; ++j)
                        sum += s[j];
                    if (static_cast<double>(sum / w) >= th)
                        expect = static_cast<std::int64_t>(i);
                }
                QCOMPARE(episodes_to_threshold(s, w, th), expect);
            }
    }

    void pair()
    {
        const std::vector<double> scratch{0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.8};
        const std::vector<double> transfer{0.5, 0.6, 0.7, 0.8, 0.8, 0.8};
        const TransferMetrics m = transfer_metrics(transfer, scratch, 2, 0.64);
        QCOMPARE(m.window, std::size_t(2));
        QCOMPARE(m.threshold, 0.64);
        QVERIFY(m.jumpstart);
        QVERIFY(std::abs(*m.jumpstart - (0.55 - 0.25)) < 1e-12);
        QCOMPARE(m.transfer_episodes, std::optional<std::int64_t>(3)); // (0.6 + 0.7) / 2
        QCOMPARE(m.scratch_episodes, std::optional<std::int64_t>(6));  // (0.6 + 0.7) / 2
        QCOMPARE(m.episodes_saved, std::optional<std::int64_t>(3));

        const TransferMetrics never = transfer_metrics(transfer, scratch, 2, 0.95);
        QVERIFY(!never.transfer_episodes && !never.scratch_episodes && !never.episodes_saved);
        const TransferMetrics one_sided = transfer_metrics(transfer, {0.1, 0.1}, 2, 0.65);
        QVERIFY(one_sided.transfer_episodes && !one_sided.scratch_episodes && !one_sided.episodes_saved);
        const TransferMetrics empty = transfer_metrics({}, scratch, 2, 0.5);
        QVERIFY(!empty.jumpstart && !empty.transfer_episodes);
    }
};

RLDA_SUITE_GUILESS_MAIN(TestTransfer)
#include "test_transfer.moc"
