// Evaluating a saved policy on tables, off the GUI thread.
#include "app/workbench/evaluations.h"

#include "app/workbench/engine.h"
#include "core/io/run_reader.h"
#include "core/model/zoo.h"
#include "core/table/open_table.h"
#include "core/table/table.h"
#include "core/table/table_checks.h"
#include "core/util/error.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

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
    PolicyEvaluation out;
    std::vector<core::sim::OpenedTable> opened;
    opened.reserve(static_cast<std::size_t>(tables.size()));
    for (const QString& path : tables)
        opened.push_back(openTable(path, fallbackModel, input, classes));
    std::vector<const core::sim::OpenedTable*> views;
    views.reserve(opened.size());
    for (const auto& t : opened)
        views.push_back(&t);
    const auto evaluations =
        engine().evaluatePolicy(policy.toStdString(), views, [&](const std::string& warning) {
            out.warning = QString::fromStdString(warning);
        });
    const QString agent = QFileInfo(policy).dir().dirName() + QLatin1Char('/') + QFileInfo(policy).fileName();
    for (std::size_t i = 0; i < opened.size(); ++i) {
        // A rank on a table the policy learned on is no result by itself: the title says so.
        const bool inSample =
            core::io::learned_on(policy.toStdString(), tables[static_cast<qsizetype>(i)].toStdString());
        out.ranked.push_back(widgets::makeRankedTable(
            QString::fromStdString(opened[i].meta.model), QString::fromStdString(opened[i].meta.scenario),
            inSample ? agent + QObject::tr(" — in-sample (learned on this table)") : agent, opened[i].table,
            evaluations[i]));
    }
    return out;
}

AgentLineup judgeAgentsOn(const QString& table, const QString& policy, const QString& fallbackModel,
                          const core::model::Shape& input, qint64 classes)
{
    AgentLineup out;
    QStringList notes;
    const auto t = openTable(table, fallbackModel, input, classes);
    if (!t.described)
        notes << QString::fromStdString(t.assumption());
    if (const auto flat = core::sim::unrankable_table_warning(t.table, table.toStdString()))
        notes << QString::fromStdString(*flat);
    std::optional<core::sim::Evaluation> evaluation;
    bool inSample = false;
    if (!policy.isEmpty()) {
        evaluation =
            engine()
                .evaluatePolicy(policy.toStdString(), {&t},
                                [&](const std::string& warning) { notes << QString::fromStdString(warning); })
                .front();
        inSample = core::io::learned_on(policy.toStdString(), table.toStdString());
    }
    out.lineup = core::run::judge_lineup(core::sim::learn_task(t), evaluation, inSample);
    out.note = notes.join(QLatin1Char('\n'));
    return out;
}

} // namespace rlda::app
