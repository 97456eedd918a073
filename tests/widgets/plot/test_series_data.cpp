// SeriesData on its own, with no widget: appending (in and out of order), lookups by key across
// ranges, the EMA, decimation that keeps every extreme within its bound, assign and clear.
#include "tests/common/suite.h"
#include "widgets/plot/series_data.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

using rlda::widgets::SeriesData;
using Line = rlda::widgets::SeriesData::Line;

namespace {

std::vector<double> keys(const SeriesData& d)
{
    std::vector<double> xs;
    for (std::size_t i = 0; i < d.size(); ++i)
        xs.push_back(d.x(i));
    return xs;
}

// Every (x, y) of `xs, ys` is a point of `d` (on `line`), and the keys never go back.
bool subsetInOrder(const SeriesData& d, Line line, const std::vector<double>& xs, const std::vector<double>& ys)
{
    std::set<std::pair<double, double>> all;
    for (std::size_t i = 0; i < d.size(); ++i)
        all.insert({d.x(i), line == Line::Raw ? d.y(i) : d.shown(i)});
    for (std::size_t i = 0; i < xs.size(); ++i) {
        if (!all.count({xs[i], ys[i]}))
            return false;
        if (i > 0 && xs[i] < xs[i - 1])
            return false;
    }
    return true;
}

} // namespace

