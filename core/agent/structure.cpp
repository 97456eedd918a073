// Each leaf layer of a summary as a row of numbers, and the original block it belongs to.
#include "core/agent/structure.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <cmath>
#include <variant>

namespace rlda::core::agent {
namespace {

float log_size(std::int64_t n, double scale) { return static_cast<float>(std::log2(1.0 + static_cast<double>(n)) / scale); }

template <class... F> struct overloaded : F... {
    using F::operator()...;
};

// The type, sizes and window of one layer seen with `in`, its input's shape.
void describe(const model::Layer& layer, const model::Shape& in, float* row)
{
    const std::int64_t channels = in.empty() ? 0 : in.front();
    row[kLogIn] = row[kLogOut] = log_size(channels, 10.0);
    row[kLogSpatial] = in.size() == 3 ? log_size(in[1], 5.0) : 0.0f;
    const auto window = [&](std::int64_t kernel, std::int64_t stride, std::int64_t padding) {
        row[kKernel] = static_cast<float>(kernel) / 5.0f;
        row[kStride] = static_cast<float>(stride) / 2.0f;
        row[kPadding] = static_cast<float>(padding) / 2.0f;
    };
    std::visit(overloaded{
                   [&](const model::Conv2d& c) {
                       row[kIsConv2d] = 1.0f;
                       row[kLogIn] = log_size(c.in_channels, 10.0);
                       row[kLogOut] = log_size(c.out_channels, 10.0);
                       window(c.kernel_size, c.stride, c.padding);
                   },
                   [&](const model::Linear& l) {
                       row[kIsLinear] = 1.0f;
                       row[kLogIn] = log_size(l.in_features, 10.0);
                       row[kLogOut] = log_size(l.out_features, 10.0);
                   },
                   [&](const model::BatchNorm2d&) { row[kIsBatchNorm2d] = 1.0f; },
                   [&](const model::AvgPool2d& p) {
                       row[kIsPool] = 1.0f;
                       window(p.kernel_size, p.effective_stride(), p.padding);
                   },
                   [&](const model::AdaptiveAvgPool2d&) { row[kIsPool] = 1.0f; },
                   [&](const model::Flatten&) {},
                   [&](const auto&) { row[kIsActivation] = 1.0f; },
               },
               layer);
}

} // namespace

ArchitectureFeatures structural_features(const model::ModelSummary& summary)
{
    const auto shapes = model::layer_shapes(summary); // checks every string and shape
    ArchitectureFeatures f;
    f.blocks = summary.original_blocks;
    struct Leaf {
        model::Layer layer;
        model::Shape in;
        bool added = false;
        std::int64_t block = -1;
    };
    std::vector<Leaf> leaves;
    model::Shape in = summary.input;
    for (std::size_t u = 0; u < summary.units.size(); ++u) {
        const model::BlockSummary& unit = summary.units[u];
        const std::int64_t block = !unit.is_block ? -1
                                   : unit.original ? unit.original_index
                                                   : model::deepened_block_before(summary.units, u);
        // A residual block's skip path reads the block's input, as its branch does.
        model::Shape skipped = in;
        for (const std::string& text : unit.skip) {
            const auto layer = model::parse_pytorch_string(text); // layer_shapes parsed it
            leaves.push_back({*layer, skipped, !unit.original, block});
            skipped = model::output_shape(*layer, skipped);
        }
        for (std::size_t l = 0; l < unit.layers.size(); ++l) {
            const auto layer = model::parse_pytorch_string(unit.layers[l]); // layer_shapes parsed it
            if (model::is_module(*layer))
                leaves.push_back({*layer, in, !unit.original, block});
            in = shapes[u][l];
        }
    }
    f.layers = static_cast<std::int64_t>(leaves.size());
    f.rows.assign(leaves.size() * kLayerFeatures, 0.0f);
    f.block.reserve(leaves.size());
    for (std::size_t i = 0; i < leaves.size(); ++i) {
        float* row = f.rows.data() + i * kLayerFeatures;
        describe(leaves[i].layer, leaves[i].in, row);
        row[kAdded] = leaves[i].added ? 1.0f : 0.0f;
        row[kPosition] = leaves.size() > 1 ? static_cast<float>(i) / static_cast<float>(leaves.size() - 1) : 0.0f;
        row[kInOriginalBlock] = leaves[i].block >= 0 ? 1.0f : 0.0f;
        f.block.push_back(leaves[i].block);
    }
    if (f.blocks < 1)
        throw ModelError(fmt::format("{}: no original block to deepen, so no policy can choose for it", summary.name));
    return f;
}

} // namespace rlda::core::agent
