// Run folders under a root: a table of runs, a read-only summary of one, overlay and transfer.
#pragma once

#include "core/io/run_fields.h"
#include "core/io/run_notes.h"
#include "core/io/run_reader.h"
#include "core/sim/table_meta.h"
#include "core/sim/transfer_metrics.h"
#include "widgets/job_tracker.h"
#include "widgets/run/run_follower.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFileSystemWatcher;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace rlda::widgets {

class ConfigCompareDialog;

// Lists the run folders find_runs() finds under a root (name, kind, result, status, modified),
// reads each with read_run() and never writes into it. A simulation-table folder (table.csv with
// table.json or config.toml) is listed by its rows, held against expected, and its best sequence
// (core::sim::table_status, which counts a running sweep's parts/ too). Selecting one shows its
// summary, config, problems and adaptations; "Open" (or a double-click) reads it afresh and emits
// runOpened(), or tableOpened() for a table; "Overlay" with two or more training runs selected
// emits overlayRequested(); exactly two learning runs selected show the transfer metrics of one
// against the other. The root stays what setRoot() or the user last chose. Every read (the listing,
// Open, saving notes) is a job off the GUI thread (widgets/job_tracker.h): listed() and
// runOpened()/tableOpened() say when its answer is shown.
//
// Live, as TensorBoard follows its logdir: a QFileSystemWatcher watches the root, the folders that
// may become or hold runs, every run folder, and the metrics/ and appended files of each run still
// being written (inotify watches files and folders, not trees, and a file replaced by rename is
// dropped from its watch: each listing re-adds what is missing). A change starts a single-shot timer
// of kRescanDelayMs that further changes do not restart (a run writing without pause still shows
// every kRescanDelayMs, or twice as long as the last listing took, so that a large run read again
// at every change takes at most a third of a core); the rescan reads again, off the GUI thread, only the runs whose files
// changed size or time, and updates their rows in place (selection and scroll kept); updated() says
// when it is shown. At most kMaxWatchedPaths paths are watched (inotify's per-user limit is shared
// with every program); past it, or where a watch is refused, the root is rescanned every kPollMs.
//
// Columns (W&B, the NNI WebUI): beside the five built-in ones, "tags", "note", the results and every
// config key (core/io/run_fields.h), chosen from the header's context menu and remembered under
// kColumnsSettingsKey; numbers sort as numbers; the filter keeps the rows where any visible column
// holds its text. Tags and a note per run are edited in the Notes tab and kept in the run's
// notes.json (core/io/run_notes.h). "Compare configs" with two runs selected shows the keys whose
// values differ (ConfigCompareDialog).
class RunBrowser : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRescanDelayMs = 400;
    static constexpr int kPollMs = 5000;
    static constexpr int kMaxWatchedPaths = 2000;
    // A run not finished whose newest file is younger than this is "running", else "incomplete".
    static constexpr int kRunningWindowS = 120;
    // QSettings key: the ids of the columns shown, in order (a QStringList).
    static constexpr const char* kColumnsSettingsKey = "runBrowser/columns";

    explicit RunBrowser(QWidget* parent = nullptr);

    void setRoot(const QString& folder); // and refresh()
    QString root() const { return root_; }
    // Lists the root again off the GUI thread; a refresh still reading is overtaken.
    void refresh();
    bool isListing() const { return listing_.isRunning(); }

    const QList<core::io::RunData>& runs() const { return runs_; } // in table order
    QList<core::io::RunData> selectedRuns() const;
    void selectRuns(const QList<int>& rows); // for code and tests
    // Reads the run at `index` afresh off the GUI thread, then emits runOpened() or tableOpened()
    // (openFailed() when it cannot be read any more); false for an index out of range.
    bool openRun(int index);

    // table.csv beside table.json or config.toml: what rlda simulate and sweeps write; or, while
    // they write it, table.json beside parts/.
    static bool isTableFolder(const core::io::RunData& run);
    static QString tableStatusText(const core::sim::TableStatus& table); // "16/16 rows", ...
    // The table status read when runs() were listed (or the run last opened); nullopt for a run
    // that is not a table folder.
    std::optional<core::sim::TableStatus> tableStatus(int index) const;

    // The transfer metrics shown, when exactly two learning runs are selected.
    std::optional<core::sim::TransferMetrics> transferMetrics() const { return transfer_; }

    // A column the list can show: id "run", "kind", "result", "status", "modified" (built in),
    // "tags", "note", a result field's id or a config key's schema name; group "" (built in),
    // "Results" or the config section ("job", ...), which the header menu makes a submenu of.
    struct ColumnInfo {
        QString id;
        QString label;
        QString group;
    };
    static const QList<ColumnInfo>& columnCatalog();
    static QStringList defaultColumns();
    QStringList columns() const; // shown, in order ("run" first)
    int tableColumn(const QString& id) const; // the table's column showing `id`; -1 when not shown
    // Shows these columns (unknown ids are dropped, "run" is always shown) and remembers them.
    void setColumns(const QStringList& ids);
    // The header's context menu: a checkable action per column (its data() the id). The caller owns it.
    QMenu* columnMenu(QWidget* parent);
    void setFilterText(const QString& text);
    int visibleRowCount() const; // rows the filter keeps

    // Tags ("a, b") and the note of the single selected run, written to its notes.json off the GUI
    // thread; notesSaved() answers ("" or the one-line error). False when not exactly one run is
    // selected or the tags are refused (the reason is shown).
    bool saveNotes(const QString& tags, const QString& note);
    // The two selected runs' configs side by side; nullptr (and the reason in the status line) unless
    // exactly two runs with a readable config.toml are selected. The dialog deletes itself on close.
    ConfigCompareDialog* compareConfigs();

    // What the watcher watches now, for tests and the bench.
    QStringList watchedPaths() const;
    // Follows the run last shown by the views (MainWindow::showRun calls follow()).
    RunFollower* follower() const { return follower_; }

    // What a job reads of one run folder beside the run and its table status.
    struct Facts {
        bool tableFolder = false;
        bool configFile = false; // config.toml: a table can be finished with rlda simulate
        QDateTime modified;      // its newest file
        QString tableFile;       // table_file(run.path), for a table folder
        QString signature;       // names, sizes and times of its files: unchanged means not read again
        QStringList appended;    // its subfolders and the files a run appends to (.csv, .jsonl)
        core::io::RunFields fields;
        core::io::RunNotes notes;
        QString notesError; // notes.json refused: its one line
    };
    struct Read {
        core::io::RunData run;
        std::optional<core::sim::TableStatus> table;
        Facts facts;
        bool unchanged = false; // a rescan found its signature as listed: only run.path is set
    };
    struct Listing {
        QList<Read> runs;
        QStringList errors;  // folders find_runs() found that read_run() refused
        QStringList folders; // the folders under the root that are not runs (down to find_runs' depth)
    };

