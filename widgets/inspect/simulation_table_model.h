// SimulationTableModel: a simulation table as an item model, one row per sequence present, with
// each row's rank and its distance to the optimal accuracy. No widget: views and proxies sit on it.
#pragma once

#include "core/model/actions.h"
#include "core/sim/table.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace rlda::widgets {

// One row per sequence present in the table (a partial table has fewer than sequences()).
// Columns: a1..ak, sequence, timeleft1..k, accuracy, rank, Δ to optimal.
class SimulationTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole + 1, // raw value: int action / sequence code / double / int rank
        RowRole,                     // int: index into table().rows() (any column)
        SequenceRole,                // QString "2 0 3" (any column)
        OptimalRole,                 // bool: this row is table().optimal() (any column)
    };

    explicit SimulationTableModel(QObject* parent = nullptr);

    // `actions`: what the action numbers mean, for the sequence column; nullopt = the paper's.
    void setTable(const core::sim::SimulationTable& table,
                  const std::optional<core::model::ActionSpace>& actions = std::nullopt);
    void clear();
    const std::optional<core::sim::SimulationTable>& table() const { return table_; }

    int decisions() const { return table_ ? table_->decisions() : 0; }
    int actionColumn(int i) const { return i; }
    int sequenceColumn() const { return decisions(); }
    int timeLeftColumn(int i) const { return decisions() + 1 + i; }
    int accuracyColumn() const { return 2 * decisions() + 1; }
    int rankColumn() const { return 2 * decisions() + 2; }
    int deltaColumn() const { return 2 * decisions() + 3; }
    int rankOf(int tableRow) const { return ranks_[static_cast<std::size_t>(tableRow)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::optional<core::sim::SimulationTable> table_;
    std::optional<core::model::ActionSpace> actions_;
    std::vector<int> ranks_;
    int optimalRow_ = -1;
    double optimal_ = 0.0;
};

} // namespace rlda::widgets
