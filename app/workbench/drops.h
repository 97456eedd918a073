// What a file or folder dropped on the workbench is, told by its name and, where the name is not
// enough, its content: an experiment or a model .toml, a simulation table, a folder of tables, a
// policy, a run folder, a folder of runs; anything else is refused with a one-line reason.
// classifyDrop() reads the disk: call it from a job (widgets/job_tracker.h), never on the GUI thread.
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <vector>

namespace rlda::app {

enum class DropKind {
    Experiment,   // an experiment .toml (ours or the original tool's): the editor
    Model,        // a TOML model file ([model]): the Models page
    Table,        // a simulation table .csv, or a table folder (table.csv inside): the Tables page
    TablesFolder, // a folder of table CSVs (an index.csv, or tables side by side): its first table
    Policy,       // a policy .pt: the Policy page evaluates it
    RunFolder,    // a run folder: the Runs page, among its siblings
    RunsFolder,   // a folder holding run folders: the Runs page's root
    Refused,
};

struct DropTarget {
    DropKind kind = DropKind::Refused;
    QString path;   // the file or folder dropped
    QString open;   // what is opened: `path`, or a folder of tables' first table
    QString reason; // Refused: one line naming the file and why
};

// The local files among a drop's URLs, in order; empty when it carries none.
QStringList droppedFiles(const QList<QUrl>& urls);

DropTarget classifyDrop(const QString& path);
std::vector<DropTarget> classifyDrops(const QStringList& paths);

QString dropKindName(DropKind kind); // "experiment", "model", ... for messages and tests

} // namespace rlda::app

Q_DECLARE_METATYPE(rlda::app::DropTarget)
