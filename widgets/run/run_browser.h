// The Runs page: run folders under a root in a table, the details of one, overlay, compare, transfer.
#pragma once

#include "core/io/run_reader.h"
#include "widgets/job_tracker.h"
#include "widgets/run/run_follower.h"
#include "widgets/run/run_listing.h"

#include <QElapsedTimer>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace rlda::widgets {

class ConfigCompareDialog;
class RunColumns;
class RunListModel;
class RunNotesPanel;
class RunSortFilter;
class RunSummaryPanel;
class RunTransferBox;
class RunWatcher;

// Assembles the Runs page from its parts, each in its own file:
//   run_listing    what a job reads of each run folder found under the root (core's find_runs,
//                  read_run, table_status, run_fields, read_notes) and the status it shows;
//   run_list_model the runs as a table model (RunListModel), merged listing by listing;
//   run_columns    the column catalogue and which columns are shown (RunColumns);
//   run_sort_filter numbers sorted as numbers, the filter over the columns shown;
//   run_watcher    the live watch of the root (RunWatcher);
//   run_summary_panel, run_notes_panel, run_transfer_box: the details of the selection.
// Nothing is written into a run folder but its notes.json. Every read (the listing, Open, saving
// notes) is a job off the GUI thread (widgets/job_tracker.h): listed(), updated() and
// runOpened()/tableOpened() say when its answer is shown. "Open" (or a double-click) reads the
// selected run afresh; "Overlay" with two or more training runs (or learning runs) selected emits
// overlayRequested(); "Compare configs" with two selected shows the keys whose values differ. The root stays
// what setRoot() or the user last chose.
//
// Child objects by name, for tests: runTable (a QTableView over the sort/filter proxy), runModel,
// runColumns, runWatcher, filterEdit, filterCount, details, notesPanel, transferBox and the buttons.
class RunBrowser : public QWidget {
    Q_OBJECT
public:
    // `columnsKey`: the QSettings key the columns shown are remembered under; empty: not remembered.
    explicit RunBrowser(const QString& columnsKey = {}, QWidget* parent = nullptr);

    void setRoot(const QString& folder); // and refresh()
    QString root() const { return root_; }
    // Lists the root again off the GUI thread; a refresh still reading is overtaken.
    void refresh();
    bool isListing() const { return listing_.isRunning(); }

    const QList<core::io::RunData>& runs() const; // in listing order: the model's rows
    QList<core::io::RunData> selectedRuns() const; // in the order of runs()
    void selectRuns(const QList<int>& indices);    // indices into runs()
    // Reads the run at `index` afresh off the GUI thread, then emits runOpened() or tableOpened()
    // (openFailed() when it cannot be read any more); false for an index out of range.
    bool openRun(int index);
    // The two selected runs' configs side by side; nullptr (and the reason in the summary) unless
    // exactly two runs with a readable config.toml are selected. The dialog deletes itself on close.
    ConfigCompareDialog* compareConfigs();

    QStringList watchedPaths() const; // what the watcher watches now (the bench reports it)
    // Follows the run last shown by the views (MainWindow::showRun calls follow()).
    RunFollower* follower() const { return follower_; }

Q_SIGNALS:
    void listed();  // a refresh's listing is shown
    // The user chose the folder of runs to show (Choose…, or a path typed and Enter): the
    // workbench makes it where new runs go as well, one setting (issue 43, item 10).
    void rootChosen(const QString& dir);
    void updated(); // a live rescan's listing is shown
    void openFailed(const QString& error);
    void runOpened(const rlda::core::io::RunData& run);
    void tableOpened(const QString& tableCsv); // "Open" on a table folder: its table.csv
    void overlayRequested(const QList<rlda::core::io::RunData>& runs);

private:
    void list(bool live);
    void showListing(RunListing listing, bool live);
    void showColumns();
    void showCount();
    QList<int> selectedIndices() const; // sorted
    void onSelectionChanged();
    void showSummary(int index); // -1: none
    void opened(RunRead read);
    QList<core::io::RunData> overlayRuns() const; // the selected training runs, else the learning runs

    QString root_;
    QStringList readErrors_; // folders find_runs() found that read_run() refused
    RunColumns* columns_;
    RunListModel* model_;
    RunSortFilter* proxy_;
    RunWatcher* watcher_;
    QLineEdit* rootEdit_ = nullptr;
    QTableView* table_ = nullptr;
    QPushButton* open_ = nullptr;
    QPushButton* overlay_ = nullptr;
    QPushButton* compare_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QLabel* filterCount_ = nullptr; // "2 of 4 runs" while the filter hides some
    RunTransferBox* transfer_ = nullptr;
    RunSummaryPanel* details_ = nullptr;
    RunNotesPanel* notes_ = nullptr;
    bool rescanAgain_ = false;  // a change came while a listing was running
    QElapsedTimer listingTime_; // since the listing running now started
    RunFollower* follower_ = nullptr;
    JobTracker listing_{this};
    JobTracker opening_{this};
};

} // namespace rlda::widgets

// Value types for queued connections and QSignalSpy. core stays Qt-free, so they are declared here.
Q_DECLARE_METATYPE(rlda::core::io::RunData)
