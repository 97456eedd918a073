// The workbench's main window. It assembles the parts and connects them: the pages (page_tabs.h),
// the experiment editor and run control in a dock, the log, the menus, the recent files
// (recent_menus.h), drops (drop_receiver.h), the close policy (close_guard.h), and the run in
// progress fed to the pages (run_feed.h). What it does itself is opening things into the pages.
#pragma once

#include "app/workbench/experiment_dock.h"
#include "app/workbench/page_tabs.h"
#include "app/workbench/worker.h"
#include "app/workbench/workspace.h"
#include "widgets/job_tracker.h"

#include <QByteArray>
#include <QMainWindow>
#include <QString>
#include <QStringList>

class QAction;
class QMenu;
class QPlainTextEdit;

namespace rlda::core::io {
struct RunData;
}
namespace rlda::widgets {
class ExperimentEditor;
class RunControl;
} // namespace rlda::widgets

namespace rlda::app {

class CloseGuard;
class DropReceiver;
class PaperFiguresDialog;
class RecentMenus;
class ReproduceDialog;
class RunFeed;
class ShippedTables;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    using Page = app::Page;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The parts, for the command line, the screenshot tour and tests.
    widgets::ExperimentEditor* editor() const { return experiment_->editor(); }
    widgets::RunControl* runControl() const { return experiment_->runControl(); }
    RunController& controller() { return controller_; }
    PageTabs* pages() const { return pages_; }
    widgets::TrainingView* training() const { return pages_->training; }
    widgets::ArchitectureInspector* architecture() const { return pages_->architecture; }
    PolicyPage* policy() const { return pages_->policy; }
    LearningPage* learning() const { return pages_->learning; }
    widgets::TableExplorer* tables() const { return pages_->tables; }
    SweepPage* sweeps() const { return pages_->sweeps; }
    widgets::RunBrowser* runs() const { return pages_->runs; }
    ModelsPage* models() const { return pages_->models; }
    RecentMenus* recent() const { return recent_; }
    CloseGuard* closeGuard() const { return closeGuard_; }
    void showPage(Page page) { pages_->showPage(page); }
    Page currentPage() const { return pages_->currentPage(); }

    // The workspace (workspace.h): the window's geometry and docks, the current page, the plot
    // settings and the recent files, read from QSettings; from then on the window records them
    // there (recent files as they open, the rest when it closes). The program calls it; a window
    // made without it, as the tests make them, restores and records none of these.
    void restoreWorkspace();
    void saveWorkspace() const; // what closing saves; nothing unless restoreWorkspace() was called
    // View -> Reset layout: the docks where they were at start, all shown, the default size.
    void resetLayout();

    // The Policy page evaluates `policy` on the tables open (the Tables and Learning pages'), or
    // on the paper's tables when none is.
    void openPolicy(const QString& policy);
    // The Runs page, listing `dir`'s parent, with `dir` selected once it is listed.
    void showRunInBrowser(const QString& dir);

    // The experiment shipped with the program (config/default.toml, built in).
    void openDefaultExperiment();
    // The experiment edited and not saved when the workbench last closed (saveWorkspace keeps it);
    // false when there is none or it does not open.
    bool openDraftExperiment();
    ExperimentDock* experimentDock() const { return experiment_; }
    bool openExperiment(const QString& path); // errors go to the status bar and the log
    // Where new runs go: <root>/<experiment name>-<date>-<time>.
    void setRunsRoot(const QString& dir);
    QString currentRun() const; // the run started last
    QString runsRoot() const { return runsRoot_; } // where new runs go
    // Where new runs go, the folder the Runs page lists, and at the next start: File → Runs folder…
    // and the Runs page's own Choose… both set it.
    void useRunsFolder(const QString& dir);
    // Shows a sweep under the runs root that has not finished, following it again, once it is found
    // off the GUI thread (SweepPage::reattached says whether there was one).
    void reattachSweeps();

    bool startTraining(); // the editor's experiment; false (with the reason shown) when it cannot start
    // What adaptation is worth (core::run::run_comparison on the worker): the editor's experiment,
    // then the same job without adaptation into <run>-none, both overlaid on the Training page at
    // the end and the difference in final test accuracy stated in the status bar and the log.
    bool startComparison();
    // The same at each of `seeds` (job.seed), paired, each seed's pair in <run>/seed-S and
    // <run>/seed-S-none (core::run::run_seed_comparisons); every pair overlaid at the end and the
    // mean difference with its 95 % interval stated. Run → Train and compare over seeds… asks for them.
    bool startSeedComparisons(const std::vector<std::uint64_t>& seeds);
    QString comparisonSummary() const; // the last one stated
    bool startLearning(); // the Learning page's settings
    // A table file or table folder, read off the GUI thread, into the Tables page; tableShown()
    // says how it went.
    void openTable(const QString& path);
    // File -> Paper figures… and Run -> Reproduce the paper…, made on first use.
    PaperFiguresDialog* paperFiguresDialog();
    ReproduceDialog* reproduceDialog();
    void paperFiguresWithDialog(); // preselects the open table and learning runs, then shows it
    void reproduceWithDialog();
    // Read-only, off the GUI thread, into the pages that fit its kind; runShown() says how it went.
    void openRun(const QString& dir);
    // The Models page on a zoo name or TOML model file at `input` (CxHxW) and `classes`, or at the
    // experiment's input shape and classes (core::config::sample_shape) when those are empty and 0;
    // its parameter count goes to the status bar.
    void previewModel(const QString& nameOrPath, const QString& input = {}, int classes = 0);

Q_SIGNALS:
    void tableShown(const QString& error); // an empty string, or why the table did not open
    void runShown(const QString& error);
    // A dropped path handled: what it was taken for (dropKindName) and, when refused, the reason.
    void dropHandled(const QString& path, const QString& kind, const QString& error);
    // The window accepted a close (after a run kept in the background: once the run ended).
    void closed();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void connectPages();
    void buildExperimentDock();
    void buildLogDock();
    void buildMenus();
    void buildFileMenu();
    void connectParts();
    void openRecent(workspace::Recent kind, const QString& path);
    void showRun(const core::io::RunData& run);
    // startTraining (no seeds, no comparison), startComparison, startSeedComparisons
    bool startExperiment(bool compare, const std::vector<std::uint64_t>& seeds = {});
    void seedComparisonWithDialog();
    bool refusedWhileActive();          // says so in the status bar
    void log(const QString& text);
    void say(const QString& text); // the status bar and the log
    QString newRunFolder(const QString& name) const;

    RunController controller_;
    PageTabs* pages_ = nullptr;
    ExperimentDock* experiment_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    RecentMenus* recent_ = nullptr;
    CloseGuard* closeGuard_ = nullptr;
    DropReceiver* drops_ = nullptr;
    RunFeed* feed_ = nullptr;
    ShippedTables* shipped_ = nullptr;
    bool workspace_ = false;   // restoreWorkspace() was called
    QByteArray defaultLayout_; // saveState() once the docks are built, for Reset layout
    QString runsRoot_;
    QString runsListed_; // the runs root the Runs page last listed; a folder chosen there stays
    QString learningRun_; // the folder of the last learning run started here
    QString tablePath_;   // the table the Tables page shows
    PaperFiguresDialog* paperFigures_ = nullptr;
    ReproduceDialog* reproduce_ = nullptr;
    // What the window reads itself, off the GUI thread (the pages have their own).
    widgets::JobTracker tableJob_{this};        // openTable
    widgets::JobTracker runJob_{this};          // openRun
};

} // namespace rlda::app
