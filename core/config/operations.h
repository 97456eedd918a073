// The action space an experiment gives its model: [trainer] operations and widen_factor over the
// model's original blocks. The one place a config becomes a model::ActionSpace.
#pragma once

#include "core/config/experiment.h"
#include "core/model/spec.h"

namespace rlda::core::config {

// ModelError for an operation that is not known or listed twice (validate() reports those by key first).
inline model::ActionSpace trainer_actions(const TrainerConfig& t, const model::ModelSpec& spec)
{
    return model::action_space(spec, model::parse_operations(t.operations), t.widen_factor);
}

} // namespace rlda::core::config
