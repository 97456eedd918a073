// The main window's pages as tabs, in Page order, each in a scroll area so that a small screen
// scrolls a page instead of widening the window; and what is asked of them as a whole: a page by
// the name the workspace stores, the plot a page shows, and every plot exported at once.
#pragma once

#include "core/config/experiment.h"
#include "widgets/plot_export.h"

#include <QString>
#include <QTabWidget>

class QSettings;

#include <optional>

namespace rlda::core::io {
struct RunData;
}
namespace rlda::core::sim {
struct OpenedTable;
struct TableTrust;
} // namespace rlda::core::sim
namespace rlda::widgets {
class ArchitectureInspector;
class RunBrowser;
class TableExplorer;
class TrainingView;
} // namespace rlda::widgets

namespace rlda::app {

class LearningPage;
class ModelsPage;
class PolicyPage;
class SweepPage;

enum class Page { Training, Architecture, Policy, Learning, Tables, Sweeps, Runs, Models };

class PageTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit PageTabs(QWidget* parent = nullptr);

    void showPage(Page page) { setCurrentIndex(static_cast<int>(page)); }
    Page currentPage() const { return static_cast<Page>(currentIndex()); }
    // The page as the workspace names it ("training", ...): not the tab's translated title, so that
    // a page is found again in another language.
    static QString name(Page page);
    static std::optional<Page> fromName(const QString& name);

    // The plot of `page` (Training, Policy, Learning, Tables, Architecture, Models) into `path`:
    // an empty string, or the reason.
    QString exportPlot(Page page, const QString& path, const widgets::ExportSettings& settings) const;
    // Every plot as PNG, PDF and SVG, and the curves' data as CSV, into `dir`: the problems, one a line.
    QString exportAll(const QString& dir, const widgets::ExportSettings& settings) const;
    // A run read from its folder, on the Learning page or on the Training, Architecture and Policy
    // pages, whichever fits its kind; that page is shown.
    void showRun(const core::io::RunData& run);
    // A simulation table on the Tables page, named by its metadata (else `fallbackName`), an
    // incomplete one saying how many rows it has; the page is shown.
    void showTable(const core::sim::OpenedTable& table, core::sim::TableTrust trust, const QString& fallbackName);

    // The current page and the plots' settings (the training curves' smoothing, the learning
    // curves' rolling window), read from and written to the workspace (workspace.h).
    void restoreSettings(const QSettings& settings);
    void saveSettings(QSettings& settings) const;

    // The pages that follow the experiment in the editor: the Learning page's model (unless a table
    // names its own) and table, the Policy page's default model, and the Models page, when the
    // model, its input, classes or head changed (a model picked there meanwhile stays until then).
    void followExperiment(const core::config::ExperimentConfig& c);
    // The Models page on a zoo name or TOML model file at `input` (CxHxW) and `classes`, or at what
    // `dataset` hands a model (core::config::sample_shape) when those are empty and 0.
    void previewModel(const QString& nameOrPath, const QString& input, int classes,
                      const core::config::DatasetConfig& dataset);

    // File -> Export plot… (the current page's plot) and Export all plots and data…, asked in a
    // dialog that starts where the last export went, else in `folder`.
    void exportCurrentWithDialog(const QString& folder);
    void exportAllWithDialog(const QString& folder);

    widgets::TrainingView* const training;
    widgets::ArchitectureInspector* const architecture;
    PolicyPage* const policy;
    LearningPage* const learning;
    widgets::TableExplorer* const tables;
    SweepPage* const sweeps;
    widgets::RunBrowser* const runs;
    ModelsPage* const models;

private:
    QString followed_; // the experiment's model, input, classes and head the Models page last showed

Q_SIGNALS:
    void exported(const QString& text);         // what was written
    void exportProblems(const QString& problems); // one a line
};

} // namespace rlda::app
