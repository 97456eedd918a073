// The Runs page's runs as a table model: a row per run folder listed, a column per column shown.
#pragma once

#include "widgets/run/run_columns.h"
#include "widgets/run/run_listing.h"

#include <QAbstractTableModel>
#include <QList>

namespace rlda::widgets {

// Rows are the runs in listing order (find_runs' sorted paths): a view sorts and filters through a
// proxy (RunSortFilter). Columns are RunColumns': the five built-in ones, then the extras shown.
// A new listing is merged, not reset: rows gone are removed, new ones inserted and changed ones
// updated in place, each signalled as such, so a view keeps its selection and scroll. A change of
// the extra columns resets the model.
class RunListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int SortRole = Qt::UserRole + 1; // a number to sort a cell by, where it has one

    explicit RunListModel(RunColumns* columns, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    struct Merge {
        bool samePaths = false; // the same runs in the same rows as before
        QList<int> changed;     // rows read anew
    };
    // A listing of `root`. A read marked unchanged keeps the run listed under its path. A new root
    // resets the model (the names are relative to it).
    Merge setListing(const QString& root, QList<RunRead> reads);
    // One run read again (Open): its row updated, found by its folder; -1 when it is gone.
    int updateRun(RunRead read);
    // Notes written to a run's notes.json: its row updated.
    void setNotes(const std::filesystem::path& run, const core::io::RunNotes& notes);

    QString root() const { return root_; }
    const QList<core::io::RunData>& runs() const { return runs_; }
    const QList<RunFacts>& facts() const { return facts_; } // one per run
    // The table status read for the run in `row`; nullopt for a run that is not a table folder.
    std::optional<core::sim::TableStatus> tableStatus(int row) const;
    int rowOf(const std::filesystem::path& run) const; // -1 when not listed

private:
    void rowChanged(int row); // its cells made again, then signalled
    QList<RunColumns::Cell> cellsOf(int row) const;

    RunColumns* columns_;
    QString root_;
    QList<core::io::RunData> runs_;
    QList<RunFacts> facts_; // one per run
    // Each row's cells, made when the row is set: a view asks for them at every paint and sort.
    QList<QList<RunColumns::Cell>> cells_;
};

} // namespace rlda::widgets
