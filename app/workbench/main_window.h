// The workbench's main window: it assembles the panels (experiment editor and run control on the
// left, one page per view in the middle) and connects them to the worker that runs the engine.
#pragma once

#include "app/workbench/worker.h"
#include "widgets/job_tracker.h"
#include "widgets/plot_export.h"

#include <QMainWindow>
#include <QString>

#include <optional>

class QAction;
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

    // The experiment shipped with the program (config/default.toml, built in).
    void openDefaultExperiment();
    bool openExperiment(const QString& path); // errors go to the status bar and the log
    // Where new runs go: <root>/<experiment name>-<date>-<time>.
    void setRunsRoot(const QString& dir);
    QString currentRun() const { return currentRun_; } // the run started last
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

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildPages();
    void buildExperimentDock();
    void buildLogDock();
    void buildMenus();
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
    widgets::JobTracker indexJob_{this};      // the paper's table index, for the File menu
};

} // namespace rlda::app
