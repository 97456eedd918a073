// RollingMean: the mean of the last `window` values of a series, kept as values arrive. The one
// rolling mean of the tree: the learning views and figures, the transfer metrics and the command
// line's progress line all use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace rlda::core {

// The rolling window of the paper's learning curves (figs. 7-9: "a rolling mean over 75
// episodes"), the default of every learning view, figure and progress line that smooths episodes.
inline constexpr int kPaperRollingWindow = 75;

// The contract:
// - add(x) is O(1) amortised; mean() and count() are O(1). Memory: `window` values.
// - mean() is the mean of the last count() values, count() = min(values added, window): before
//   the window is full it averages what has been added so far (a curve starts at the first value);
//   callers that want only full windows check full(). mean() of no values is 0.
// - Header-only, so that the widgets' base library uses it without linking the engine.
// - Exact to rounding: the running sum is a long double, re-summed from the kept values (oldest
//   first) every 4096 adds, so that adding and subtracting over a long run does not drift; rounded
//   to double, mean() is what summing the window afresh in long double gives (test_rolling_mean
//   checks it over 20000 values), so a threshold reached by the plain sum is reached here too.
// - A window below 1 counts as 1. Not thread-safe: one owner adds and reads.
class RollingMean {
public:
    explicit RollingMean(std::size_t window) : ring_(std::max<std::size_t>(window, 1), 0.0) {}

    void add(double x)
    {
        const std::size_t w = ring_.size();
        if (count_ == w)
            sum_ -= ring_[next_]; // the oldest value leaves
        else
            ++count_;
        ring_[next_] = x;
        next_ = (next_ + 1) % w;
        sum_ += x;
        if (++added_ % kResumEvery == 0)
            resum();
    }
    double mean() const { return count_ == 0 ? 0.0 : static_cast<double>(sum_ / static_cast<long double>(count_)); }
    // Values in the window now: min(added(), window()).
    std::size_t count() const { return count_; }
    // Values added since construction or reset().
    std::size_t added() const { return added_; }
    bool full() const { return count_ == ring_.size(); }
    std::size_t window() const { return ring_.size(); }
    // Forgets every value; the window stays.
    void reset()
    {
        std::fill(ring_.begin(), ring_.end(), 0.0);
        next_ = count_ = added_ = 0;
        sum_ = 0.0L;
    }

private:
    // Adding and subtracting for ever drifts; an exact re-sum this often keeps it at rounding level.
    static constexpr std::size_t kResumEvery = 4096;

    // The window's values summed afresh, oldest first, as a plain sum of the window adds them.
    void resum()
    {
        const std::size_t w = ring_.size();
        const std::size_t oldest = count_ == w ? next_ : 0;
        sum_ = 0.0L;
        for (std::size_t i = 0; i < count_; ++i)
            sum_ += ring_[(oldest + i) % w];
    }

    std::vector<double> ring_; // the last `window` values; ring_[next_] is the oldest once full
    std::size_t next_ = 0;
    std::size_t count_ = 0;
    std::size_t added_ = 0;
    long double sum_ = 0.0L;
};

} // namespace rlda::core
