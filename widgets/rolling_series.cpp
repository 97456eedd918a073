// RollingSeries: the values and means of a series, each mean core::RollingMean's.
#include "widgets/rolling_series.h"

#include <algorithm>
#include <cstddef>

namespace rlda::widgets {

double RollingSeries::push(double v)
{
    values_.push_back(v);
    mean_.add(v);
    means_.push_back(mean_.mean());
    return means_.back();
}

void RollingSeries::setWindow(int window)
{
    window_ = std::max(1, window);
    std::vector<double> values;
    values.swap(values_);
    means_.clear();
    mean_ = core::RollingMean(static_cast<std::size_t>(window_));
    values_.reserve(values.size());
    means_.reserve(values.size());
    for (double v : values)
        push(v);
}

void RollingSeries::clear()
{
    values_.clear();
    means_.clear();
    mean_.reset();
}

std::vector<double> rollingMeans(const std::vector<double>& values, int window)
{
    RollingSeries r(window);
    for (double v : values)
        r.push(v);
    return r.means();
}

} // namespace rlda::widgets
