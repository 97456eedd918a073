// The reference tables as the figure suites use them: a table with the evaluation `rlda evaluate`
// would report for a policy whose greedy sequence is `greedy`.
#pragma once

#include "core/table/judge.h"
#include "widgets/figures/rank_chart.h"

#include <QString>

#include <algorithm>
#include <vector>

namespace rlda::test {

inline core::sim::Evaluation evaluationFor(const core::sim::SimulationTable& t, const std::vector<int>& greedy)
{
    core::sim::Evaluation e;
    e.greedy = greedy;
    e.rank = t.rank(greedy);
    e.sequences = static_cast<int>(t.sequences());
    e.accuracy = t.accuracy(greedy);
    e.optimal = t.optimal().accuracy;
    e.optimal_sequence = t.optimal().actions;
    e.regret = e.optimal - e.accuracy;
    e.no_adaptation = t.accuracy(t.no_adaptation_sequence());
    e.random_mean = t.random_mean(10, 0);
    e.random_expected = t.expected_random();
    return e;
}

// data/paper/tables/<model>_<scenario>.csv, lower-cased.
inline widgets::RankedTable referenceTable(const QString& model, const QString& scenario,
                                           const std::vector<int>& greedy, const QString& agent = {})
{
    const auto t = core::sim::SimulationTable::load(
        QStringLiteral(RLDA_PAPER_DIR "/tables/%1_%2.csv").arg(model.toLower(), scenario).toStdString());
    return widgets::makeRankedTable(model, scenario, agent, t, evaluationFor(t, greedy));
}

// The same reference table as if built at three seeds (42, 43, 44): each seed moves every accuracy
// by -0.01, 0 or +0.01 in a fixed pattern, and the ranked table carries the seed statistics
// `rlda evaluate` adds for a replicated table (core::sim::add_seed_statistics).
inline widgets::RankedTable replicatedReferenceTable(const QString& model, const QString& scenario,
                                                     const std::vector<int>& greedy)
{
    const auto base = core::sim::SimulationTable::load(
        QStringLiteral(RLDA_PAPER_DIR "/tables/%1_%2.csv").arg(model.toLower(), scenario).toStdString());
    std::vector<core::sim::SimulationTable> seeds;
    for (int s = 0; s < 3; ++s) {
        core::sim::SimulationTable t(base.decisions(), base.num_actions());
        int i = 0;
        for (auto row : base.rows()) {
            row.accuracy = std::clamp(row.accuracy + 0.01 * double((i++ * 7 + s) % 3 - 1), 0.0, 1.0);
            t.add(row);
        }
        seeds.push_back(std::move(t));
    }
    const auto t = core::sim::merge_seeds({42, 43, 44}, {&seeds[0], &seeds[1], &seeds[2]});
    auto e = evaluationFor(t, greedy);
    core::sim::add_seed_statistics(e, t);
    return widgets::makeRankedTable(model, scenario, {}, t, e);
}

} // namespace rlda::test
