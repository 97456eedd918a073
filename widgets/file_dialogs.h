// Every file dialog of the workbench goes through these: each kind of dialog starts in the folder
// it was last left in (QSettings, under kFolderSettingsGroup), else in the fallback given.
// GUI thread; modal, so only interactive code calls them.
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace rlda::widgets {

// The settings group of the remembered folders, folders/<kind>: named in the workspace's list of
// keys (app/workbench/workspace.h), declared here with the one code that reads and writes it.
inline constexpr char kFolderSettingsGroup[] = "folders";

// One remembered folder per kind of thing asked for.
enum class FileKind {
    Experiment,  // experiment .toml files, opened and saved
    Table,       // simulation tables (.csv) and table folders
    Policy,      // policy.pt files
    RunFolder,   // a run folder to open: remembered as its parent, the folder of runs
    RunsRoot,    // a folder of runs to browse
    Model,       // TOML model files
    DataFolder,  // a dataset's folder
    Export,      // exported plots and data
    Output,      // folders that runs and figures are written into
};

// The folder a dialog of `kind` starts in: the one last chosen there, else `fallback`.
QString lastFolder(FileKind kind, const QString& fallback = {});
// Remembers the folder of `path` (a file; or a folder, for the folder dialogs) for `kind`.
void rememberFolder(FileKind kind, const QString& path, bool isFolder);

// QFileDialog's static functions, started in lastFolder(kind, fallback) and remembering the
// answer; an empty answer (cancelled) changes nothing.
QString openFileName(QWidget* parent, FileKind kind, const QString& title, const QString& filter,
                     const QString& fallback = {});
QStringList openFileNames(QWidget* parent, FileKind kind, const QString& title, const QString& filter,
                          const QString& fallback = {});
// `suggested`: an absolute path is offered as it is; a bare name (or a path in Qt's resources,
// ":/...") is offered in the remembered folder.
QString saveFileName(QWidget* parent, FileKind kind, const QString& title, const QString& suggested,
                     const QString& filter);
QString existingFolder(QWidget* parent, FileKind kind, const QString& title, const QString& fallback = {});
// A folder field's Choose…: starts in `current` (the field's text) when it is not empty.
QString chooseFolderFrom(QWidget* parent, FileKind kind, const QString& title, const QString& current);

} // namespace rlda::widgets
