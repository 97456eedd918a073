// Subsets, normalisation and batches of in-memory datasets.
#include "core/data/dataset.h"

#include "core/data/random.h"
#include "core/util/error.h"
#include "core/util/memory.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace rlda::core::data {
namespace {

struct ChannelStats {
    std::vector<double> mean;
    std::vector<double> stddev;
};

// Mean and population std of pixels/255 per channel, from a 256-bin histogram: exact, and
// without the float copy of the whole training set that a tensor reduction in double would need.
ChannelStats pixel_stats(const torch::Tensor& pixels)
{
    const auto p = pixels.contiguous();
    const std::int64_t n = p.size(0), c = p.size(1), plane = p.size(2) * p.size(3);
    std::vector<std::array<std::int64_t, 256>> hist(static_cast<std::size_t>(c));
    for (auto& h : hist)
        h.fill(0);
    const std::uint8_t* data = p.data_ptr<std::uint8_t>();
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t ch = 0; ch < c; ++ch) {
            auto& h = hist[static_cast<std::size_t>(ch)];
            const std::uint8_t* q = data + (i * c + ch) * plane;
            for (std::int64_t k = 0; k < plane; ++k)
                ++h[q[k]];
        }
    ChannelStats s;
    const auto total = static_cast<double>(n * plane);
    for (const auto& h : hist) {
        double sum = 0;
        for (int v = 0; v < 256; ++v)
            sum += static_cast<double>(h[v]) * (v / 255.0);
        const double mean = total > 0 ? sum / total : 0.0;
        double sq = 0;
        for (int v = 0; v < 256; ++v)
            sq += static_cast<double>(h[v]) * (v / 255.0 - mean) * (v / 255.0 - mean);
        const double sd = total > 0 ? std::sqrt(sq / total) : 0.0;
        s.mean.push_back(mean);
        // A constant channel carries no information; dividing by 0 would fill it with NaN.
        s.stddev.push_back(sd > 0 ? sd : 1.0);
    }
    return s;
}

torch::Tensor to_float(const torch::Tensor& pixels, const std::vector<double>& mean,
                       const std::vector<double>& stddev, Normalization normalization)
{
    // The same operations, in the same order and precision, as torchvision's ToTensor and
    // Normalize, so that inputs match the original system's bit for bit.
    auto x = pixels.to(torch::kFloat).div_(255);
    if (normalization == Normalization::None)
        return x;
    const auto c = static_cast<std::int64_t>(mean.size());
    auto as_tensor = [&](const std::vector<double>& v) {
        return torch::tensor(v, torch::kDouble).to(torch::kFloat).view({1, c, 1, 1});
    };
    return x.sub_(as_tensor(mean)).div_(as_tensor(stddev));
}

void check_raw(const RawImages& raw, const std::string& name, const char* part, std::int64_t classes)
{
    if (!raw.pixels.defined() || raw.pixels.scalar_type() != torch::kByte || raw.pixels.dim() != 4)
        throw DataError(fmt::format("{}: {} pixels must be a uint8 tensor [N, C, H, W]", name, part));
    if (!raw.labels.defined() || raw.labels.scalar_type() != torch::kLong || raw.labels.dim() != 1)
        throw DataError(fmt::format("{}: {} labels must be an int64 tensor [N]", name, part));
    if (raw.labels.size(0) != raw.pixels.size(0))
        throw DataError(fmt::format("{}: {} set has {} labels for {} images", name, part, raw.labels.size(0),
                                    raw.pixels.size(0)));
    if (raw.labels.numel() > 0) {
        const auto lo = raw.labels.min().item<std::int64_t>();
        const auto hi = raw.labels.max().item<std::int64_t>();
        if (lo < 0 || hi >= classes)
            throw DataError(
                fmt::format("{}: {} label {} outside 0..{}", name, part, lo < 0 ? lo : hi, classes - 1));
    }
}

RawImages select(RawImages raw, std::int64_t count, const LoadOptions& o, std::uint64_t stream,
                 const std::string& name, const char* part, const char* option)
{
    const std::int64_t available = raw.pixels.size(0);
    if (count < 0 || count > available)
        throw DataError(fmt::format("{}: {} = {}, but the {} set has {} samples (0 means all)", name, option,
                                    count, part, available));
    // All samples, drawn at random and sorted, are the samples in order: no copy needed.
    if (count == 0 || count == available)
        return raw;
    const auto idx = subset_indices(available, count, o.random_subset, o.subset_seed, stream);
    return {raw.pixels.index_select(0, idx), raw.labels.index_select(0, idx)};
}

} // namespace

