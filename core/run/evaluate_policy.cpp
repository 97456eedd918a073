// A saved policy's greedy sequence judged on tables.
#include "core/run/evaluate_policy.h"

#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/judge.h"

namespace rlda::core::run {

std::vector<sim::Evaluation> evaluate_policy(const std::filesystem::path& policy,
                                             const std::vector<const sim::OpenedTable*>& tables,
                                             std::uint64_t seed,
                                             const std::function<void(const std::string&)>& warn)
{
    const torch::NoGradGuard no_grad; // grad mode is per thread: a worker's job sets its own
    auto learner = agent::PolicyLearner::load(policy.string(), warn);
    std::vector<sim::Evaluation> out;
    out.reserve(tables.size());
    for (const sim::OpenedTable* t : tables) {
        auto e = sim::evaluate(learner, sim::learn_task(*t), seed);
        sim::add_seed_statistics(e, t->table, seed);
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace rlda::core::run
