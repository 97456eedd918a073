// Whether growing a model keeps its function, measured on the LibTorch network: `rlda model show
// --check`. No LibTorch type here, so that the command line includes none.
#pragma once

#include "core/model/actions.h"
#include "core/model/spec.h"

#include <vector>

namespace rlda::core::model {

struct GrowthCheck {
    ModelSpec grown;           // the spec after the growth, as the network holds it
    double max_abs_diff = 0.0; // the largest |output before - output after| over a seeded batch
};

// Builds `spec`'s network (seed 0), trains it briefly on noise (train_on_noise) so that weights
// and BatchNorm statistics are no longer initial, then deepens each block of `deepen` and applies
// each action of `grow` (widening by `widen_factor`) in place with Net2Net, and compares its
// output with the ungrown copy (max_abs_output_diff, core/net/net.h).
GrowthCheck check_growth(const ModelSpec& spec, const std::vector<int>& deepen,
                         const std::vector<Action>& grow, double widen_factor);

} // namespace rlda::core::model
