// SimulationTableModel: a simulation table as an item model, one row per sequence present, with
// each row's rank and its distance to the optimal accuracy, and for a replicated table what its
// seeds say of each row (core/table/reliability.h). No widget: views and proxies sit on it.
#pragma once

#include "core/model/actions.h"
#include "core/table/reliability.h"
#include "core/table/table.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace rlda::widgets {

// One row per sequence present in the table (a partial table has fewer than sequences()).
// Columns: a1..ak, sequence, timeleft1..k, accuracy (a replicated table's: the mean over its
// seeds), rank, Δ to optimal; then, for a replicated table with its TableTrust, ± sd, P(best), the
// rank's 95 % interval over the seeds, and one column per seed.
class SimulationTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole + 1, // raw value: int action / sequence code / double / int rank
        RowRole,                     // int: index into table().rows() (any column)
        SequenceRole,                // QString "2 0 3" (any column)
        OptimalRole,                 // bool: this row is table().optimal() (any column)
        BestSetRole,                 // bool: in the 95 % confidence set for the best (replicated)
    };

    explicit SimulationTableModel(QObject* parent = nullptr);

    // `actions`: what the action numbers mean, for the sequence column; nullopt = the paper's.
    // `trust`: what the table's seeds say (core::sim::table_trust), computed by the caller off the
    // GUI thread; without it a replicated table shows no seed columns.
    void setTable(const core::sim::SimulationTable& table,
                  const std::optional<core::model::ActionSpace>& actions = std::nullopt,
                  core::sim::TableTrust trust = {});
    const core::sim::TableTrust& trust() const { return trust_; }
    bool hasSeedColumns() const { return table_ && table_->replicated() && trust_.bootstrap.has_value(); }
    void clear();
    const std::optional<core::sim::SimulationTable>& table() const { return table_; }

    int decisions() const { return table_ ? table_->decisions() : 0; }
    int sequenceColumn() const { return decisions(); }
    int timeLeftColumn(int i) const { return decisions() + 1 + i; }
    int accuracyColumn() const { return 2 * decisions() + 1; }
    int rankColumn() const { return 2 * decisions() + 2; }
    int deltaColumn() const { return 2 * decisions() + 3; }
    // Replicated tables only (hasSeedColumns()); -1 otherwise.
    int sdColumn() const { return hasSeedColumns() ? 2 * decisions() + 4 : -1; }
    int bestShareColumn() const { return hasSeedColumns() ? 2 * decisions() + 5 : -1; }
    int rankIntervalColumn() const { return hasSeedColumns() ? 2 * decisions() + 6 : -1; }
    int seedColumn(int i) const { return hasSeedColumns() ? 2 * decisions() + 7 + i : -1; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::optional<core::sim::SimulationTable> table_;
    std::optional<core::model::ActionSpace> actions_;
    std::vector<int> ranks_;
    core::sim::TableTrust trust_;
    int optimalRow_ = -1;
    double optimal_ = 0.0;
};

} // namespace rlda::widgets
