// Policies judged on tables for the Policy page: each table's model and scenario (from its
// metadata), and a saved policy's greedy sequence on each table. Each reads files (and runs the
// engine): call them from a job (widgets/job_tracker.h), not on the GUI thread.
#pragma once

#include "core/model/spec.h"
#include "core/table/results.h"
#include "core/transfer/lineup.h"
#include "widgets/figures/rank_chart.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace rlda::app {

// What a table says about itself (core/table/table_meta.h: table.json, or the paper's index), or the
// fallbacks for a table without metadata (`described` false).
struct TableIdentity {
    QString model;
    QString scenario; // the table's scenario, else the file's base name
    core::model::Shape input;
    qint64 classes = 0;
    bool described = false;
};
TableIdentity identifyTable(const QString& tablePath, const QString& fallbackModel,
                            const core::model::Shape& fallbackInput = core::model::kCifar10Input,
                            qint64 fallbackClasses = core::model::kCifar10Classes);

// A ranked table from an evaluation already made (the end of a learning run). Throws core::Error.
widgets::RankedTable rankedTable(const QString& tablePath, const QString& fallbackModel, const QString& agent,
                                 const core::sim::Evaluation& evaluation);

struct PolicyEvaluation {
    std::vector<widgets::RankedTable> ranked; // one per table, in the tables' order
    QString warning; // one line, e.g. that the policy file is of the older, unverified format
};

// Loads `policy` once and evaluates it on every table (a policy trained on one model's table may be
// judged on another's). Each table's model comes from its metadata; the fallbacks serve tables
// without. Throws core::Error naming the file at fault.
PolicyEvaluation evaluatePolicy(const QString& policy, const QStringList& tables, const QString& fallbackModel,
                                const core::model::Shape& input, qint64 classes);

// Every agent judged on one table (core/transfer/lineup.h), with `policy` among them when it is not
// empty (loaded once, as evaluatePolicy does). `note`: what the table or the policy file warn of
// (no metadata, a table that ranks nothing, an unverified policy file), one line each. Throws
// core::Error naming the file at fault.
struct AgentLineup {
    core::run::Lineup lineup;
    QString note;
};
AgentLineup judgeAgentsOn(const QString& table, const QString& policy, const QString& fallbackModel,
                          const core::model::Shape& input, qint64 classes);

} // namespace rlda::app
