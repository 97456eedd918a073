// SeriesData: one series' points at full resolution, with no widget and no QCustomPlot: the keys
// and values in std::deque (appending never moves what is stored), lookups by key with
// std::lower_bound, the EMA, and the min/max decimation a plot draws from. SeriesPlot holds one
// per series and hands the decimated points to QCustomPlot (series_graphs.h).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace rlda::widgets {

// Min/max of blocks of kBase·2^j consecutive values, level by level, kept up to date as values
// arrive (O(1) amortised each). Decimation then reads about 2 points per pixel column from the
// right level instead of scanning every point: the cost of a redraw does not grow with the run.
class MinMaxPyramid {
public:
    static constexpr std::size_t kBase = 8;

    void clear() { levels_.clear(); }
    void rebuild(const std::deque<double>& values);
    void grew(const std::deque<double>& values) // after one push_back
    {
        if (values.size() % kBase == 0)
            addBlock(values, values.size());
    }

    std::size_t levelCount() const { return levels_.size(); }
    std::size_t blockSize(std::size_t level) const { return kBase << level; }
    std::size_t blocks(std::size_t level) const { return levels_[level].size(); }
    // Entry k of a level covers values [k·b, (k+1)·b): the indices of its min and its max.
    std::pair<std::size_t, std::size_t> block(std::size_t level, std::size_t k) const
    {
        return {levels_[level][k].min, levels_[level][k].max};
    }

private:
    struct MinMax {
        std::uint32_t min;
        std::uint32_t max;
    };

    void addBlock(const std::deque<double>& values, std::size_t end);
    void push(std::size_t level, MinMax m, const std::deque<double>& values);

    std::vector<std::vector<MinMax>> levels_; // level 0 holds one entry per kBase points
};

class SeriesData {
public:
    // Which values a line draws: the raw ones, or what is shown (the EMA while smoothing, else raw).
    enum class Line { Raw, Shown };

    // Keeps the keys sorted: a point older than the last (a resumed run) is inserted after any of
    // equal key. A non-finite key or value (a diverged loss) is dropped and false returned.
    bool append(double x, double y)
    {
        // Inline: a live plot appends every point of a run through here.
        if (!std::isfinite(x) || !std::isfinite(y))
            return false; // a diverged loss (NaN) must not poison the EMA or the min/max blocks
        if (!x_.empty() && x < x_.back()) {
            insert(x, y);
            return true;
        }
        x_.push_back(x);
        y_.push_back(y);
        rawBlocks_.grew(y_);
        if (smoothingOn()) {
            s_.push_back(s_.empty() ? y : alpha_ * y + (1.0 - alpha_) * s_.back());
            smoothBlocks_.grew(s_);
        }
        return true;
    }
    // Replaces every point: the finite pairs of the shorter length, stably sorted by key.
    void assign(const std::vector<double>& xs, const std::vector<double>& ys);
    void clear();

    // EMA on every point: s0 = y0, s_i = a*y_i + (1-a)*s_{i-1}, while 0 < a < 1; else off.
    void setSmoothing(double alpha);
    double smoothing() const { return alpha_; }
    bool smoothed() const { return !s_.empty(); } // smoothing is on and there are points

    std::size_t size() const { return x_.size(); }
    bool empty() const { return x_.empty(); }
    double x(std::size_t i) const { return x_[i]; }
    double y(std::size_t i) const { return y_[i]; }
    double shown(std::size_t i) const { return s_.empty() ? y_[i] : s_[i]; }
    double firstX() const { return x_.front(); }
    double lastX() const { return x_.back(); }
    std::vector<double> keys() const { return {x_.begin(), x_.end()}; }
    std::vector<double> values() const { return {y_.begin(), y_.end()}; }
    std::vector<double> shownValues() const;

    std::size_t lowerIndex(double x) const; // the first point whose key is >= x; size() if none
    std::size_t upperIndex(double x) const; // the first point whose key is > x; size() if none
    std::size_t nearestIndex(double x) const; // the closest key (the later on a tie); 0 if empty

    // What a plot spanning keys [lo, hi] across `pixels` columns draws of a line, appended to xs
    // and ys: every point while there are at most 2·pixels; else the points in view and one either
    // side (for the line crossing the border), decimated while more than 2·pixels remain.
    void visiblePoints(double lo, double hi, int pixels, Line line, std::vector<double>& xs,
                       std::vector<double>& ys) const;
    // Points [i0, i1) of a line in about 2·pixels points: the min and the max of each block, in
    // the order they occur, so that every peak is kept and the shape between them too.
    void decimate(std::size_t i0, std::size_t i1, int pixels, Line line, std::vector<double>& xs,
                  std::vector<double>& ys) const;

private:
    bool smoothingOn() const { return alpha_ > 0.0 && alpha_ < 1.0; }
    void insert(double x, double y); // out of order: O(n), rare
    void recomputeSmoothing();

    std::deque<double> x_;
    std::deque<double> y_;
    std::deque<double> s_; // EMA of y_; empty while smoothing is off
    MinMaxPyramid rawBlocks_;
    MinMaxPyramid smoothBlocks_;
    double alpha_ = 0.0;
};

} // namespace rlda::widgets
