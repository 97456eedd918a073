// Models defined by users in TOML: a list of blocks, layers and nested sequences.
#pragma once

#include "core/model/spec.h"

#include <string>

namespace rlda::core::model {

// Reads a model file (format: config/models/README.md). Channel and feature counts flowing into a
// layer are inferred from `input`; `out_features = "classes"` takes `classes`. Throws ConfigError
// "file:line:col: key: reason".
ModelSpec load_toml_model(const std::string& path, const Shape& input = kCifar10Input,
                          std::int64_t classes = kCifar10Classes);

// Same, from text; `source` names it in messages.
ModelSpec parse_toml_model(const std::string& text, const std::string& source,
                           const Shape& input = kCifar10Input, std::int64_t classes = kCifar10Classes);

} // namespace rlda::core::model
