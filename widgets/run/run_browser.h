// Run folders under a root: a table of runs, a read-only summary of one, overlay and transfer.
#pragma once

#include "core/io/run_reader.h"
#include "core/sim/table_meta.h"
#include "core/sim/transfer.h"
#include "widgets/job_tracker.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace rlda::widgets {

// Lists the run folders find_runs() finds under a root (name, kind, result, status, modified),
// reads each with read_run() and never writes into it. A simulation-table folder (table.csv with
// table.json or config.toml) is listed by its rows, held against expected, and its best sequence
// (core::sim::table_status, which counts a running sweep's parts/ too). Selecting one shows its
// summary, config, problems and adaptations; "Open" (or a double-click) reads it afresh and emits
// runOpened(), or tableOpened() for a table; "Overlay" with two or more training runs selected
// emits overlayRequested(); exactly two learning runs selected show the transfer metrics of one
// against the other. The root stays what setRoot() or the user last chose. Every read (the listing,
// Open) is a job off the GUI thread (widgets/job_tracker.h): listed() and runOpened()/tableOpened()
// say when its answer is shown.
class RunBrowser : public QWidget {
    Q_OBJECT
public:
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

    // table.csv beside table.json or config.toml: what rlda simulate and sweeps write.
    static bool isTableFolder(const core::io::RunData& run);
    static QString tableStatusText(const core::sim::TableStatus& table); // "16/16 rows", ...
    // The table status read when runs() were listed (or the run last opened); nullopt for a run
    // that is not a table folder.
    std::optional<core::sim::TableStatus> tableStatus(int index) const;

    // The transfer metrics shown, when exactly two learning runs are selected.
    std::optional<core::sim::TransferMetrics> transferMetrics() const { return transfer_; }

    // What a job reads of one run folder beside the run and its table status.
    struct Facts {
        bool tableFolder = false;
        bool configFile = false; // config.toml: a table can be finished with rlda simulate
        QDateTime modified;      // its newest file
        QString tableFile;       // table_file(run.path), for a table folder
    };
    struct Read {
        core::io::RunData run;
        std::optional<core::sim::TableStatus> table;
        Facts facts;
    };

Q_SIGNALS:
    void listed(); // a refresh's listing is shown
    void openFailed(const QString& error);
    void runOpened(const rlda::core::io::RunData& run);
    void tableOpened(const QString& tableCsv); // "Open" on a table folder: its table.csv
    void overlayRequested(const QList<rlda::core::io::RunData>& runs);

private:
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
    JobTracker listing_{this};
    JobTracker opening_{this};
};

} // namespace rlda::widgets

// Value types for queued connections and QSignalSpy. core stays Qt-free, so they are declared here.
Q_DECLARE_METATYPE(rlda::core::io::RunData)
