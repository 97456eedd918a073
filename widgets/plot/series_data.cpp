// SeriesData: storage, EMA and min/max decimation of one series, in plain C++.
#include "widgets/plot/series_data.h"

#include <algorithm>

namespace rlda::widgets {

// ---------------------------------------------------------------------------------------------
void MinMaxPyramid::rebuild(const std::deque<double>& values)
{
    clear();
    for (std::size_t n = kBase; n <= values.size(); n += kBase)
        addBlock(values, n);
}

void MinMaxPyramid::addBlock(const std::deque<double>& values, std::size_t end)
{
    MinMax m{std::uint32_t(end - kBase), std::uint32_t(end - kBase)};
    for (std::size_t i = end - kBase + 1; i < end; ++i) {
        if (values[i] < values[m.min])
            m.min = std::uint32_t(i);
        if (values[i] > values[m.max])
            m.max = std::uint32_t(i);
    }
    push(0, m, values);
}

void MinMaxPyramid::push(std::size_t level, MinMax m, const std::deque<double>& values)
{
    if (levels_.size() <= level)
        levels_.emplace_back();
    auto& l = levels_[level];
    l.push_back(m);
    if (l.size() % 2 != 0)
        return;
    const MinMax a = l[l.size() - 2];
    const MinMax b = l.back();
    push(level + 1,
         {values[b.min] < values[a.min] ? b.min : a.min, values[b.max] > values[a.max] ? b.max : a.max}, values);
}

// ---------------------------------------------------------------------------------------------
void SeriesData::insert(double x, double y)
{
    // Keeps the keys sorted, which every lookup assumes.
    const auto pos = std::ptrdiff_t(upperIndex(x));
    x_.insert(x_.begin() + pos, x);
    y_.insert(y_.begin() + pos, y);
    rawBlocks_.rebuild(y_);
    recomputeSmoothing();
}

void SeriesData::assign(const std::vector<double>& xs, const std::vector<double>& ys)
{
    const auto n = std::min(xs.size(), ys.size());
    std::vector<std::size_t> order;
    order.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(xs[i]) && std::isfinite(ys[i]))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return xs[a] < xs[b]; });
    x_.clear();
    y_.clear();
    for (auto i : order) {
        x_.push_back(xs[i]);
        y_.push_back(ys[i]);
    }
    rawBlocks_.rebuild(y_);
    recomputeSmoothing();
}

void SeriesData::clear()
{
    x_.clear();
    y_.clear();
    s_.clear();
    rawBlocks_.clear();
    smoothBlocks_.clear();
}

void SeriesData::setSmoothing(double alpha)
{
    if (alpha == alpha_)
        return;
    alpha_ = alpha;
    recomputeSmoothing();
}

void SeriesData::recomputeSmoothing()
{
    s_.clear();
    smoothBlocks_.clear();
    if (!smoothingOn())
        return;
    for (std::size_t i = 0; i < y_.size(); ++i)
        s_.push_back(i == 0 ? y_[0] : alpha_ * y_[i] + (1.0 - alpha_) * s_.back());
    smoothBlocks_.rebuild(s_);
}

std::vector<double> SeriesData::shownValues() const
{
    const auto& v = s_.empty() ? y_ : s_;
    return {v.begin(), v.end()};
}

std::size_t SeriesData::lowerIndex(double x) const
{
    return std::size_t(std::lower_bound(x_.begin(), x_.end(), x) - x_.begin());
}

std::size_t SeriesData::upperIndex(double x) const
{
    return std::size_t(std::upper_bound(x_.begin(), x_.end(), x) - x_.begin());
}

std::size_t SeriesData::nearestIndex(double x) const
{
    if (x_.empty())
        return 0;
    const std::size_t i = lowerIndex(x);
    if (i == x_.size() || (i > 0 && x - x_[i - 1] < x_[i] - x))
        return i - 1;
    return i;
}

void SeriesData::visiblePoints(double lo, double hi, int pixels, Line line, std::vector<double>& xs,
                               std::vector<double>& ys) const
{
    const std::size_t n = x_.size();
    const auto budget = static_cast<std::size_t>(2 * std::max(pixels, 1));
    std::size_t i0 = 0;
    std::size_t i1 = n;
    const bool decimating = n > budget;
    if (decimating) {
        i0 = lowerIndex(lo);
        i1 = upperIndex(hi);
        i0 = i0 > 0 ? i0 - 1 : 0;
        i1 = std::min(n, i1 + 1);
    }
    if (decimating && i1 > i0 && i1 - i0 > budget) {
        decimate(i0, i1, pixels, line, xs, ys);
        return;
    }
    const auto& v = line == Line::Raw || s_.empty() ? y_ : s_;
    for (auto i = i0; i < i1; ++i) {
        xs.push_back(x_[i]);
        ys.push_back(v[i]);
    }
}

void SeriesData::decimate(std::size_t i0, std::size_t i1, int pixels, Line line, std::vector<double>& xs,
                          std::vector<double>& ys) const
{
    const bool raw = line == Line::Raw || s_.empty();
    const auto& v = raw ? y_ : s_;
    const MinMaxPyramid& pyramid = raw ? rawBlocks_ : smoothBlocks_;
    i1 = std::min(i1, x_.size());
    if (i0 >= i1)
        return;
    auto emit1 = [&](std::size_t k) {
        xs.push_back(x_[k]);
        ys.push_back(v[k]);
    };
    auto emitPair = [&](std::size_t mn, std::size_t mx) {
        emit1(std::min(mn, mx));
        if (mn != mx)
            emit1(std::max(mn, mx));
    };
    auto emitRange = [&](std::size_t a, std::size_t e) {
        if (a >= e)
            return;
        std::size_t mn = a;
        std::size_t mx = a;
        for (std::size_t i = a + 1; i < e; ++i) {
            if (v[i] < v[mn])
                mn = i;
            if (v[i] > v[mx])
                mx = i;
        }
        emitPair(mn, mx);
    };
    if (pyramid.levelCount() == 0) {
        emitRange(i0, i1);
        return;
    }
    const std::size_t count = i1 - i0;
    std::size_t level = 0;
    while (level + 1 < pyramid.levelCount() && count / pyramid.blockSize(level) > std::size_t(std::max(pixels, 1)))
        ++level;
    const std::size_t b = pyramid.blockSize(level);
    const std::size_t first = (i0 + b - 1) / b;
    const std::size_t last = std::min(i1 / b, pyramid.blocks(level));
    if (first >= last) {
        emitRange(i0, i1);
        return;
    }
    emitRange(i0, first * b);
    for (std::size_t k = first; k < last; ++k) {
        const auto [mn, mx] = pyramid.block(level, k);
        emitPair(mn, mx);
    }
    emitRange(last * b, i1);
}

} // namespace rlda::widgets
