// Decision features as scale-free numbers: relative to the other blocks, clamped, finite.
#include "core/agent/state_encoding.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlda::core::agent {
namespace {

constexpr double kLogScale = 5.0; // e^5 ~ 150x: a log-ratio past it is as telling as at it

float clamp_unit(double x) { return static_cast<float>(std::clamp(x, -1.0, 1.0)); }

// One positive quantity per block as its two relative forms: the log-ratio to the blocks'
// geometric mean and the fraction of the largest. Zeros and non-finite values count as the
// smallest positive value seen (all of them 1 when there is none), so that "no gradient" is the
// least, not -inf.
struct Relative {
    std::vector<float> log_ratio, of_max;
};
Relative relative(const std::vector<double>& values)
{
    double smallest = std::numeric_limits<double>::infinity();
    for (const double v : values)
        if (v > 0.0 && std::isfinite(v))
            smallest = std::min(smallest, v);
    if (!std::isfinite(smallest))
        smallest = 1.0;
    std::vector<double> positive(values.size());
    double log_sum = 0.0, largest = 0.0;
    for (std::size_t b = 0; b < values.size(); ++b) {
        positive[b] = values[b] > 0.0 && std::isfinite(values[b]) ? values[b] : smallest;
        log_sum += std::log(positive[b]);
        largest = std::max(largest, positive[b]);
    }
    const double log_mean = log_sum / static_cast<double>(values.size());
    Relative out;
    for (const double v : positive) {
        out.log_ratio.push_back(clamp_unit((std::log(v) - log_mean) / kLogScale));
        out.of_max.push_back(static_cast<float>(v / largest));
    }
    return out;
}

double finite_or(double x, double fallback) { return std::isfinite(x) ? x : fallback; }

} // namespace

StateEncoding encode_state(const DecisionFeatures& f, int blocks)
{
    if (blocks < 1 || static_cast<std::size_t>(blocks) != f.blocks.size())
        throw Error(fmt::format("state encoding: the decision features hold {} blocks, the model has {}",
                                f.blocks.size(), blocks));
    const auto n = static_cast<std::size_t>(blocks);
    StateEncoding out;
    out.blocks.assign(n * kBlockStateFeatures, 0.0f);
    std::vector<double> weight_rms(n), grad_rms(n), act_var(n), loss_drop(n), parameters(n);
    for (std::size_t b = 0; b < n; ++b) {
        const BlockFeatures& x = f.blocks[b];
        const double count = static_cast<double>(std::max<std::int64_t>(x.parameters, 0));
        weight_rms[b] = count > 0.0 ? x.weight_norm / std::sqrt(count) : 0.0;
        grad_rms[b] = x.grad_sq_mean > 0.0 ? std::sqrt(x.grad_sq_mean) : 0.0;
        act_var[b] = x.activation_var;
        loss_drop[b] = x.loss_drop;
        parameters[b] = count;
        const double sd = std::sqrt(std::max(finite_or(x.activation_var, 0.0), 0.0));
        out.blocks[b * kBlockStateFeatures + kActMeanOverSd] =
            sd > 0.0 ? clamp_unit(finite_or(x.activation_mean, 0.0) / sd / kLogScale) : 0.0f;
    }
    const auto column = [&](std::int64_t c, const std::vector<float>& values) {
        for (std::size_t b = 0; b < n; ++b)
            out.blocks[b * kBlockStateFeatures + c] = values[b];
    };
    const auto both = [&](const std::vector<double>& values, std::int64_t log_column, std::int64_t of_max_column) {
        const Relative r = relative(values);
        column(log_column, r.log_ratio);
        column(of_max_column, r.of_max);
    };
    both(weight_rms, kRelLogWeightRms, kOfMaxWeightRms);
    both(grad_rms, kRelLogGradRms, kOfMaxGradRms);
    both(act_var, kRelLogActVar, kOfMaxActVar);
    both(loss_drop, kRelLogLossDrop, kOfMaxLossDrop);
    column(kRelLogParameters, relative(parameters).log_ratio); // its fraction of the largest says no more

    out.globals.assign(kGlobalStateFeatures, 0.0f);
    const double loss = std::max(finite_or(f.train_loss, 0.0), 0.0);
    out.globals[kTrainLoss] = static_cast<float>(std::min(std::log1p(loss), 2.0));
    out.globals[kRelLossSlope] = loss > 0.0 ? clamp_unit(finite_or(f.train_loss_slope, 0.0) / loss) : 0.0f;
    out.globals[kTestAccuracy] = static_cast<float>(std::clamp(finite_or(f.test_accuracy, 0.0), 0.0, 1.0));
    out.globals[kTestAccuracyChange] = clamp_unit(finite_or(f.test_accuracy_change, 0.0) * 10.0);
    out.globals[kLogEpoch] = static_cast<float>(std::min(std::log1p(std::max(finite_or(f.epoch, 0.0), 0.0)) / 4.0, 1.0));
    return out;
}

} // namespace rlda::core::agent
