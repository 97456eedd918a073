// Judging sequences and rules on a table; the tasks a policy learns from.
#include "core/table/judge.h"

#include "core/table/reliability.h"
#include "core/table/variance_model.h"
#include "core/util/error.h"
#include "core/util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace rlda::core::sim {
namespace {

// What each seed's own sequence earned at that seed (seed_sequences[i] at the table's seed i).
std::vector<double> accuracies_of(const SimulationTable& table,
                                  const std::vector<std::vector<int>>& seed_sequences)
{
    std::vector<double> by_seed;
    for (std::size_t i = 0; i < seed_sequences.size(); ++i)
        by_seed.push_back(table.at(seed_sequences[i]).replicates.at(i));
    return by_seed;
}

// The most frequent sequence; among equals, the one of the earliest seed.
const std::vector<int>& most_frequent(const std::vector<std::vector<int>>& sequences)
{
    std::map<std::vector<int>, int> count;
    for (const auto& s : sequences)
        ++count[s];
    const std::vector<int>* best = &sequences.front();
    for (const auto& s : sequences)
        if (count[s] > count[*best])
            best = &s;
    return *best;
}

} // namespace

void add_seed_statistics(Evaluation& e, const SimulationTable& table, std::uint64_t seed)
{
    if (!table.replicated())
        return;
    const auto r = accuracies_by_seed(table);
    // The calibrated statistics (core/table/variance_model.h): the rank intervals and the confidence
    // set; P(best) over the bootstrap of the seeds is descriptive.
    const VarianceModel model = fit_variance_model(r);
    const BestSet set = best_set(r, model);
    const auto b = bootstrap_ranks(r, kResamples, seed);
    const auto row_of = [&](const std::vector<int>& seq) {
        for (std::size_t i = 0; i < table.rows().size(); ++i)
            if (table.rows()[i].actions == seq)
                return i;
        throw Error(fmt::format("{}: no row for {}", table.source(), sequence_string(seq)));
    };
    const auto spread = [&](const std::vector<int>& seq) { // the few sequences reported, not all k
        const std::size_t s = row_of(seq);
        const auto [low, high] = rank_interval(r, model, s);
        return Evaluation::Spread{low, high, b.best_share[s]};
    };
    e.replicates = r.replicates();
    if (!e.seed_sequences.empty()) {
        const auto candidate = accuracies_of(table, e.seed_sequences);
        const auto [low, high] = candidate_rank_interval(r, model, candidate);
        e.greedy_spread = {low, high, bootstrap_candidate(r, candidate, kResamples, seed).best_share};
        e.greedy_among_best = candidate_among_best(r, model, candidate);
    } else {
        e.greedy_spread = spread(e.greedy);
        const auto s = static_cast<std::int64_t>(row_of(e.greedy));
        e.greedy_among_best = std::find(set.members.begin(), set.members.end(), s) != set.members.end();
    }
    e.optimal_spread = spread(e.optimal_sequence);
    e.no_adaptation_spread = spread(table.no_adaptation_sequence());
    e.random_rank = expected_random_rank(b.mean_rank);
    std::vector<double> seed_means; // over the seeds every sequence holds (a race's later seeds hold a few)
    ReplicateAccuracies storage;
    for (const auto& acc : r.held_by_all(storage).accuracy)
        seed_means.push_back(std::accumulate(acc.begin(), acc.end(), 0.0) / static_cast<double>(acc.size()));
    e.random_expected_sd = std::sqrt(variance_of(seed_means, 1));
    e.best_set = static_cast<int>(set.members.size());
    e.best_set_all = set.all;
    e.reliability = rank_reliability(r, model, seed);
}

void check_task(const LearnTask& task)
{
    const SimulationTable& table = *task.table;
    const model::ModelSpec& base = *task.model;
    const int n = model::original_block_count(base);
    if (task.actions.blocks() != n || table.num_actions() != task.actions.size())
        throw Error(
            fmt::format("{}: the table has {} actions per decision, but {} has {} for the operations {} "
                        "({} blocks)",
                        table.source(), table.num_actions(), base.name, task.actions.size(),
                        model::operations_text(task.actions.operations()), n));
    if (!table.complete())
        throw Error(fmt::format("{}: the simulation table is incomplete; finish it with rlda simulate first",
                                table.source()));
}

double table_budget(const SimulationTable& table)
{
    if (table.rows().empty())
        throw Error(fmt::format("{}: the simulation table is empty", table.source()));
    return table.rows().front().total_time;
}

const std::vector<std::pair<RewardDraw, std::string>>& reward_draw_names()
{
    static const std::vector<std::pair<RewardDraw, std::string>> names{
        {RewardDraw::Replicate, "replicate"}, {RewardDraw::Mean, "mean"}, {RewardDraw::Centred, "centred"}};
    return names;
}

const std::string& reward_draw_name(RewardDraw reward)
{
    for (const auto& [r, name] : reward_draw_names())
        if (r == reward)
            return name;
    return reward_draw_names().front().second;
}

std::vector<double> seed_offsets(const SimulationTable& table)
{
    if (!table.replicated() || table.rows().empty())
        return {};
    // Over the seeds that every row holds, which are those episodes draw (episode_replicate).
    const auto& drawn = table.seeds_held_by_every_row();
    std::vector<double> mean(table.seeds().size(), 0.0);
    for (const TableRow& row : table.rows())
        for (const std::size_t s : drawn)
            mean[s] += row.replicates[s];
    double grand = 0.0;
    for (const std::size_t s : drawn) {
        mean[s] /= static_cast<double>(table.rows().size());
        grand += mean[s] / static_cast<double>(drawn.size());
    }
    for (const std::size_t s : drawn)
        mean[s] -= grand;
    return mean;
}

