// Transfer metrics: jumpstart and time to threshold of a transferred policy against a fresh one.
#include "core/io/transfer_metrics.h"

#include "core/util/rolling_mean.h"

#include <algorithm>

namespace rlda::core::sim {

std::optional<double> mean_of_first(const std::vector<double>& series, std::size_t window)
{
    if (series.empty())
        return std::nullopt;
    const std::size_t n = std::min(std::max<std::size_t>(window, 1), series.size());
    long double sum = 0.0L;
    for (std::size_t i = 0; i < n; ++i)
        sum += series[i];
    return static_cast<double>(sum / static_cast<long double>(n));
}

std::optional<std::int64_t> episodes_to_threshold(const std::vector<double>& series, std::size_t window,
                                                  double threshold)
{
    // core::RollingMean keeps its long double sum exact enough over 75,000 episodes that a window
    // mean equal to the threshold is not lost to drift.
    RollingMean mean(window);
    for (std::size_t i = 0; i < series.size(); ++i) {
        mean.add(series[i]);
        if (mean.full() && mean.mean() >= threshold)
            return static_cast<std::int64_t>(i + 1);
    }
    return std::nullopt;
}

TransferMetrics transfer_metrics(const std::vector<double>& transfer, const std::vector<double>& scratch,
                                 std::size_t window, double threshold)
{
    TransferMetrics m;
    m.window = window;
    m.threshold = threshold;
    const auto t = mean_of_first(transfer, window);
    const auto s = mean_of_first(scratch, window);
    if (t && s)
        m.jumpstart = *t - *s;
    m.transfer_episodes = episodes_to_threshold(transfer, window, threshold);
    m.scratch_episodes = episodes_to_threshold(scratch, window, threshold);
    if (m.transfer_episodes && m.scratch_episodes)
        m.episodes_saved = *m.scratch_episodes - *m.transfer_episodes;
    return m;
}

} // namespace rlda::core::sim