class TestSeriesData : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void appendKeepsKeysSorted()
    {
        SeriesData d;
        QVERIFY(d.empty());
        QVERIFY(d.append(0, 10));
        QVERIFY(d.append(2, 12));
        QVERIFY(d.append(1, 11)); // out of order: inserted where it belongs
        QVERIFY(d.append(2, 13)); // an equal key goes after the one already there
        QCOMPARE(keys(d), (std::vector<double>{0, 1, 2, 2}));
        QCOMPARE(d.values(), (std::vector<double>{10, 11, 12, 13}));
        QCOMPARE(d.firstX(), 0.0);
        QCOMPARE(d.lastX(), 2.0);
        QVERIFY(!d.append(std::numeric_limits<double>::quiet_NaN(), 1));
        QVERIFY(!d.append(3, std::numeric_limits<double>::infinity()));
        QCOMPARE(d.size(), std::size_t(4));
    }

    void lookupsAcrossRanges()
    {
        SeriesData d;
        // 100000 points, far more than a deque block, keys 0, 0.5, 1, ...
        for (int i = 0; i < 100000; ++i)
            d.append(i * 0.5, i);
        QCOMPARE(d.lowerIndex(-1.0), std::size_t(0));
        QCOMPARE(d.lowerIndex(0.0), std::size_t(0));
        QCOMPARE(d.upperIndex(0.0), std::size_t(1));
        QCOMPARE(d.lowerIndex(10.25), std::size_t(21));
        QCOMPARE(d.upperIndex(10.5), std::size_t(22));
        QCOMPARE(d.lowerIndex(30000.0), std::size_t(60000));
        QCOMPARE(d.lowerIndex(1e9), d.size());
        QCOMPARE(d.upperIndex(49999.5), d.size());
        QCOMPARE(d.nearestIndex(10.2), std::size_t(20));
        QCOMPARE(d.nearestIndex(10.3), std::size_t(21));
        QCOMPARE(d.nearestIndex(10.25), std::size_t(21)); // a tie goes to the later key
        QCOMPARE(d.nearestIndex(-5.0), std::size_t(0));
        QCOMPARE(d.nearestIndex(1e9), d.size() - 1);
        QCOMPARE(SeriesData().nearestIndex(1.0), std::size_t(0));

        // What a view of [100, 200] draws: while undecimated, every point of the series.
        std::vector<double> xs, ys;
        SeriesData small;
        for (int i = 0; i < 100; ++i)
            small.append(i, i);
        small.visiblePoints(10, 20, 800, Line::Shown, xs, ys);
        QCOMPARE(xs.size(), std::size_t(100));
        // Decimating: only the range in view and one point either side.
        xs.clear();
        ys.clear();
        d.visiblePoints(100, 200, 800, Line::Raw, xs, ys);
        QCOMPARE(xs.front(), 99.5);
        QCOMPARE(xs.back(), 200.5);
        QCOMPARE(xs.size(), std::size_t(203));
    }

    void emaIsExact()
    {
        SeriesData d;
        for (int i = 0; i < 4; ++i)
            d.append(i, i + 1.0);
        QVERIFY(!d.smoothed());
        QCOMPARE(d.shownValues(), d.values());
        d.setSmoothing(0.5);
        QVERIFY(d.smoothed());
        QCOMPARE(d.shownValues(), (std::vector<double>{1, 1.5, 2.25, 3.125}));
        d.append(4, 5.0); // incremental
        QCOMPARE(d.shown(4), 4.0625);
        d.append(0.5, 1.0); // out of order: recomputed from the start
        QCOMPARE(d.shownValues(), (std::vector<double>{1, 1, 1.5, 2.25, 3.125, 4.0625}));
        d.setSmoothing(1.0); // 1 is off, as 0 is
        QVERIFY(!d.smoothed());
        QCOMPARE(d.shownValues(), d.values());
    }

    void decimationKeepsExtremes_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("pixels");
        QTest::addColumn<bool>("smooth");
        QTest::newRow("1e5 over 700") << 100000 << 700 << false;
        QTest::newRow("1e5 over 700, smoothed") << 100000 << 700 << true;
        QTest::newRow("12345 over 97") << 12345 << 97 << false;
        QTest::newRow("3e5 over 1500") << 300000 << 1500 << false;
    }

    void decimationKeepsExtremes()
    {
        QFETCH(int, n);
        QFETCH(int, pixels);
        QFETCH(bool, smooth);
        SeriesData d;
        if (smooth)
            d.setSmoothing(0.3);
        for (int i = 0; i < n; ++i) {
            double y = std::sin(i * 0.001) + 0.01 * static_cast<double>((std::int64_t{i} * 7919) % 13);
            if (i == n / 3)
                y = 100.0;
            if (i == 2 * n / 3 + 1)
                y = -100.0;
            d.append(i * 0.1, y);
        }
        const Line line = smooth ? Line::Shown : Line::Raw;
        // The whole series, then ranges that start and end inside pyramid blocks.
        for (const auto& [i0, i1] : std::vector<std::pair<std::size_t, std::size_t>>{
                 {0, d.size()}, {13, d.size() - 5}, {std::size_t(n / 4) + 3, std::size_t(3 * n / 4) - 1}}) {
            std::vector<double> xs, ys;
            d.decimate(i0, i1, pixels, line, xs, ys);
            QVERIFY2(xs.size() <= std::size_t(2 * pixels + 4), qPrintable(QString::number(xs.size())));
            QVERIFY(xs.size() >= std::size_t(pixels / 2));
            QCOMPARE(xs.size(), ys.size());
            QVERIFY(subsetInOrder(d, line, xs, ys));
            double lo = std::numeric_limits<double>::infinity(), hi = -lo;
            for (std::size_t i = i0; i < i1; ++i) {
                lo = std::min(lo, smooth ? d.shown(i) : d.y(i));
                hi = std::max(hi, smooth ? d.shown(i) : d.y(i));
            }
            QCOMPARE(*std::min_element(ys.begin(), ys.end()), lo);
            QCOMPARE(*std::max_element(ys.begin(), ys.end()), hi);
            QCOMPARE(xs.front() >= d.x(i0), true);
            QCOMPARE(xs.back() <= d.x(i1 - 1), true);
        }
        // The raw line under a smoothed one keeps the raw peaks.
        if (smooth) {
            std::vector<double> xs, ys;
            d.decimate(0, d.size(), pixels, Line::Raw, xs, ys);
            QCOMPARE(*std::max_element(ys.begin(), ys.end()), 100.0);
            QCOMPARE(*std::min_element(ys.begin(), ys.end()), -100.0);
        }
    }

    void assignAndClear()
    {
        SeriesData d;
        d.setSmoothing(0.5);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        d.assign({3, 1, nan, 2, 1, 4}, {30, 10, 0, 20, 11}); // the shorter length; NaN dropped
        QCOMPARE(keys(d), (std::vector<double>{1, 1, 2, 3}));
        QCOMPARE(d.values(), (std::vector<double>{10, 11, 20, 30})); // a stable sort
        QCOMPARE(d.shownValues(), (std::vector<double>{10, 10.5, 15.25, 22.625}));
        // Built at once or point by point, the decimation is the same.
        SeriesData a, b;
        std::vector<double> xs, ys;
        for (int i = 0; i < 20000; ++i) {
            xs.push_back(i);
            ys.push_back(std::cos(i * 0.01));
            a.append(i, ys.back());
        }
        b.assign(xs, ys);
        std::vector<double> ax, ay, bx, by;
        a.decimate(0, a.size(), 300, Line::Raw, ax, ay);
        b.decimate(0, b.size(), 300, Line::Raw, bx, by);
        QCOMPARE(ax, bx);
        QCOMPARE(ay, by);

        d.clear();
        QVERIFY(d.empty());
        QVERIFY(!d.smoothed());
        QCOMPARE(d.lowerIndex(1.0), std::size_t(0));
        std::vector<double> cx, cy;
        d.visiblePoints(0, 10, 100, Line::Shown, cx, cy);
        d.decimate(0, 10, 100, Line::Shown, cx, cy);
        QVERIFY(cx.empty());
        d.append(5, 1); // still smoothing after a clear
        d.append(6, 3);
        QCOMPARE(d.shownValues(), (std::vector<double>{1, 2}));
    }
};

RLDA_SUITE_APPLESS_MAIN(TestSeriesData)
#include "test_series_data.moc"
