// Evaluating a saved policy on tables (LibTorch, kept out of every header moc reads).
#include "app/workbench/evaluations.h"

#include "core/agent/reinforce.h"
#include "core/model/zoo.h"
#include "core/sim/learn.h"
#include "core/sim/table.h"
#include "core/sim/table_meta.h"
#include "core/util/error.h"

#include <QDir>
#include <QFileInfo>

#include <torch/csrc/autograd/grad_mode.h>


namespace rlda::app {

namespace {

// The table with its metadata's model, or the fallbacks when it has none.
core::sim::OpenedTable openTable(const QString& path, const QString& fallbackModel, const core::model::Shape& input,
                                 qint64 classes)
{
    core::sim::TableOverrides fallbacks{fallbackModel.toStdString(), input, classes};
    fallbacks.only_without_metadata = true;
    return core::sim::open_table(path.toStdString(), fallbacks);
}

} // namespace

TableIdentity identifyTable(const QString& tablePath, const QString& fallbackModel,
                            const core::model::Shape& fallbackInput, qint64 fallbackClasses)
{
    const auto file = core::sim::table_file(tablePath.toStdString());
    try {
        if (const auto meta = core::sim::find_table_meta(file))
            return {QString::fromStdString(meta->model), QString::fromStdString(meta->scenario), meta->input,
                    meta->classes, true};
    } catch (const core::Error&) {
        // Broken metadata only costs the names here; opening the table reports it.
    }
    const QFileInfo info(QString::fromStdString(file.string()));
    const QString name = info.fileName() == QStringLiteral("table.csv") ? info.dir().dirName() : info.completeBaseName();
    return {fallbackModel, name, fallbackInput, fallbackClasses, false};
}

widgets::RankedTable rankedTable(const QString& tablePath, const QString& fallbackModel, const QString& agent,
                                 const core::sim::Evaluation& evaluation)
{
    const auto t = openTable(tablePath, fallbackModel, core::model::kCifar10Input, core::model::kCifar10Classes);
    return widgets::makeRankedTable(QString::fromStdString(t.meta.model), QString::fromStdString(t.meta.scenario),
                                    agent, t.table, evaluation);
}

PolicyEvaluation evaluatePolicy(const QString& policy, const QStringList& tables, const QString& fallbackModel,
                                const core::model::Shape& input, qint64 classes)
{
    torch::NoGradGuard no_grad; // grad mode is per thread: set on the job's own
    PolicyEvaluation out;
    auto learner = core::agent::PolicyLearner::load(
        policy.toStdString(), [&](const std::string& warning) { out.warning = QString::fromStdString(warning); });
    const QString agent = QFileInfo(policy).dir().dirName() + QLatin1Char('/') + QFileInfo(policy).fileName();
    for (const QString& path : tables) {
        const auto t = openTable(path, fallbackModel, input, classes);
        auto e = core::sim::evaluate(learner, core::sim::learn_task(t));
        core::sim::add_seed_statistics(e, t.table); // a replicated table's rank interval
        out.ranked.push_back(widgets::makeRankedTable(QString::fromStdString(t.meta.model),
                                                      QString::fromStdString(t.meta.scenario), agent, t.table, e));
    }
    return out;
}

} // namespace rlda::app
