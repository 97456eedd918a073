// How REINFORCE turns an episode's reward into an update, and its named presets (--learner). No
// LibTorch here: run settings and the workbench's value types carry it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::agent {

// How REINFORCE turns an episode's reward into an update. original() is the paper's algorithm;
// robust() combines what docs/agent.md measured to settle on the best sequence for almost every seed.
struct LearnerOptions {
    // > 0: learn from r - b, b an exponential moving average of past rewards with this decay (e.g.
    // 0.99). Same expected gradient, less variance when close sequences earn nearly the same reward.
    double baseline = 0.0;
    // With a baseline: divide r - b by a moving root mean square of r - b (same decay), so that the
    // step does not depend on how large rewards are, nor shrink as they get close.
    bool normalise = false;
    // Adds entropy_bonus x the mean entropy of the episode's decisions to what is maximised, which
    // keeps the policy from settling on a sequence before it has tried the others.
    double entropy_bonus = 0.0;
    // Episodes whose gradients are averaged into one Adam step.
    std::int64_t episodes_per_update = 1;

    static LearnerOptions original() { return {}; }
    static LearnerOptions robust();
    bool operator==(const LearnerOptions&) const = default;
};
// "original", "robust": the presets by name (--learner); nullopt for another name.
std::optional<LearnerOptions> learner_preset(const std::string& name);
const std::vector<std::string>& learner_preset_names();

} // namespace rlda::core::agent
