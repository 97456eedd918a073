// The workbench's main window: it assembles the panels (experiment editor and run control on the
// left, one page per view in the middle) and connects them to the worker that runs the engine.
#pragma once

#include "app/workbench/workspace.h"
#include "app/workbench/worker.h"
#include "widgets/job_tracker.h"
#include "widgets/plot_export.h"

#include <QByteArray>
#include <QMainWindow>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>
#include <optional>

class QAction;
class QDragEnterEvent;
class QDropEvent;
class QMenu;
class QMessageBox;
class QPlainTextEdit;
class QTabWidget;

namespace rlda::core::io {
struct RunData;
}
namespace rlda::widgets {
class ArchitectureInspector;
class ExperimentEditor;
class RunBrowser;
class RunControl;
class TableExplorer;
class TrainingView;
} // namespace rlda::widgets

namespace rlda::app {

class HelpMenu;
class LearningPage;
class ModelsPage;
class PaperFiguresDialog;
class PolicyPage;
class ReproduceDialog;
class SweepPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class Page { Training, Architecture, Policy, Learning, Tables, Sweeps, Runs, Models };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The parts, for the command line, the screenshot tour and tests.
    widgets::ExperimentEditor* editor() const { return editor_; }
    widgets::RunControl* runControl() const { return runControl_; }
    RunController& controller() { return controller_; }
    widgets::TrainingView* training() const { return training_; }
    widgets::ArchitectureInspector* architecture() const { return architecture_; }
    PolicyPage* policy() const { return policy_; }
    LearningPage* learning() const { return learning_; }
    widgets::TableExplorer* tables() const { return tables_; }
    SweepPage* sweeps() const { return sweeps_; }
    widgets::RunBrowser* runs() const { return runs_; }
    ModelsPage* models() const { return models_; }
    void showPage(Page page);
    Page currentPage() const;

    // The workspace (workspace.h): the window's geometry and docks, the current page, the plot
    // settings and the recent files, read from QSettings; from then on the window records them
    // there (recent files as they open, the rest when it closes). The program calls it; a window
    // made without it, as the tests make them, reads and writes no settings.
    void restoreWorkspace();
    void saveWorkspace() const; // what closing saves; nothing unless restoreWorkspace() was called
    bool usesWorkspace() const { return workspace_; }
    // View -> Reset layout: the docks where they were at start, all shown, the default size.
    void resetLayout();
    // File -> Recent: one submenu per kind, newest first; an entry whose file is gone is greyed.
    QMenu* recentMenu(workspace::Recent kind) const { return recentMenus_[static_cast<std::size_t>(kind)]; }
    // Checks off the GUI thread which recent files still exist, then fills the submenus;
    // recentMenusChecked() when they are filled (each submenu also checks when it opens).
    void refreshRecentMenus();
    HelpMenu* help() const { return help_; }

    // Closing during a run asks what to do with it.
    enum class CloseChoice {
        KeepRunning,    // the window goes, the run goes on; the program ends when it has ended
        CancelAndClose, // the run is cancelled, its files kept, and the window closes (the default)
        Stay,           // nothing happens
    };
    // Who answers: by default a message box (closePromptBox); tests answer through this.
    using ClosePrompt = std::function<CloseChoice(const QString& runFolder)>;
    void setClosePrompt(ClosePrompt prompt) { closePrompt_ = std::move(prompt); }
    // The box the default prompt shows (deleted by its caller): three buttons, "cancel and close" the
    // default and Escape "stay"; its buttons' object names are the choices' (keepRunning, cancelAndClose, stay).
    static QMessageBox* closePromptBox(QWidget* parent, const QString& runFolder);
    static CloseChoice closeChoiceOf(const QMessageBox& answered);

    // A dropped file or folder, by what it is (drops.h: classified off the GUI thread): an
    // experiment opens in the editor, a model in Models, a table (or a folder of tables) in
    // Tables, a policy is evaluated on the tables open, a run folder is selected on the Runs page.
    // Anything else is refused with one line in the status bar. dropHandled() per path.
    void openDropped(const QStringList& paths);
    // The Policy page evaluates `policy` on the tables open (the Tables and Learning pages'), or
    // on the paper's tables when none is.
    void openPolicy(const QString& policy);
    // The Runs page, listing `dir`'s parent, with `dir` selected once it is listed.
    void showRunInBrowser(const QString& dir);

    // The experiment shipped with the program (config/default.toml, built in).
    void openDefaultExperiment();
    bool openExperiment(const QString& path); // errors go to the status bar and the log
    // Where new runs go: <root>/<experiment name>-<date>-<time>.
    void setRunsRoot(const QString& dir);
    QString currentRun() const { return currentRun_; } // the run started last
    QString runsRoot() const { return runsRoot_; } // where new runs go
    // Shows a sweep under the runs root that has not finished, following it again, once it is found
    // off the GUI thread (SweepPage::reattached says whether there was one).
    void reattachSweeps();

