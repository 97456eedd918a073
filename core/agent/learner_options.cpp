// The learner's presets by name: the one list --learner and the Learning page offer.
#include "core/agent/learner_options.h"

#include <utility>

namespace rlda::core::agent {
namespace {

const std::vector<std::pair<std::string, LearnerOptions>>& presets()
{
    static const std::vector<std::pair<std::string, LearnerOptions>> t{
        {"original", LearnerOptions::original()}, {"robust", LearnerOptions::robust()}};
    return t;
}

} // namespace

LearnerOptions LearnerOptions::robust()
{
    LearnerOptions o;
    // docs/agent.md, "A learner that does not depend on luck": normalised advantages and several
    // episodes per update each made ConvNet3 middle settle on a runner-up more often; they stay options.
    o.baseline = 0.99;
    o.entropy_bonus = 0.01;
    return o;
}

std::optional<LearnerOptions> learner_preset(const std::string& name)
{
    for (const auto& [n, o] : presets())
        if (n == name)
            return o;
    return std::nullopt;
}

const std::vector<std::string>& learner_preset_names()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& [n, o] : presets())
            out.push_back(n);
        return out;
    }();
    return names;
}

} // namespace rlda::core::agent
