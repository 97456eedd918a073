// The main window's pages as tabs, in Page order, each in a scroll area so that a small screen
// scrolls a page instead of widening the window; and what is asked of them as a whole: a page by
// the name the workspace stores, the plot a page shows, and every plot exported at once.
#pragma once

#include "widgets/plot_export.h"

#include <QString>
#include <QTabWidget>

#include <optional>

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

Q_SIGNALS:
    void exported(const QString& text);         // what was written
    void exportProblems(const QString& problems); // one a line
};

} // namespace rlda::app
