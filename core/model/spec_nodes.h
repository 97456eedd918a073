// Internal to spec.cpp and growth.cpp, nothing else: walking a spec's units and counting their
// parameters, shared by the summaries and by Deepen. Not part of core's API.
#pragma once

#include "core/model/layer.h"
#include "core/model/spec.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rlda::core::model::detail {

// Visits layer and block nodes in execution order with their parent sequence and index in it.
void visit_units(Node& seq, const std::function<bool(Node& parent, std::size_t index)>& fn);

// The largest uid in `node` and below it.
int max_uid(const Node& node);

// The parameters of `layers`; ModelError naming the model `name` when the sum does not fit.
std::int64_t layers_parameters(const std::vector<Layer>& layers, const std::string& name);

} // namespace rlda::core::model::detail
