// Seeded shuffled mini-batches over a dataset held as tensors: index views, no per-sample copies.
#pragma once

#include <torch/types.h>

#include <cstdint>

namespace rlda::core::data {

// All a sampler needs to resume: the permutation of an epoch depends on nothing else.
struct SamplerState {
    std::uint64_t seed = 0;
    std::int64_t epoch = 0;
    bool operator==(const SamplerState&) const = default;
};

class BatchSampler {
public:
    // n samples in batches of `batch`; the last batch is short unless drop_last (BatchNorm
    // cannot train on a batch of one). Starts at epoch 0. Throws DataError on bad sizes.
    // Each epoch's permutation is drawn on the CPU (the same on every device) and moved to `device`
    // once, so that a batch's indices are already where the dataset is.
    BatchSampler(std::int64_t n, std::int64_t batch, std::uint64_t seed, bool drop_last = false,
                 torch::Device device = torch::kCPU);

    // The permutation of `epoch`, a function of (seed, epoch) only, whatever came before.
    void reshuffle(std::int64_t epoch);
    // Same as constructing with state.seed and calling reshuffle(state.epoch).
    void restore(const SamplerState& state);

    std::int64_t batches() const;
    // int64 indices of batch b of the current epoch, on the sampler's device: a view of the permutation.
    torch::Tensor indices(std::int64_t b) const;

    SamplerState state() const { return {seed_, epoch_}; }
    std::int64_t epoch() const { return epoch_; }
    std::int64_t size() const { return n_; }
    std::int64_t batch_size() const { return batch_; }
    bool drop_last() const { return drop_last_; }

private:
    std::int64_t n_ = 0;
    std::int64_t batch_ = 1;
    std::uint64_t seed_ = 0;
    bool drop_last_ = false;
    std::int64_t epoch_ = 0;
    torch::Device device_ = torch::kCPU;
    torch::Tensor order_;
};

} // namespace rlda::core::data
