// Transfer metrics for a pair of learning runs (one started from a trained policy, one from
// scratch): jumpstart and episodes to a threshold, over per-episode accuracy or objective series.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rlda::core::sim {

// Mean of the first `window` values (all of them when there are fewer); nullopt when empty.
// A window of 0 counts as 1.
std::optional<double> mean_of_first(const std::vector<double>& series, std::size_t window);

// Episodes (a count, 1-based) until the rolling mean of the last `window` episodes first reaches
// `threshold` (>=; higher is better for both accuracy and objective); nullopt when it never does.
// Only full windows count, so that one lucky early episode does not "reach" it; a series shorter
// than the window never reaches it. A window of 0 counts as 1.
std::optional<std::int64_t> episodes_to_threshold(const std::vector<double>& series, std::size_t window,
                                                  double threshold);

struct TransferMetrics {
    std::size_t window = 0;
    double threshold = 0.0;
    std::optional<double> jumpstart;                // mean of first W (transfer) - mean of first W (scratch)
    std::optional<std::int64_t> transfer_episodes;  // episodes_to_threshold of the transfer run
    std::optional<std::int64_t> scratch_episodes;   // ... of the from-scratch run
    std::optional<std::int64_t> episodes_saved;     // scratch - transfer, when both reach it
};

TransferMetrics transfer_metrics(const std::vector<double>& transfer, const std::vector<double>& scratch,
                                 std::size_t window, double threshold);

} // namespace rlda::core::sim
