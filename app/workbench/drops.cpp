// Dropped files told apart: names first, then the least of the content that decides.
#include "app/workbench/drops.h"

#include "core/config/schema.h"
#include "core/io/run_reader.h"
#include "core/table/table.h"
#include "core/table/table_status.h"
#include "core/util/error_text.h"
#include "core/util/read_file.h"
#include "core/util/toml_parse.h"

#include <toml++/toml.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <system_error>

namespace rlda::app {
namespace {

namespace fs = std::filesystem;

// What the workbench opens, for the reason a drop is refused.
QString accepted()
{
    return QObject::tr("the workbench opens experiment and model .toml files, simulation table .csv files, "
                       "policy .pt files, and run or table folders");
}

DropTarget refused(const QString& path, const QString& why) { return {DropKind::Refused, path, {}, why}; }

// Whether `name` starts a key of an experiment file, ours or the original tool's spelling: a section
// ("job") or a top-level key ("name"), as the schema declares them.
bool isExperimentName(std::string_view name)
{
    const core::config::Schema& schema = core::config::experiment_schema();
    const auto starts = [name](std::string_view key) { return key.substr(0, key.find('.')) == name; };
    return std::any_of(schema.keys.begin(), schema.keys.end(), [&](const auto& k) { return starts(k.name); }) ||
           std::any_of(schema.aliases.begin(), schema.aliases.end(), [&](const auto& a) { return starts(a.name); });
}

DropTarget classifyToml(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    toml::table root;
    try {
        const std::string file = path.toStdString();
        root = core::parse_toml(core::read_text_file(file), file);
    } catch (const std::exception& e) {
        return refused(path, QObject::tr("%1: not a TOML file the workbench reads: %2")
                                 .arg(name, QString::fromStdString(core::error_line(e))));
    }
    if (root.contains("model"))
        return {DropKind::Model, path, path, {}};
    for (const auto& [k, v] : root)
        if (isExperimentName(k.str()))
            return {DropKind::Experiment, path, path, {}};
    return refused(path, QObject::tr("%1: neither an experiment ([job], [dataset], …) nor a model ([model])").arg(name));
}

// The most of a file's first line read to tell a table by its header.
constexpr qint64 kHeaderBytes = qint64{64} * 1024;

// A simulation table's header, single-seed or replicated (the table format's own parser says).
bool isTableHeader(const QByteArray& line) { return core::sim::is_table_header(line.trimmed().toStdString()); }

DropTarget classifyCsv(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return refused(path, QObject::tr("%1: cannot be read: %2").arg(name, f.errorString()));
    const QByteArray header = f.readLine(kHeaderBytes);
    if (isTableHeader(header))
        return {DropKind::Table, path, path, {}};
    if (name == QStringLiteral("index.csv"))
        return classifyDrop(QFileInfo(path).absolutePath());
    return refused(path, QObject::tr("%1: not a simulation table (its header is not a1…, totaltime, accuracy); "
                                     "for a run's metrics drop its run folder")
                             .arg(name));
}

DropTarget classifyFolder(const QString& path)
{
    const QDir dir(path);
    const QString name = dir.dirName();
    if (core::sim::holds_table(path.toStdString()))
        return {DropKind::Table, path, path, {}};
    // A folder of tables: the paper's (an index.csv) or CSVs side by side; its first table opens.
    QStringList tables;
    for (const QFileInfo& csv : dir.entryInfoList({QStringLiteral("*.csv")}, QDir::Files, QDir::Name))
        if (csv.fileName() != QStringLiteral("index.csv"))
            if (QFile f(csv.filePath()); f.open(QIODevice::ReadOnly) && isTableHeader(f.readLine(kHeaderBytes)))
                tables << csv.filePath();
    std::vector<fs::path> runs;
    try {
        runs = core::io::find_runs(path.toStdString(), 1);
    } catch (const std::exception& e) {
        return refused(path, QObject::tr("%1: %2").arg(name, QString::fromStdString(core::error_line(e))));
    }
    std::error_code ec;
    if (!runs.empty() && fs::equivalent(runs.front(), fs::path(path.toStdString()), ec))
        return {DropKind::RunFolder, path, path, {}};
    if (!tables.isEmpty())
        return {DropKind::TablesFolder, path, tables.front(), {}};
    if (!runs.empty())
        return {DropKind::RunsFolder, path, path, {}};
    return refused(path, QObject::tr("%1: a folder with no run, table or run folder in it").arg(name));
}

} // namespace

QStringList droppedFiles(const QList<QUrl>& urls)
{
    QStringList files;
    for (const QUrl& url : urls)
        if (url.isLocalFile())
            files << QDir::cleanPath(url.toLocalFile());
    return files;
}

DropTarget classifyDrop(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return refused(path, QObject::tr("%1: no such file or folder").arg(path));
    if (info.isDir())
        return classifyFolder(path);
    // A FIFO or a device would block the read below forever.
    if (!info.isFile())
        return refused(path, QObject::tr("%1: not a regular file").arg(info.fileName()));
    const QString suffix = info.suffix().toLower();
    if (suffix == QStringLiteral("toml"))
        return classifyToml(path);
    if (suffix == QStringLiteral("csv"))
        return classifyCsv(path);
    if (suffix == QStringLiteral("pt")) {
        // The run folder's other tensor files are no policies: their folder is what opens them.
        if (info.fileName() == QStringLiteral("warm_start.pt") || info.fileName() == QStringLiteral("model.pt"))
            return refused(path, QObject::tr("%1: a training run's %2, not a policy; drop its run folder to open the run")
                                     .arg(info.dir().dirName() + QLatin1Char('/') + info.fileName(),
                                          info.fileName() == QStringLiteral("model.pt") ? QObject::tr("final model")
                                                                                         : QObject::tr("checkpoint")));
        return {DropKind::Policy, path, path, {}};
    }
    return refused(path, QObject::tr("%1: not a file to open here; %2").arg(info.fileName(), accepted()));
}

std::vector<DropTarget> classifyDrops(const QStringList& paths)
{
    std::vector<DropTarget> out;
    for (const QString& p : paths)
        out.push_back(classifyDrop(p));
    return out;
}

QString dropKindName(DropKind kind)
{
    switch (kind) {
    case DropKind::Experiment: return QStringLiteral("experiment");
    case DropKind::Model: return QStringLiteral("model");
    case DropKind::Table: return QStringLiteral("table");
    case DropKind::TablesFolder: return QStringLiteral("tables folder");
    case DropKind::Policy: return QStringLiteral("policy");
    case DropKind::RunFolder: return QStringLiteral("run folder");
    case DropKind::RunsFolder: return QStringLiteral("runs folder");
    case DropKind::Refused: return QStringLiteral("refused");
    }
    return {};
}

} // namespace rlda::app
