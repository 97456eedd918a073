// Policies judged on tables for the Policy page: each table's model and scenario (from an index.csv
// beside it when there is one), and a saved policy's greedy sequence on each table.
#pragma once

#include "core/model/spec.h"
#include "core/sim/results.h"
#include "widgets/figures/rank_chart.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace rlda::app {

struct TableIdentity {
    QString model;    // from index.csv, else `fallbackModel`
    QString scenario; // from index.csv, else the file's base name
};
TableIdentity identifyTable(const QString& tablePath, const QString& fallbackModel);

// A ranked table from an evaluation already made (the end of a learning run). Throws core::Error.
widgets::RankedTable rankedTable(const QString& tablePath, const QString& fallbackModel, const QString& agent,
                                 const core::sim::Evaluation& evaluation);

// Loads `policy` once and evaluates it on every table (a policy trained on one model's table may be
// judged on another's). Throws core::Error naming the file at fault.
std::vector<widgets::RankedTable> evaluatePolicy(const QString& policy, const QStringList& tables,
                                                 const QString& fallbackModel, const core::model::Shape& input,
                                                 qint64 classes);

} // namespace rlda::app
