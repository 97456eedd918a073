// Seeded per-epoch permutations, cut into batches as views.
#include "core/data/sampler.h"

#include "core/data/random.h"
#include "core/util/error.h"

#include <fmt/format.h>

namespace rlda::core::data {

BatchSampler::BatchSampler(std::int64_t n, std::int64_t batch, std::uint64_t seed, bool drop_last,
                           torch::Device device)
    : n_(n), batch_(batch), seed_(seed), drop_last_(drop_last), device_(device)
{
    if (n < 0)
        throw DataError(fmt::format("BatchSampler: {} samples", n));
    if (batch < 1)
        throw DataError(fmt::format("BatchSampler: batch size {} (must be at least 1)", batch));
    reshuffle(0);
}

void BatchSampler::reshuffle(std::int64_t epoch)
{
    if (epoch < 0)
        throw DataError(fmt::format("BatchSampler: epoch {}", epoch));
    epoch_ = epoch;
    auto gen = make_generator(seed_, static_cast<std::uint64_t>(epoch));
    order_ = torch::randperm(n_, gen, torch::kLong).to(device_);
}

void BatchSampler::restore(const SamplerState& state)
{
    seed_ = state.seed;
    reshuffle(state.epoch);
}

std::int64_t BatchSampler::batches() const
{
    return drop_last_ ? n_ / batch_ : (n_ + batch_ - 1) / batch_;
}

torch::Tensor BatchSampler::indices(std::int64_t b) const
{
    if (b < 0 || b >= batches())
        throw DataError(fmt::format("BatchSampler: batch {} of {}", b, batches()));
    return order_.slice(0, b * batch_, std::min(n_, (b + 1) * batch_));
}

} // namespace rlda::core::data