    bool startTraining(); // the editor's experiment; false (with the reason shown) when it cannot start
    // What adaptation is worth: the editor's experiment, then the same job without adaptation into
    // <run>-none (core::run::baseline_folder), both overlaid on the Training page at the end and
    // the difference in final test accuracy stated in the status bar and the log.
    bool startComparison();
    QString comparisonSummary() const { return comparisonSummary_; } // the last one stated
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

    // The plot of `page` (Training, Policy, Learning, Tables); an empty string or the reason.
    QString exportPlot(Page page, const QString& path, const widgets::ExportSettings& settings);
    // Every plot of the current views as PNG, PDF and SVG, and their data as CSV, into `dir`.
    QString exportAll(const QString& dir, const widgets::ExportSettings& settings);

Q_SIGNALS:
    void tableShown(const QString& error); // an empty string, or why the table did not open
    void runShown(const QString& error);
    void recentMenusChecked();
    // A dropped path handled: what it was taken for (dropKindName) and, when refused, the reason.
    void dropHandled(const QString& path, const QString& kind, const QString& error);
    // The window accepted a close (after a run kept in the background: once the run ended).
    void closed();

protected:
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override; // Ctrl+E wherever the focus is
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildPages();
    void buildExperimentDock();
    void buildLogDock();
    void buildMenus();
    void buildRecentMenus(QMenu& file);
    void fillRecentMenu(workspace::Recent kind, const QStringList& files, const QList<bool>& exists);
    void openRecent(workspace::Recent kind, const QString& path);
    void addRecent(workspace::Recent kind, const QString& path); // when the workspace is in use
    void connectWorker();
    void onStateChanged(RunState state, const QString& message);
    void continueComparison(RunState state);
    void showRun(const core::io::RunData& run);
    void overlayRuns(const QList<core::io::RunData>& runs);
    void log(const QString& text);
    QString newRunFolder(const QString& name) const;
    void syncModelFromExperiment();
    void saveExperiment(bool askForName);
    void exportPlotWithDialog();
    void exportAllWithDialog();

    RunController controller_;
    QTabWidget* pages_ = nullptr;
    widgets::ExperimentEditor* editor_ = nullptr;
    widgets::RunControl* runControl_ = nullptr;
    widgets::TrainingView* training_ = nullptr;
    widgets::ArchitectureInspector* architecture_ = nullptr;
    PolicyPage* policy_ = nullptr;
    LearningPage* learning_ = nullptr;
    widgets::TableExplorer* tables_ = nullptr;
    SweepPage* sweeps_ = nullptr;
    widgets::RunBrowser* runs_ = nullptr;
    ModelsPage* models_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QAction* pauseAction_ = nullptr;
    QAction* exportAction_ = nullptr;
    HelpMenu* help_ = nullptr;
    bool workspace_ = false;     // restoreWorkspace() was called
    QByteArray defaultLayout_;   // saveState() once the docks are built, for Reset layout
    std::array<QMenu*, std::size(workspace::kRecentKinds)> recentMenus_{}; // by Recent
    ClosePrompt closePrompt_;
    bool closeAfterRun_ = false; // KeepRunning was chosen: close once the run has ended
    QStringList paperTables_;    // the shipped tables, from the index the File menu reads
    QString runsRoot_;
    QString runsListed_; // the runs root the Runs page last listed; a folder chosen there stays
    QString currentRun_;
    // A comparison under way: the adapted run's config and folder; `baseline` once that runs.
    struct PendingComparison {
        core::config::ExperimentConfig config;
        QString adapted;
        bool baseline = false;
    };
    std::optional<PendingComparison> comparison_;
    QString comparisonSummary_;
    QString modelSynced_; // the experiment model, input, classes and head the Models page last showed
    QString learningTable_;       // the table of the learning run in progress
    QString learningRun_;         // the folder of the last learning run started here
    QString tablePath_;           // the table the Tables page shows
    PaperFiguresDialog* paperFigures_ = nullptr;
    ReproduceDialog* reproduce_ = nullptr;
    qint64 stageFirstEpisode_ = 0; // for the progress bar of a learning stage
    qint64 stageEpisodes_ = 0;
    // What the window reads itself, off the GUI thread (the pages have their own).
    widgets::JobTracker tableJob_{this};      // openTable
    widgets::JobTracker runJob_{this};        // openRun
    widgets::JobTracker comparisonJob_{this}; // the two runs of a comparison, at its end
    widgets::JobTracker indexJob_{this};        // the paper's table index, for the File menu
    widgets::JobTracker fashionIndexJob_{this}; // the Fashion-MNIST tables' index, likewise
    widgets::JobTracker recentJob_{this};     // which recent files still exist
    widgets::JobTracker dropJob_{this};       // what dropped files are
};

} // namespace rlda::app
