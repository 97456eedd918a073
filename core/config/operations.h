// The action space an experiment gives its model: [trainer] operations and widen_factor over the
// model's original blocks. How a config becomes a model::ActionSpace, for the trainer, the table
// builders, the validator and the editor. A table's actions are read from its metadata instead
// (sim::table_actions, core/table/table_meta.h); both come down to model::action_space's rule
// (core/model/spec.h), which code that knows only a spec calls itself, deepen-only by default.
#pragma once

#include "core/config/experiment.h"
#include "core/model/spec.h"
#include "core/util/error.h"

#include <string>

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

// Whether the model can take every action the trainer allows it, checked where a run or a table
// build loads it for training (train::job_model, before anything trains or a folder is written; not
// where a table's shape is read for its status): ConfigError naming the file and job.model, and the first
// action the model cannot take, otherwise. A run that makes no decision (max_decisions = 0) takes
// no action and is not checked.
inline void check_model_actions(const ExperimentConfig& c, const model::ModelSpec& spec)
{
    if (c.trainer.max_decisions <= 0)
        return;
    try {
        model::check_actions(spec, trainer_actions(c.trainer, spec));
    } catch (const ModelError& e) {
        throw ConfigError((c.source.empty() ? std::string() : c.source + ": ") + "job.model: " + e.what());
    }
}

} // namespace rlda::core::config
