// Seeded random generators for the data code: every draw comes from (seed, stream), never the global RNG.
#pragma once

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Generator.h>

#include <cstdint>

namespace rlda::core::data {

// SplitMix64 finaliser: spreads a seed over all 64 bits.
constexpr std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// Independent streams from one user seed (epoch e, train vs test, …). Mixing matters because
// LibTorch's mt19937 keeps only the low 32 bits of its seed: seeds 1 and 1 + 2^32 would collide.
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream)
{
    return splitmix64(seed ^ splitmix64(stream));
}

// A fresh CPU generator for one stream; its draws depend on nothing but (seed, stream).
inline at::Generator make_generator(std::uint64_t seed, std::uint64_t stream)
{
    return at::make_generator<at::CPUGeneratorImpl>(derive_seed(seed, stream));
}

// Stream numbers of the data code, apart so that one seed used for several purposes stays
// uncorrelated. BatchSampler uses the epoch itself as its stream.
inline constexpr std::uint64_t kSubsetStream = 1ULL << 62;
inline constexpr std::uint64_t kSyntheticStream = 1ULL << 61;

} // namespace rlda::core::data
