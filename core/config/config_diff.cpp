// diff_configs: each key's value written as the writer writes it, so "equal" is the file's equality.
#include "core/config/config_diff.h"

namespace rlda::core::config {

std::vector<KeyDifference> diff_configs(const ExperimentConfig& a, const ExperimentConfig& b, const Schema& schema)
{
    std::vector<KeyDifference> out;
    for (const Key& key : schema.keys) {
        std::string va = toml_value(key, a);
        std::string vb = toml_value(key, b);
        if (va != vb)
            out.push_back({key.name, std::move(va), std::move(vb)});
    }
    return out;
}

} // namespace rlda::core::config
