// RollingMean: a running sum with an exact re-sum now and then.
#include "widgets/rolling_mean.h"

#include <algorithm>
#include <cstddef>

namespace rlda::widgets {
namespace {

// Adding and subtracting for ever drifts; an exact re-sum this often keeps it at rounding level.
constexpr std::size_t kResumEvery = 4096;

} // namespace

double RollingMean::push(double v)
{
    values_.push_back(v);
    const std::size_t n = values_.size();
    const std::size_t w = static_cast<std::size_t>(window_);
    sum_ += v;
    if (n > w)
        sum_ -= values_[n - 1 - w];
    const std::size_t count = std::min(n, w);
    if (n % kResumEvery == 0) {
        sum_ = 0.0;
        for (std::size_t i = n - count; i < n; ++i)
            sum_ += values_[i];
    }
    const double mean = sum_ / static_cast<double>(count);
    means_.push_back(mean);
    return mean;
}

void RollingMean::setWindow(int window)
{
    window_ = std::max(1, window);
    std::vector<double> values;
    values.swap(values_);
    means_.clear();
    sum_ = 0.0;
    values_.reserve(values.size());
    means_.reserve(values.size());
    for (double v : values)
        push(v);
}

void RollingMean::clear()
{
    values_.clear();
    means_.clear();
    sum_ = 0.0;
}

std::vector<double> rollingMean(const std::vector<double>& values, int window)
{
    RollingMean r(window);
    for (double v : values)
        r.push(v);
    return r.means();
}

} // namespace rlda::widgets
