// Two experiments' settings side by side: only the keys that differ, each named once by the schema.
#pragma once

#include "core/config/experiment.h"
#include "core/config/schema.h"

#include <string>
#include <vector>

namespace rlda::core::config {

struct KeyDifference {
    std::string key; // the schema's name: "job.lr"
    std::string a;   // its value in `a`, in TOML syntax on one line (toml_value)
    std::string b;
    bool operator==(const KeyDifference&) const = default;
};

// Every key of `schema` whose value differs between `a` and `b`, in declaration order (top-level
// keys first, then section by section). Equal configs give none; `source` and `warnings` are not
// keys and are never compared.
std::vector<KeyDifference> diff_configs(const ExperimentConfig& a, const ExperimentConfig& b,
                                        const Schema& schema = experiment_schema());

} // namespace rlda::core::config