model::Shape Dataset::shape() const
{
    if (!images.defined())
        return {};
    const auto s = images.sizes();
    return {s.begin() + 1, s.end()};
}

std::int64_t Dataset::size() const
{
    return images.defined() ? images.size(0) : 0;
}

Dataset Dataset::to(torch::Device device) const
{
    Dataset d = *this;
    d.images = images.to(device);
    d.labels = labels.to(device);
    return d;
}

torch::Tensor subset_indices(std::int64_t available, std::int64_t count, bool random, std::uint64_t seed,
                             std::uint64_t stream)
{
    if (available < 0 || count < 0 || count > available)
        throw DataError(fmt::format("subset_indices: cannot take {} of {} samples", count, available));
    if (count == 0)
        count = available;
    if (!random)
        return torch::arange(count, torch::kLong);
    auto gen = make_generator(seed, stream);
    const auto perm = torch::randperm(available, gen, torch::kLong);
    return std::get<0>(perm.slice(0, 0, count).sort());
}

DatasetSplit make_split(RawImages train, RawImages test, std::int64_t classes, const std::string& name,
                        const LoadOptions& options)
{
    if (classes < 1)
        throw DataError(fmt::format("{}: {} classes", name, classes));
    check_raw(train, name, "training", classes);
    check_raw(test, name, "test", classes);
    if (train.pixels.sizes().slice(1) != test.pixels.sizes().slice(1))
        throw DataError(fmt::format("{}: training images are {}x{}x{} but test images {}x{}x{}", name,
                                    train.pixels.size(1), train.pixels.size(2), train.pixels.size(3),
                                    test.pixels.size(1), test.pixels.size(2), test.pixels.size(3)));

    // The training samples the subset leaves out, when they are to be tested on too.
    RawImages unused;
    if (const std::int64_t available = train.pixels.size(0), count = options.train_subset;
        options.test_unused_train && count > 0 && count < available) {
        const auto kept =
            subset_indices(available, count, options.random_subset, options.subset_seed, kSubsetStream);
        auto left = torch::ones({available}, torch::kBool);
        left.index_fill_(0, kept, false);
        const auto rest = left.nonzero().squeeze(1);
        unused = {train.pixels.index_select(0, rest), train.labels.index_select(0, rest)};
    }
    train = select(std::move(train), options.train_subset, options, kSubsetStream, name, "training",
                   "train_subset");
    test =
        select(std::move(test), options.test_subset, options, kSubsetStream + 1, name, "test", "test_subset");
    if (unused.pixels.defined())
        test = {torch::cat({test.pixels, unused.pixels}), torch::cat({test.labels, unused.labels})};

    // The float32 copies made below, checked before they are allocated: the pixels were read from
    // files that fit, but the normalised images are four times their size.
    const std::int64_t kept = train.pixels.size(0) + test.pixels.size(0);
    try {
        check_fits(fmt::format("{}: {} training and {} test samples of {}x{}x{} as float32", name,
                               train.pixels.size(0), test.pixels.size(0), train.pixels.size(1),
                               train.pixels.size(2), train.pixels.size(3)),
                   array_bytes({kept, train.pixels.size(1), train.pixels.size(2), train.pixels.size(3)},
                               sizeof(float)));
    } catch (const Error& e) {
        throw DataError(e.what());
    }

    const auto channels = static_cast<std::size_t>(train.pixels.size(1));
    ChannelStats stats;
    switch (options.normalization) {
    case Normalization::Half:
        stats = {std::vector<double>(channels, 0.5), std::vector<double>(channels, 0.5)};
        break;
    case Normalization::PerDataset:
        stats = pixel_stats(train.pixels);
        break;
    case Normalization::None:
        stats = {std::vector<double>(channels, 0.0), std::vector<double>(channels, 1.0)};
        break;
    }

    auto finish = [&](const RawImages& raw) {
        Dataset d;
        d.images = to_float(raw.pixels, stats.mean, stats.stddev, options.normalization);
        d.labels = raw.labels.contiguous();
        d.classes = classes;
        d.name = name;
        d.mean = stats.mean;
        d.stddev = stats.stddev;
        return d;
    };
    return {finish(train), finish(test)};
}

Batch take(const Dataset& data, const torch::Tensor& idx)
{
    const auto i = idx.to(data.images.device(), torch::kLong);
    return {data.images.index_select(0, i), data.labels.index_select(0, i)};
}

} // namespace rlda::core::data
