// What the workbench remembers between launches, in QSettings: every settings key, declared once
// here, and the recent files of each kind. The program restores the layout, page, plots and recent
// files (main.cpp, through MainWindow::restoreWorkspace, which tests/app/test_workspace.cpp calls
// too, to check what a second window gets back); the dialogs' folders, the runs folder and
// the Runs page's columns are read and written where they are chosen, in a test's window too
// (each suite's settings live in its own folder, tests/CMakeLists.txt). GUI thread (QSettings is cached in
// memory and written back by Qt; nothing here waits on the files a list names).
#pragma once

#include "widgets/file_dialogs.h"
#include "widgets/plot_export.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace rlda::app::workspace {

// The keys, every one of them. A key is written here and nowhere else, except the file dialogs'
// folders, which the dialogs read and write themselves: declared beside them and named here. Code
// names the constant.
namespace key {
inline constexpr char kGeometry[] = "window/geometry";         // QMainWindow::saveGeometry
inline constexpr char kState[] = "window/state";               // QMainWindow::saveState: the docks
inline constexpr char kPage[] = "window/page";                 // the current page, by its tab's name
inline constexpr char kTrainingSmoothing[] = "plots/trainingSmoothing"; // TrainingView's EMA span
inline constexpr char kLearningWindow[] = "plots/learningWindow";       // LearningView's rolling mean
inline constexpr char kExportSize[] = "plots/exportSize";      // the Export plot dialog's size
inline constexpr char kExportDpi[] = "plots/exportDpi";        // and resolution
inline constexpr char kRecentGroup[] = "recent";               // recent/<kind>: a list, newest first
// folders/<kind>: each file dialog's last folder, widgets::kFolderSettingsGroup (widgets/file_dialogs.h)
inline constexpr char kRunsFolder[] = "runs/folder";           // where new runs go (File → Runs folder…)
inline constexpr char kRunColumns[] = "runBrowser/columns";    // the Runs page's columns shown, in order
// The experiment edited and not saved when the workbench closed, as TOML, and the file it came
// from: opened again at the next start, as editors keep a draft (ExperimentDock::draft()).
inline constexpr char kDraft[] = "experiment/draft";
// The Sweeps page's choices (issue 43, item 22): backend by name, parts, seeds, device, fused, race.
inline constexpr char kSweepBackend[] = "sweeps/backend";
inline constexpr char kSweepWorkers[] = "sweeps/workers";
inline constexpr char kSweepReplicates[] = "sweeps/replicates";
inline constexpr char kSweepSeedValues[] = "sweeps/seedValues"; // "42 43 44", or empty for the count
inline constexpr char kSweepDevice[] = "sweeps/device";
inline constexpr char kSweepFused[] = "sweeps/fused";
inline constexpr char kSweepRace[] = "sweeps/race";
inline constexpr char kDraftOrigin[] = "experiment/draftOrigin";
// The seeds last given to Run → Train and compare over seeds… ("42 43 44").
inline constexpr char kComparisonSeeds[] = "comparison/seeds";
} // namespace key

// The version saveState() stamps on the dock layout: a layout of another version is not restored.
inline constexpr int kStateVersion = 1;

// The kinds of recent files, one File -> Recent submenu each.
enum class Recent { Experiments, Tables, Policies, Runs };
inline constexpr Recent kRecentKinds[] = {Recent::Experiments, Recent::Tables, Recent::Policies, Recent::Runs};
inline constexpr int kMaxRecent = 10; // entries kept per kind

QString recentName(Recent kind);  // "experiments", ...: the key under recent/
QString recentTitle(Recent kind); // the submenu's title: "Recent &experiments", ...

QStringList recentFiles(Recent kind); // newest first, at most kMaxRecent
// `path` (made absolute) goes first; a copy further down goes, and the oldest beyond kMaxRecent.
void addRecent(Recent kind, const QString& path);
void clearRecent(Recent kind);

// The Export plot dialog's last size and resolution (the defaults until one was accepted).
widgets::ExportSettings exportSettings();
void setExportSettings(const widgets::ExportSettings& settings);

// Where new runs go and the Runs page looks, when nobody said (--runs, File → Runs folder…):
// <clone>/runs when the workbench starts in the root folder of a clone of this project (it holds
// scripts/run and .git), as the README's commands expect; otherwise runs/ in the user's data folder
// (QStandardPaths::AppDataLocation), never the folder it happened to be started in. Reads the disk
// (two stats): call it before the window shows, not from the event loop.
QString defaultRunsFolder();
// runs/ in the user's data folder: the default outside a clone; a path only, nothing is read.
QString dataRunsFolder();
// The runs folder chosen with File → Runs folder… (remembered), else defaultRunsFolder().
QString runsFolder();
void setRunsFolder(const QString& dir);

// The window's geometry before any is restored, and after View -> Reset layout: 1440x900 as far as
// its screen has room, centred in the screen's free area (no panel under it).
void placeOnScreen(QWidget& window);

// Forgets everything above and the window's layout: rlda-workbench --reset-settings.
void resetSettings();

// Whether the settings file can be read without waiting: before anything reads QSettings (Qt reads
// the whole file when the first QSettings is made, and blocks forever on a FIFO). A settings file
// that is not a regular file, cannot be read or is larger than kMaxSettingsBytes is left alone:
// QSettings is pointed at a temporary folder for this session (the defaults, nothing saved), and the
// warning naming the file is returned. A file that is read but cannot be written (read-only,
// immutable) is used, with a warning that nothing of this session will be remembered. "" when the
// file is fine or absent. The first call decides; later calls return the same warning.
QString guardSettingsFile();
inline constexpr qint64 kMaxSettingsBytes = qint64{16} * 1024 * 1024;

} // namespace rlda::app::workspace
