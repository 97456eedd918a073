// --learner and the options it presets.
#include "app/cli/learner_flags.h"

#include "app/cli/numbers.h"
#include "core/table/judge.h"
#include "core/util/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rlda::app {
namespace {

std::vector<std::string> reward_names()
{
    std::vector<std::string> out;
    for (const auto& [draw, name] : core::sim::reward_draw_names())
        out.push_back(name);
    return out;
}

} // namespace

core::agent::LearnerOptions LearnerFlags::options() const
{
    const auto base = core::agent::learner_preset(preset);
    if (!base) // CLI11's check has already refused it; kept for callers that fill the struct in code
        throw core::Error(fmt::format("--learner: \"{}\" is not one of {}", preset,
                                      fmt::join(core::agent::learner_preset_names(), ", ")));
    core::agent::LearnerOptions o = *base;
    if (baseline)
        o.baseline = *baseline;
    if (normalise)
        o.normalise = true;
    if (entropy_bonus)
        o.entropy_bonus = *entropy_bonus;
    if (episodes_per_update)
        o.episodes_per_update = *episodes_per_update;
    if (o.normalise && o.baseline <= 0.0)
        throw core::Error("--normalise: needs a reward baseline (--baseline DECAY, e.g. 0.99)");
    return o;
}

core::sim::RewardDraw LearnerFlags::reward_draw() const
{
    for (const auto& [draw, name] : core::sim::reward_draw_names())
        if (name == reward)
            return draw;
    throw core::Error(fmt::format("--reward {}: not a reward ({})", reward, fmt::join(reward_names(), ", ")));
}

void add_learner_flags(CLI::App* cmd, LearnerFlags& f)
{
    cmd->add_option(
           "--reward", f.reward,
           "A replicated table's reward: replicate, the accuracy at one of its seeds drawn per episode "
           "(seeded by the run's seed; the expected reward is the mean); mean, the mean over its seeds; or "
           "centred, the drawn seed's accuracy less the offset all of that seed's sequences share")
        ->capture_default_str()
        ->check(CLI::IsMember(reward_names()));
    cmd->add_option("--learner", f.preset,
                    "How rewards become updates: original (the paper's REINFORCE) or robust (baseline 0.99 "
                    "and entropy bonus 0.01; docs/agent.md)")
        ->capture_default_str()
        ->check(CLI::IsMember(core::agent::learner_preset_names()));
    cmd->add_option("--baseline", f.baseline,
                    "Learn from reward - moving average with this decay (e.g. 0.99); 0 = none; overrides --learner")
        ->check(real_number({0.0, true}, {1.0, false}));
    cmd->add_flag("--normalise", f.normalise, "Divide reward - baseline by its moving RMS; overrides --learner");
    cmd->add_option("--entropy-bonus", f.entropy_bonus,
                    "Weight of the decisions' mean entropy in what is maximised; overrides --learner")
        ->check(real_number({0.0, true}, {core::config::kMaxSquarable, true}));
    cmd->add_option("--episodes-per-update", f.episodes_per_update,
                    "Episodes averaged into one Adam step; overrides --learner")
        ->check(whole_number(1, kMaxEpisodes));
}

} // namespace rlda::app