LearnTask learn_task(const OpenedTable& t, RewardDraw reward, std::uint64_t draw_seed)
{
    LearnTask task{&t.table, &t.model, t.actions, reward, draw_seed, &t.features, {}};
    if (reward == RewardDraw::Centred)
        task.seed_offsets = seed_offsets(t.table);
    return task;
}

std::vector<std::uint64_t> feature_seeds(const LearnTask& task)
{
    const SimulationTable& table = *task.table;
    if (task.features == nullptr || task.features->empty())
        throw Error(fmt::format(
            "{} has no decision features (features.csv); build it again with rlda simulate to "
            "record them{}",
            table.source(),
            table.replicated() ? ", with sweep.fused = \"off\" (a fused build records none)" : ""));
    if (table.replicated())
        return table.seeds();
    auto seeds = task.features->seeds();
    if (seeds.size() != 1)
        throw Error(fmt::format("{}: decision features of {} seeds for a table of one seed", table.source(),
                                seeds.size()));
    return seeds;
}

const agent::DecisionFeatures& features_at(const LearnTask& task, const std::vector<int>& prefix,
                                           std::uint64_t seed)
{
    const agent::DecisionFeatures* f = task.features ? task.features->at(prefix, seed) : nullptr;
    if (f == nullptr)
        throw Error(fmt::format("{}: no decision features at the node [{}] under seed {}",
                                task.table->source(), sequence_string(prefix), seed));
    return *f;
}

std::vector<std::uint64_t> walk_seeds(const LearnTask& task, bool reads_state)
{
    return reads_state ? feature_seeds(task) : std::vector<std::uint64_t>{0};
}

std::size_t episode_replicate(const LearnTask& task, std::int64_t episode)
{
    if (!task.table->replicated())
        return 0;
    // splitmix64 of (seed, episode): a uniform, stateless draw of the replicate.
    std::uint64_t z = task.draw_seed + 0x9e3779b97f4a7c15ull * (static_cast<std::uint64_t>(episode) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const std::size_t seeds = task.table->seeds().size();
    if (const auto& held = task.table->seeds_held_by_every_row(); held.size() != seeds) // a race's table
        return held.empty() ? 0 : held[z % held.size()];
    return static_cast<std::size_t>(z % seeds);
}

double episode_accuracy(const LearnTask& task, const TableRow& row, std::int64_t episode)
{
    if (row.replicates.empty() || task.reward == RewardDraw::Mean)
        return row.accuracy;
    const std::size_t r = episode_replicate(task, episode);
    if (task.reward != RewardDraw::Centred)
        return row.replicates.at(r);
    if (task.seed_offsets.size() != row.replicates.size())
        throw Error(fmt::format("{}: a centred reward needs the table's seed offsets (learn_task)",
                                task.table->source()));
    return row.replicates.at(r) - task.seed_offsets[r];
}

FixedSequence best_fixed_sequence(const std::vector<const SimulationTable*>& tables)
{
    if (tables.empty())
        throw Error("best fixed sequence: no tables");
    const SimulationTable& first = *tables.front();
    for (const SimulationTable* t : tables)
        if (t->decisions() != first.decisions() || t->num_actions() != first.num_actions() || !t->complete())
            throw Error(fmt::format("{}: not a complete table of {} decisions over {} actions, as {}",
                                    t->source(), first.decisions(), first.num_actions(), first.source()));
    FixedSequence best;
    best.mean_rank = std::numeric_limits<double>::infinity();
    for (const TableRow& row : first.rows()) {
        double sum = 0.0;
        for (const SimulationTable* t : tables)
            sum += t->rank(row.actions);
        const double mean = sum / static_cast<double>(tables.size());
        if (mean < best.mean_rank)
            best = {row.actions, mean};
    }
    return best;
}

Evaluation evaluate_seed_sequences(const SimulationTable& table,
                                   const std::vector<std::vector<int>>& sequences, std::uint64_t random_seed)
{
    if (sequences.empty())
        throw Error(fmt::format("{}: no sequence to judge", table.source()));
    Evaluation e = evaluate_sequence(table, most_frequent(sequences), random_seed);
    const bool agree = std::all_of(sequences.begin(), sequences.end(),
                                   [&](const std::vector<int>& s) { return s == sequences.front(); });
    if (agree)
        return e;
    // The seeds of a replicated table disagree: the rule earns seed i's accuracy of its own sequence.
    const std::vector<double> by_seed = accuracies_of(table, sequences);
    // The point rank alone: one resample is enough, and the bootstrap comes with the statistics.
    const CandidateRanks point = bootstrap_candidate(accuracies_by_seed(table), by_seed, 1, random_seed);
    e.seed_sequences = sequences;
    e.accuracy = mean_of(by_seed);
    e.rank = point.rank;
    e.regret = e.optimal - e.accuracy;
    return e;
}

Evaluation evaluate_sequence(const SimulationTable& table, const std::vector<int>& sequence,
                             std::uint64_t random_seed)
{
    Evaluation e;
    e.greedy = sequence;
    e.accuracy = table.accuracy(e.greedy);
    e.rank = table.rank(e.greedy);
    e.sequences = static_cast<int>(table.rows().size());
    e.optimal_sequence = table.optimal().actions;
    e.optimal = table.optimal().accuracy;
    e.regret = e.optimal - e.accuracy;
    e.no_adaptation = table.accuracy(table.no_adaptation_sequence());
    e.random_mean = table.random_mean(10, random_seed);
    e.random_expected = table.expected_random();
    return e;
}

std::string sequence_string(const std::vector<int>& actions)
{
    std::string s;
    for (int a : actions)
        s += (s.empty() ? "" : " ") + std::to_string(a);
    return s;
}

} // namespace rlda::core::sim
