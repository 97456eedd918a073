// What the training state says at a decision: per original block and for the whole run. Growth
// heuristics (GradMax, Firefly, AutoGrow) and the state-aware policy read it; tables store it at
// every decision node (core/table/table_features.h); the trainer measures it (core/train/probe.h).
// No LibTorch here: it crosses into the workbench as a value.
#pragma once

#include <cstdint>
#include <vector>

namespace rlda::core::agent {

// One original block, with every block deepening has added to it counted as part of it.
struct BlockFeatures {
    std::int64_t parameters = 0;  // trainable values in the block
    double weight_norm = 0.0;     // L2 norm of those values
    double grad_sq_mean = 0.0;    // mean over the last epoch's steps of the mean squared gradient
                                  // per value: sqrt of it is GradMax's gradient norm per parameter
    double activation_mean = 0.0; // the block's output on the fixed probe batch: mean ...
    double activation_var = 0.0;  // ... and variance over every element
    double loss_drop = 0.0;       // >= 0: the first-order loss drop that growing the block would give
                                  // (Firefly); which estimate, in core/train/probe.h
    bool operator==(const BlockFeatures&) const = default;
};

struct DecisionFeatures {
    std::vector<BlockFeatures> blocks; // one per original block, in action order
    double train_loss = 0.0;          // the last completed epoch's mean training loss
    double train_loss_slope = 0.0;    // its change per epoch over the last epochs (< 0: improving)
    double test_accuracy = 0.0;       // after the last completed epoch, a fraction
    double test_accuracy_change = 0.0; // that epoch's change of it (AutoGrow's "still improving")
    double epoch = 0.0;               // epochs completed
    double time_left = 0.0;           // seconds left in the budget
    double time_budget = 0.0;         // the budget, seconds
    bool operator==(const DecisionFeatures&) const = default;
};

} // namespace rlda::core::agent
