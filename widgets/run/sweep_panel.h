// A simulation sweep at a glance: submit one to a backend, follow each task's state and rows, and
// cancel it. A view only: the app polls the backend and hands over SweepStatus values.
#pragma once

#include "core/config/names.h"
#include "core/sweep/status.h"

#include <QElapsedTimer>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace rlda::widgets {

class SweepPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { PartColumn = 0, StateColumn, RowsColumn, AttemptsColumn, IdColumn, DetailColumn, ColumnCount };
    static constexpr int StateRole = Qt::UserRole; // int: core::sweep::TaskState

    explicit SweepPanel(QWidget* parent = nullptr);

    core::config::SweepBackend backend() const;
    void setBackend(core::config::SweepBackend backend);
    int workers() const; // parts: worker processes or array tasks
    void setWorkers(int workers);
    // Seeds: the table built at this many seeds from job.seed (sweep.seeds), its noise measured;
    // 1 = the experiment's own seeds (job.seed alone unless its sweep.seeds lists more).
    int replicates() const;
    void setReplicates(int replicates);
    // Seed values instead of a count ("42 43 44", the field beside Seeds; issue 43, item 22): the
    // seeds the table is built at, in order. Empty when the field is; `problem` says why the text
    // is no list of distinct whole seeds (at most kMaxReplicates), and the list is then empty.
    std::vector<std::int64_t> seedValues(QString* problem = nullptr) const;
    QString seedValuesText() const;
    void setSeedValuesText(const QString& text);
    // Where the rows train (job.device for this sweep): "" keeps the experiment's own, else one of
    // the schema's device names ("cpu", "cuda", "cuda:N").
    QString device() const;
    void setDevice(const QString& device);
    // Whether replicated seeds train fused (sweep.fused for this sweep): "" keeps the experiment's
    // own, else one of the schema's names ("auto", "on", "off").
    QString fused() const;
    void setFused(const QString& fused);
    // Race (sweep.race): after every sequence is built at the seeds (at least 2; 3 from job.seed when
    // Seeds is 1), new seeds only for the sequences still in the confidence set for the best.
    bool race() const;
    void setRace(bool race);

    // The sweep shown: its folder and backend, and whether one is in progress (enables Cancel).
    void setSweep(const QString& folder, core::config::SweepBackend backend);
    void setStatus(const core::sweep::SweepStatus& status);
    void setActive(bool active);
    void setMessage(const QString& text);
    // The build's stages, in the order they run: the warm start, the rows, the table collected;
    // each done (✓), under way (bold) or to come. `warmStartDone`: the warm start is trained.
    void setStages(bool warmStartDone, const core::sweep::SweepStatus& status, bool alive);
    QString stagesText() const;
    bool isActive() const { return active_; }
    QTableWidget* tasks() const { return tasks_; }
    QString summaryText() const;

Q_SIGNALS:
    void submitRequested(core::config::SweepBackend backend, int workers);
    void cancelRequested();
    void openTableRequested(); // the collected table of the sweep shown

private:
    QComboBox* backend_ = nullptr;
    QSpinBox* workers_ = nullptr;
    QSpinBox* seeds_ = nullptr;
    QLineEdit* seedValues_ = nullptr;
    QLabel* stages_ = nullptr;
    QComboBox* device_ = nullptr;
    QComboBox* fused_ = nullptr;
    QCheckBox* race_ = nullptr;
    QPushButton* submit_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* open_ = nullptr;
    QLabel* folder_ = nullptr;
    QLabel* summary_ = nullptr;
    QElapsedTimer followed_; // since the first status of the sweep shown
    int firstRows_ = -1;     // its rows then; -1 before it
    QLabel* message_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QTableWidget* tasks_ = nullptr;
    bool active_ = false;
};

} // namespace rlda::widgets
