// The action space an experiment gives its model: [trainer] operations and widen_factor over the
// model's original blocks. The one place a config becomes a model::ActionSpace.
#pragma once

#include "core/config/experiment.h"
#include "core/model/spec.h"

namespace rlda::core::config {

// ModelError for an operation that is not known or listed twice (validate() reports those by key
// first), or a widening factor not above 1.
inline model::ActionSpace trainer_actions(const TrainerConfig& t, int original_blocks)
{
    return model::ActionSpace(original_blocks, model::parse_operations(t.operations), t.widen_factor);
}

inline model::ActionSpace trainer_actions(const TrainerConfig& t, const model::ModelSpec& spec)
{
    return trainer_actions(t, model::original_block_count(spec));
}

} // namespace rlda::core::config
