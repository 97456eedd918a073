// The model zoo: the original system's starting models, for any input shape and class count.
#pragma once

#include "core/model/spec.h"

#include <string>
#include <vector>

namespace rlda::core::model {

// Known names in a stable order: ConvNet, ConvNet2, ConvNet3, FeedForwardNet, FeedForwardNet2,
// FeedForwardNet3, LargeConvNet, SmallResNet.
const std::vector<std::string>& zoo_names();
// The original system's models, the first seven: the "models" vocabulary is built from these, so
// that it, and every policy learned with it, stays the original's.
const std::vector<std::string>& original_zoo_names();
bool is_zoo_name(const std::string& name);

// A finalized spec; throws ModelError for an unknown name (listing the known ones) or an input
// shape the model cannot take. `head` Logits drops the ReLU of the last block, which becomes
// [Linear]: the same units, uids and actions as with Relu, the same parameters, one leaf layer less.
ModelSpec zoo_model(const std::string& name, const Shape& input = kCifar10Input,
                    std::int64_t classes = kCifar10Classes, OutputHead head = OutputHead::Relu);

// A zoo name or the path of a TOML model file (see config/models/). A model file writes its own
// last block (leave its ReLU out for plain logits), so `head` applies to zoo models only: Logits
// with a file is a ModelError, Relu (the default) takes the file as written.
ModelSpec load_model(const std::string& name_or_path, const Shape& input = kCifar10Input,
                     std::int64_t classes = kCifar10Classes, OutputHead head = OutputHead::Relu);

// Whether load_model() reads `name_or_path` as a TOML model file rather than a zoo name.
bool is_model_file(const std::string& name_or_path);

} // namespace rlda::core::model
