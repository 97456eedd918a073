// Evaluating a saved policy on tables (LibTorch, kept out of every header moc reads).
#include "app/workbench/evaluations.h"

#include "core/agent/reinforce.h"
#include "core/model/zoo.h"
#include "core/sim/learn.h"
#include "core/sim/table.h"
#include "core/util/error.h"

#include <QDir>
#include <QFileInfo>

#include <torch/csrc/autograd/grad_mode.h>

#include <map>

namespace rlda::app {

TableIdentity identifyTable(const QString& tablePath, const QString& fallbackModel)
{
    const QFileInfo info(tablePath);
    const QString index = info.dir().filePath(QStringLiteral("index.csv"));
    if (QFileInfo::exists(index)) {
        try {
            for (const auto& entry : core::sim::load_table_index(index.toStdString()))
                if (QFileInfo(QString::fromStdString(entry.file)).canonicalFilePath() == info.canonicalFilePath())
                    return {QString::fromStdString(entry.model), QString::fromStdString(entry.scenario)};
        } catch (const core::Error&) {
            // An unreadable index only costs the names: the table itself is still judged.
        }
    }
    return {fallbackModel, info.completeBaseName()};
}

widgets::RankedTable rankedTable(const QString& tablePath, const QString& fallbackModel, const QString& agent,
                                 const core::sim::Evaluation& evaluation)
{
    const auto id = identifyTable(tablePath, fallbackModel);
    const auto table = core::sim::SimulationTable::load(tablePath.toStdString());
    return widgets::makeRankedTable(id.model, id.scenario, agent, table, evaluation);
}

std::vector<widgets::RankedTable> evaluatePolicy(const QString& policy, const QStringList& tables,
                                                 const QString& fallbackModel, const core::model::Shape& input,
                                                 qint64 classes)
{
    torch::NoGradGuard no_grad; // grad mode is per thread: this runs on the GUI thread
    auto learner = core::agent::PolicyLearner::load(policy.toStdString());
    const QString agent = QFileInfo(policy).dir().dirName() + QLatin1Char('/') + QFileInfo(policy).fileName();
    std::map<QString, core::model::ModelSpec> models;
    std::vector<widgets::RankedTable> ranked;
    for (const QString& path : tables) {
        const auto id = identifyTable(path, fallbackModel);
        auto it = models.find(id.model);
        if (it == models.end())
            it = models.emplace(id.model, core::model::load_model(id.model.toStdString(), input, classes)).first;
        const auto table = core::sim::SimulationTable::load(path.toStdString());
        ranked.push_back(
            widgets::makeRankedTable(id.model, id.scenario, agent, table, core::sim::evaluate(learner, table, it->second)));
    }
    return ranked;
}

} // namespace rlda::app
