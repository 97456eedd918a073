// Episodes against a table and greedy evaluation; the hot loop of `rlda learn`.
#include "core/sim/learn.h"

#include "core/util/error.h"
#include "core/util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlda::core::sim {
namespace {

void check_fit(const agent::PolicyLearner& learner, const LearnTask& task)
{
    check_task(task);
    if (!learner.serves(task.actions))
        throw Error(fmt::format(
            "{}: the policy chooses among {} actions of the operations {}, the table has {} of {}",
            task.table->source(), learner.actions(), model::operations_text(learner.operations()),
            task.table->num_actions(), model::operations_text(task.actions.operations())));
    if (learner.reads_state())
        (void)feature_seeds(task); // the one-line refusal of a table without features
}

} // namespace

ArchitectureCache::ArchitectureCache(model::ModelSpec base, model::ActionSpace actions,
                                     const agent::PolicyLearner& learner)
    : base_(std::move(base)), actions_(std::move(actions)), learner_(learner)
{
}

const agent::StateEncoding& ArchitectureCache::state(const LearnTask& task, const std::vector<int>& prefix,
                                                     std::uint64_t seed)
{
    auto& of_seed = states_[seed];
    const auto it = of_seed.find(prefix);
    if (it != of_seed.end())
        return it->second;
    return of_seed.emplace(prefix, agent::encode_state(features_at(task, prefix, seed), actions_.blocks()))
        .first->second;
}

const torch::Tensor& ArchitectureCache::layers(const std::vector<int>& prefix)
{
    auto it = cache_.find(prefix);
    if (it != cache_.end())
        return it->second;
    model::ModelSpec spec = base_;
    for (int a : prefix)
        model::apply_action(spec, actions_, a);
    return cache_.emplace(prefix, learner_.input(model::summarize(spec), &unknown_)).first->second;
}

std::int64_t learn(agent::PolicyLearner& learner, const LearnTask& task, std::int64_t episodes,
                   LearnObserver* observer, const std::stop_token& stop)
{
    return learn_tables(learner, {task}, episodes, /*standardise=*/false, observer, stop);
}

std::int64_t learn(agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base,
                   std::int64_t episodes, LearnObserver* observer, const std::stop_token& stop)
{
    return learn(learner, {&table, &base, model::action_space(base)}, episodes, observer, stop);
}

std::int64_t learn_tables(agent::PolicyLearner& learner, const std::vector<LearnTask>& tasks, std::int64_t episodes,
                          bool standardise, LearnObserver* observer, const std::stop_token& stop)
{
    if (tasks.empty())
        throw Error("learn: no table to learn from");
    std::vector<ArchitectureCache> caches;
    std::vector<double> budgets;
    struct Scale {
        double mean = 0.0, spread = 1.0;
    };
    std::vector<Scale> scales;
    std::vector<std::vector<std::uint64_t>> seeds; // each task's feature_seeds, for a state-aware policy
    for (const LearnTask& t : tasks) {
        check_fit(learner, t);
        budgets.push_back(table_budget(*t.table));
        caches.emplace_back(*t.model, t.actions, learner);
        seeds.push_back(learner.reads_state() ? feature_seeds(t) : std::vector<std::uint64_t>{});
        Scale s;
        if (standardise) {
            std::vector<double> rewards;
            for (const TableRow& r : t.table->rows())
                rewards.push_back(agent::reward(r.accuracy));
            s.mean = mean_of(rewards);
            const double sd = std::sqrt(variance_of(rewards, 0));
            s.spread = sd > 0.0 ? sd : 1.0;
        }
        scales.push_back(s);
    }
    std::vector<int> prefix;
    EpisodeRecord rec;
    std::int64_t done = 0;
    for (; done < episodes && !stop.stop_requested(); ++done) {
        const std::size_t task = static_cast<std::size_t>(learner.episode()) % tasks.size();
        const SimulationTable& table = *tasks[task].table;
        ArchitectureCache& architectures = caches[task];
        const double budget = budgets[task];
        const int k = table.decisions();
        // The seed this episode plays: its reward's, and the training state its decisions read.
        const std::size_t replicate = episode_replicate(tasks[task], learner.episode());
        prefix.clear();
        rec.probabilities.clear();
        rec.temperature = learner.temperature();
        rec.lr = learner.lr();
        for (int j = 0; j < k; ++j) {
            const agent::StateEncoding* state =
                seeds[task].empty() ? nullptr : &architectures.state(tasks[task], prefix, seeds[task].at(replicate));
            agent::Choice c = learner.sample(architectures.layers(prefix), table.time_left(prefix), budget,
                                             /*learn=*/true, state);
            prefix.push_back(c.action);
            rec.probabilities.push_back(std::move(c.probabilities));
        }
        rec.accuracy = episode_accuracy(tasks[task], table.at(prefix), learner.episode());
        rec.reward = agent::reward(rec.accuracy);
        rec.objective = learner.finish_episode((rec.reward - scales[task].mean) / scales[task].spread);
        rec.episode = learner.episode();
        rec.actions = prefix;
        if (observer)
            observer->on_episode(rec);
    }
    return done;
}

Evaluation evaluate(agent::PolicyLearner& learner, const SimulationTable& table, const model::ModelSpec& base,
                    std::uint64_t random_seed)
{
    return evaluate(learner, {&table, &base, model::action_space(base)}, random_seed);
}

Evaluation evaluate(agent::PolicyLearner& learner, const LearnTask& task, std::uint64_t random_seed)
{
    check_fit(learner, task);
    const SimulationTable& table = *task.table;
    const double budget = table_budget(table);
    ArchitectureCache architectures(*task.model, task.actions, learner);
    std::vector<std::vector<int>> sequences;
    std::vector<std::vector<std::vector<double>>> probabilities;
    for (const std::uint64_t seed : walk_seeds(task, learner.reads_state())) {
        std::vector<int> greedy;
        std::vector<std::vector<double>> p;
        for (int j = 0; j < table.decisions(); ++j) {
            const agent::StateEncoding* state =
                learner.reads_state() ? &architectures.state(task, greedy, seed) : nullptr;
            agent::Choice c = learner.greedy(architectures.layers(greedy), table.time_left(greedy), budget, state);
            greedy.push_back(c.action);
            p.push_back(std::move(c.probabilities));
        }
        sequences.push_back(std::move(greedy));
        probabilities.push_back(std::move(p));
    }
    Evaluation e = evaluate_seed_sequences(table, sequences, random_seed);
    const auto first = std::find(sequences.begin(), sequences.end(), e.greedy);
    e.probabilities = std::move(probabilities[static_cast<std::size_t>(first - sequences.begin())]);
    return e;
}

} // namespace rlda::core::sim
