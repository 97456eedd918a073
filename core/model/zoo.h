// The model zoo: the original system's starting models, for any input shape and class count.
#pragma once

#include "core/model/spec.h"

#include <string>
#include <vector>

namespace rlda::core::model {

// Known names in a stable order: ConvNet, ConvNet2, ConvNet3, FeedForwardNet, FeedForwardNet2,
// FeedForwardNet3, LargeConvNet.
const std::vector<std::string>& zoo_names();
bool is_zoo_name(const std::string& name);

// A finalized spec; throws ModelError for an unknown name (listing the known ones) or an input
// shape the model cannot take.
ModelSpec zoo_model(const std::string& name, const Shape& input = {3, 32, 32},
                    std::int64_t classes = 10);

// A zoo name or the path of a TOML model file (see config/models/).
ModelSpec load_model(const std::string& name_or_path, const Shape& input = {3, 32, 32},
                     std::int64_t classes = 10);

} // namespace rlda::core::model
