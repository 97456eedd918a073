// SimulationTableModel: the table's rows, ranked once, as display text and raw sort values.
#include "widgets/inspect/simulation_table_model.h"

#include "widgets/inspect/table_text.h"

#include <QFont>

#include <algorithm>
#include <functional>

namespace rlda::widgets {
SimulationTableModel::SimulationTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SimulationTableModel::setTable(const core::sim::SimulationTable& table,
                                    const std::optional<core::model::ActionSpace>& actions)
{
    actions_ = actions;
    beginResetModel();
    table_ = table;
    ranks_.clear();
    optimalRow_ = -1;
    optimal_ = 0.0;
    const auto& rows = table_->rows();
    if (!rows.empty()) {
        const auto& best = table_->optimal();
        optimalRow_ = static_cast<int>(&best - rows.data());
        optimal_ = best.accuracy;
        // rank() scans the table per call; sorting the accuracies once keeps big tables instant.
        std::vector<double> acc;
        acc.reserve(rows.size());
        for (const auto& r : rows)
            acc.push_back(r.accuracy);
        std::sort(acc.begin(), acc.end(), std::greater<>());
        for (const auto& r : rows) {
            const auto higher = std::lower_bound(acc.begin(), acc.end(), r.accuracy, std::greater<>()) - acc.begin();
            ranks_.push_back(1 + static_cast<int>(higher));
        }
    }
    endResetModel();
}

void SimulationTableModel::clear()
{
    beginResetModel();
    table_.reset();
    ranks_.clear();
    optimalRow_ = -1;
    endResetModel();
}

int SimulationTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !table_ ? 0 : static_cast<int>(table_->rows().size());
}

int SimulationTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !table_ ? 0 : 2 * decisions() + 4;
}

QVariant SimulationTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || !table_)
        return QAbstractTableModel::headerData(section, orientation, role);
    const int k = decisions();
    if (role == Qt::DisplayRole) {
        if (section < k)
            return QStringLiteral("a%1").arg(section + 1);
        if (section == sequenceColumn())
            return tr("sequence");
        if (section < accuracyColumn())
            return QStringLiteral("timeleft%1").arg(section - k);
        if (section == accuracyColumn())
            return tr("accuracy");
        if (section == rankColumn())
            return tr("rank");
        if (section == deltaColumn())
            return tr("Δ optimal");
    }
    if (role == Qt::ToolTipRole) {
        if (section < k && actions_ && !actions_->deepen_only())
            return tr("Action at decision %1: d = deepen, w = widen that original block, - = do nothing")
                .arg(section + 1);
        if (section < k)
            return tr("Action at decision %1: 0..%2 deepen that original block, %3 = do nothing")
                .arg(section + 1)
                .arg(table_->do_nothing() - 1)
                .arg(table_->do_nothing());
        if (section > k && section < accuracyColumn())
            return tr("Seconds left in the budget when decision %1 was made").arg(section - k);
        if (section == rankColumn())
            return tr("1 = best; ties share the best rank");
        if (section == deltaColumn())
            return tr("Accuracy minus the optimal accuracy, in percentage points");
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

QVariant SimulationTableModel::data(const QModelIndex& index, int role) const
{
    if (!table_ || !index.isValid() || index.row() >= rowCount())
        return {};
    const int r = index.row();
    const int c = index.column();
    const int k = decisions();
    const auto& row = table_->rows()[static_cast<std::size_t>(r)];

    switch (role) {
    case RowRole:
        return r;
    case SequenceRole:
        return sequenceText(row.actions, actions_);
    case OptimalRole:
        return r == optimalRow_;
    case Qt::TextAlignmentRole:
        return c == sequenceColumn() ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                     : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (r == optimalRow_) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (c == accuracyColumn())
            return QString::number(row.accuracy, 'g', 10);
        return {};
    default:
        break;
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    if (c < k) {
        const int action = row.actions[static_cast<std::size_t>(c)];
        return display && actions_ && !actions_->deepen_only() ? QVariant(actionText(action, actions_)) : QVariant(action);
    }
    if (c == sequenceColumn())
        // Rows are kept in lexicographic order, so the row index sorts sequences as numbers would.
        return display ? QVariant(sequenceText(row.actions, actions_)) : QVariant(r);
    if (c < accuracyColumn()) {
        const double t = row.time_left[static_cast<std::size_t>(c - k - 1)];
        return display ? QVariant(QString::number(t, 'f', 1)) : QVariant(t);
    }
    if (c == accuracyColumn())
        return display ? QVariant(percentText(row.accuracy)) : QVariant(row.accuracy);
    if (c == rankColumn())
        return ranks_[static_cast<std::size_t>(r)];
    if (c == deltaColumn()) {
        const double d = row.accuracy - optimal_;
        if (!display)
            return d;
        if (d == 0.0)
            return QStringLiteral("0.00");
        return QStringLiteral("−") + QString::number(-100.0 * d, 'f', 2);
    }
    return {};
}

} // namespace rlda::widgets
