// The reference tables as the figure suites use them: a table with the evaluation `rlda evaluate`
// would report for a policy whose greedy sequence is `greedy`.
#pragma once

#include "widgets/figures/rank_chart.h"

#include <QString>

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

} // namespace rlda::test
