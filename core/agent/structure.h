// The structural encoding of an architecture: each leaf layer as numbers (its type, sizes, kernel,
// where it sits), and the original block it belongs to, so that a policy can score "this block"
// instead of "action index i" and serve models it never saw, of any width and any block count.
#pragma once

#include "core/model/spec.h"

#include <cstdint>
#include <vector>

namespace rlda::core::agent {

// The columns of one layer's row, in order. Types are one-hot; sizes are log2-scaled so that a
// model twice as wide moves each size by the same small step instead of doubling it.
enum LayerFeature : std::int64_t {
    kIsConv2d,
    kIsBatchNorm2d,
    kIsActivation,     // ReLU, Tanh, Sigmoid
    kIsPool,           // AvgPool2d, AdaptiveAvgPool2d
    kIsLinear,
    kLogIn,            // log2(1 + input channels or features) / 10
    kLogOut,           // log2(1 + output channels or features) / 10
    kKernel,           // kernel size / 5 (convolutions and pools; 0 otherwise)
    kStride,           // stride / 2
    kPadding,          // padding / 2
    kLogSpatial,       // log2(1 + the input's height) / 5; 0 for flat inputs
    kAdded,            // 1 for a layer of a block added by deepening
    kPosition,         // the layer's index / (layers - 1): 0 first, 1 last
    kInOriginalBlock,  // 1 for a layer of an original block or of a block added to it
    kLayerFeatures     // the row's width
};

struct ArchitectureFeatures {
    std::int64_t layers = 0;         // L: the model's leaf layers (summary.leaf_layers, no Flatten)
    std::vector<float> rows;         // [L, kLayerFeatures], row-major
    std::vector<std::int64_t> block; // [L]: the original block (its action index) of each layer, a
                                     // block added by deepening counting as the one it deepens; -1
                                     // for a plain layer between blocks
    int blocks = 0;                  // original blocks: actions = blocks + 1, Do Nothing last
};

// Throws ModelError naming the unit when a layer string is not one this version knows or the
// shapes do not fit (as layer_shapes does).
ArchitectureFeatures structural_features(const model::ModelSummary& summary);

} // namespace rlda::core::agent