Q_SIGNALS:
    void listed(); // a refresh's listing is shown
    void updated(); // a live rescan's listing is shown
    void notesSaved(const QString& error);
    void openFailed(const QString& error);
    void runOpened(const rlda::core::io::RunData& run);
    void tableOpened(const QString& tableCsv); // "Open" on a table folder: its table.csv
    void overlayRequested(const QList<rlda::core::io::RunData>& runs);

private:
    void list(bool live);
    void showListing(Listing listing, bool live);
    void fillTable(const QStringList& selectedPaths);
    void watch(const QStringList& folders);
    void changed(); // the watcher saw something
    void applyFilter();
    void showColumns(const QStringList& ids); // setColumns() without remembering
    void rebuildColumns();
    int rowOf(int index) const;
    QString notesPath() const; // the run the Notes tab shows; empty for none
    void showNotes(int index);
    void onSelectionChanged();
    void showSummary(int index); // -1: none
    void updateTransfer();
    void fillRow(int row, int index);
    void opened(Read read);
    QList<core::io::RunData> overlayRuns() const; // the selected training runs

    QString root_;
    QList<core::io::RunData> runs_;
    QList<std::optional<core::sim::TableStatus>> tables_; // one per run, set for table folders
    QList<Facts> facts_;     // one per run
    QStringList readErrors_; // folders find_runs() found that read_run() refused
    std::optional<core::sim::TransferMetrics> transfer_;

    QLineEdit* rootEdit_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* open_ = nullptr;
    QPushButton* overlay_ = nullptr;
    QTabWidget* details_ = nullptr;
    QLabel* summary_ = nullptr;
    QPlainTextEdit* config_ = nullptr;
    QListWidget* problems_ = nullptr;
    QTableWidget* adaptations_ = nullptr;
    QGroupBox* transferBox_ = nullptr;
    QComboBox* transferRun_ = nullptr; // which of the two started from a trained policy
    QComboBox* transferSeries_ = nullptr;
    QSpinBox* window_ = nullptr;
    QDoubleSpinBox* threshold_ = nullptr;
    QLabel* transferResult_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QLabel* filterCount_ = nullptr; // "2 of 4 runs" while the filter hides some
    QPushButton* compare_ = nullptr;
    QLineEdit* tagsEdit_ = nullptr;
    QPlainTextEdit* noteEdit_ = nullptr;
    QPushButton* saveNotes_ = nullptr;
    QLabel* notesStatus_ = nullptr;
    QString notesFor_; // the run folder whose notes the editors hold
    QStringList extras_;          // the shown columns past the built-in ones, in order
    QStringList hiddenBuiltIns_; // built-in columns the user hid
    QFileSystemWatcher* watcher_ = nullptr;
    QTimer* rescan_ = nullptr;
    QTimer* poll_ = nullptr;
    bool rescanAgain_ = false; // a change came while a listing was running
    QElapsedTimer listingTime_; // since the listing running now started
    RunFollower* follower_ = nullptr;
    JobTracker listing_{this};
    JobTracker opening_{this};
    JobTracker notesJob_{this};
};

} // namespace rlda::widgets

// Value types for queued connections and QSignalSpy. core stays Qt-free, so they are declared here.
Q_DECLARE_METATYPE(rlda::core::io::RunData)
