// Run folders under a root: a table of runs, a read-only summary of one, overlay and transfer.
#pragma once

#include "core/io/run_reader.h"
#include "core/sim/transfer.h"

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
// reads each with read_run() and never writes into it. Selecting one shows its summary, config,
// problems and adaptations; "Open" (or a double-click) reads it afresh and emits runOpened();
// "Overlay" with two or more selected emits overlayRequested(); exactly two learning runs
// selected show the transfer metrics of one against the other.
class RunBrowser : public QWidget {
    Q_OBJECT
public:
    explicit RunBrowser(QWidget* parent = nullptr);

    void setRoot(const QString& folder); // and refresh()
    QString root() const { return root_; }
    void refresh();

    const QList<core::io::RunData>& runs() const { return runs_; } // in table order
    QList<core::io::RunData> selectedRuns() const;
    void selectRuns(const QList<int>& rows); // for code and tests
    bool openRun(int row);                   // false when it cannot be read any more

    // "finished", "cancelled", "killed (truncated)" or "incomplete".
    static QString status(const core::io::RunData& run);

    // The transfer metrics shown, when exactly two learning runs are selected.
    std::optional<core::sim::TransferMetrics> transferMetrics() const { return transfer_; }

Q_SIGNALS:
    void runOpened(const rlda::core::io::RunData& run);
    void overlayRequested(const QList<rlda::core::io::RunData>& runs);

private:
    void onSelectionChanged();
    void showSummary(const core::io::RunData* run);
    void updateTransfer();
    void fillRow(int row, const core::io::RunData& run);

    QString root_;
    QList<core::io::RunData> runs_;
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
};

} // namespace rlda::widgets

// Value types for queued connections and QSignalSpy. core stays Qt-free, so they are declared here.
Q_DECLARE_METATYPE(rlda::core::io::RunData)
