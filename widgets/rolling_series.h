// Rolling means of a series: kept incrementally for live views, or computed at once for figures.
// Every mean is core::RollingMean's (core/util/rolling_mean.h), which states the contract; this
// adds the series of values and means that plots need.
#pragma once

#include "core/util/rolling_mean.h"

#include <vector>

namespace rlda::widgets {

// A series and its rolling means, kept incrementally: O(1) per value, recomputed whole only when the window changes.
// The first window-1 means average the values seen so far, so the curve starts at episode 1.
class RollingSeries {
public:
    explicit RollingSeries(int window = core::kPaperRollingWindow) : window_(window < 1 ? 1 : window), mean_(window_) {}
    double push(double v);
    void setWindow(int window); // recomputes every mean
    void clear();
    int window() const { return window_; }
    const std::vector<double>& values() const { return values_; }
    const std::vector<double>& means() const { return means_; }

private:
    int window_;
    core::RollingMean mean_;
    std::vector<double> values_;
    std::vector<double> means_;
};

// The rolling means RollingSeries gives for `values`, at once.
std::vector<double> rollingMeans(const std::vector<double>& values, int window);

} // namespace rlda::widgets
