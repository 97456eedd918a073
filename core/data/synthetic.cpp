// Synthetic data: class prototypes on a coarse grid plus seeded pixel noise.
#include "core/data/synthetic.h"

#include "core/data/random.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlda::core::data {
namespace {

constexpr std::int64_t kGrid = 4;

// Row (or column) i of the full image takes cell i * cells / size: nearest-neighbour upsampling.
torch::Tensor cell_of(std::int64_t size, std::int64_t cells)
{
    return torch::arange(size, torch::kLong).mul_(cells).div_(size, "floor");
}

Dataset samples(const torch::Tensor& prototypes, std::int64_t n, double noise, std::uint64_t seed,
                std::uint64_t stream)
{
    auto gen = make_generator(seed, stream);
    const std::int64_t classes = prototypes.size(0);
    // Balanced classes, shuffled so that no batch sees them in a fixed order.
    auto labels = torch::arange(n, torch::kLong).remainder_(classes);
    labels = labels.index_select(0, torch::randperm(n, gen, torch::kLong));
    auto sizes = prototypes.sizes().vec();
    sizes[0] = n;
    auto images =
        torch::randn(sizes, gen, torch::kFloat).mul_(noise).add_(prototypes.index_select(0, labels));
    // About unit variance, like the normalised real datasets, so the same learning rates work.
    images.div_(static_cast<float>(std::sqrt(1.0 + noise * noise)));
    Dataset d;
    d.images = std::move(images);
    d.labels = std::move(labels);
    d.classes = classes;
    d.name = "synthetic";
    return d;
}

} // namespace

DatasetSplit make_synthetic(const SyntheticOptions& o)
{
    const auto& s = o.shape;
    if (s.size() != 3 || std::any_of(s.begin(), s.end(), [](std::int64_t d) { return d < 1; }))
        throw DataError(fmt::format("make_synthetic: shape {} (expected C x H x W, all positive)",
                                    model::shape_string(s)));
    if (o.classes < 2)
        throw DataError(fmt::format("make_synthetic: {} classes (at least 2)", o.classes));
    if (o.train_size < 1 || o.test_size < 1)
        throw DataError(fmt::format("make_synthetic: train_size {} and test_size {} (both at least 1)",
                                    o.train_size, o.test_size));
    if (!(o.noise >= 0) || !std::isfinite(o.noise))
        throw DataError(fmt::format("make_synthetic: noise {} (must be finite and not negative)", o.noise));

    const std::int64_t c = s[0], h = s[1], w = s[2];
    auto gen = make_generator(o.seed, kSyntheticStream);
    const std::int64_t gh = std::min(h, kGrid), gw = std::min(w, kGrid);
    const auto coarse = torch::randn({o.classes, c, gh, gw}, gen, torch::kFloat);
    const auto prototypes =
        coarse.index_select(2, cell_of(h, gh)).index_select(3, cell_of(w, gw)).contiguous();

    // Separate streams: the test set stays the same when only train_size changes.
    return {samples(prototypes, o.train_size, o.noise, o.seed, kSyntheticStream + 1),
            samples(prototypes, o.test_size, o.noise, o.seed, kSyntheticStream + 2)};
}

} // namespace rlda::core::data
