// The state-aware policy's view of the training state ([policy] encoder = "state"): each block's
// decision features and the run's globals as numbers of the same scale whatever the model's size,
// the dataset or the budget, so that one policy serves them all.
#pragma once

#include "core/agent/decision_features.h"

#include <cstdint>
#include <vector>

namespace rlda::core::agent {

// The columns of one block's row, in order. Quantities that grow with a model's size enter
// relative to the other blocks of the same decision: as log-ratios to their geometric mean
// (0 for a block like the others) and as a fraction of the largest (1 for the largest). That makes
// "the block with the largest gradient" the same pattern on a model of 2 blocks or of 8.
enum BlockStateFeature : std::int64_t {
    kRelLogWeightRms,  // log(weight_norm / sqrt(parameters)) - its mean over blocks, / 5, in [-1, 1]
    kOfMaxWeightRms,   // weight_norm / sqrt(parameters) / its largest over blocks
    kRelLogGradRms,    // log(sqrt(grad_sq_mean)) - its mean, / 5, in [-1, 1]
    kOfMaxGradRms,     // sqrt(grad_sq_mean) / its largest
    kRelLogActVar,     // log(activation_var) - its mean, / 5, in [-1, 1]
    kOfMaxActVar,      // activation_var / its largest
    kRelLogLossDrop,   // log(loss_drop) - its mean, / 5, in [-1, 1]
    kOfMaxLossDrop,    // loss_drop / its largest
    kActMeanOverSd,    // activation_mean / sqrt(activation_var), / 5, in [-1, 1]
    kRelLogParameters, // log(parameters) - its mean, / 5, in [-1, 1]
    kBlockStateFeatures
};

// The run's globals, appended to the time encoding.
enum GlobalStateFeature : std::int64_t {
    kTrainLoss,          // log(1 + train_loss), in [0, 2]
    kRelLossSlope,       // train_loss_slope / train_loss: the fraction lost per epoch, in [-1, 1]
    kTestAccuracy,       // a fraction
    kTestAccuracyChange, // test_accuracy_change x 10, in [-1, 1]
    kLogEpoch,           // log(1 + epochs completed) / 4, in [0, 1]
    kGlobalStateFeatures
};

struct StateEncoding {
    std::vector<float> blocks; // [blocks, kBlockStateFeatures], row-major, in action order
    std::vector<float> globals; // [kGlobalStateFeatures]
};

// Every value finite: a zero or missing quantity (a block without parameters, a gradient of 0)
// counts as the smallest positive value seen, or as 1 when all are 0. Error when `blocks` is not
// the number of blocks the features hold.
StateEncoding encode_state(const DecisionFeatures& features, int blocks);

} // namespace rlda::core::agent
