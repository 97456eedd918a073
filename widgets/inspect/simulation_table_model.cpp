// SimulationTableModel: the table's rows, ranked once, as display text and raw sort values.
#include "widgets/inspect/simulation_table_model.h"

#include "widgets/inspect/table_text.h"

#include <QFont>

#include <algorithm>
#include <cmath>
#include <functional>

namespace rlda::widgets {
SimulationTableModel::SimulationTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SimulationTableModel::setTable(const core::sim::SimulationTable& table,
                                    const std::optional<core::model::ActionSpace>& actions,
                                    core::sim::TableTrust trust)
{
    actions_ = actions;
    beginResetModel();
    table_ = table;
    trust_ = std::move(trust);
    if (trust_.bootstrap && trust_.bootstrap->mean_rank.size() != table_->rows().size())
        trust_ = {}; // another table's: shown without seed columns rather than misaligned
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
    trust_ = {};
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
    if (parent.isValid() || !table_)
        return 0;
    return 2 * decisions() + 4 + (hasSeedColumns() ? 3 + static_cast<int>(table_->seeds().size()) : 0);
}

QVariant SimulationTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // A row's header is its sequence, so that the view can keep it in sight while it scrolls right
    // to the seeds' columns (issue 43, item 21).
    if (orientation == Qt::Vertical && table_ && section >= 0 && section < rowCount()) {
        if (role == Qt::DisplayRole)
            return data(index(section, sequenceColumn()), Qt::DisplayRole);
        if (role == Qt::ToolTipRole)
            return tr("The sequence of actions (each decision's)");
    }
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
        if (section == sdColumn())
            return tr("± sd");
        if (section == bestShareColumn())
            return tr("P(best)");
        if (section == rankIntervalColumn())
            return tr("rank 95 %");
        if (hasSeedColumns() && section >= seedColumn(0))
            return tr("seed %1").arg(table_->seeds()[static_cast<std::size_t>(section - seedColumn(0))]);
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
        if (section == accuracyColumn() && table_->replicated())
            return tr("The mean accuracy over the table's %1 seeds").arg(table_->seeds().size());
        if (section == sdColumn())
            return tr("Standard deviation of the accuracy over the seeds, in percentage points");
        if (section == bestShareColumn())
            return tr("In how many resamples of the seeds this sequence is the best (bootstrap; descriptive, "
                      "not a confidence set: ☆ marks the 95 % confidence set for the best)");
        if (section == rankIntervalColumn())
            return tr("Its rank's 95 % interval (marginal: each row's holds at 95 %, not all at once; the "
                      "seed-blocked model)");
        if (hasSeedColumns() && section >= seedColumn(0))
            return tr("The accuracy when the table is built at this seed");
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
    case BestSetRole:
        return hasSeedColumns() &&
               std::find(trust_.best_set.begin(), trust_.best_set.end(), r) != trust_.best_set.end();
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
    if (!hasSeedColumns())
        return {};
    const auto i = static_cast<std::size_t>(r);
    const auto& b = *trust_.bootstrap;
    if (c == sdColumn())
        return display ? QVariant(QString::number(100.0 * trust_.sd[i], 'f', 2)) : QVariant(trust_.sd[i]);
    if (c == bestShareColumn())
        return display ? QVariant(QStringLiteral("%1 %").arg(100.0 * b.best_share[i], 0, 'f', 0)) : QVariant(b.best_share[i]);
    if (c == rankIntervalColumn())
        return display ? QVariant(QStringLiteral("%1–%2").arg(trust_.rank_low[i]).arg(trust_.rank_high[i]))
                       : QVariant(trust_.rank_low[i] * 1000000 + trust_.rank_high[i]);
    if (c >= seedColumn(0)) {
        const double a = row.replicates[static_cast<std::size_t>(c - seedColumn(0))];
        if (std::isnan(a)) // a race's later seed, not given to this sequence: sorted below every accuracy
            return display ? QVariant(QStringLiteral("—")) : QVariant(-1.0);
        return display ? QVariant(percentText(a)) : QVariant(a);
    }
    return {};
}

} // namespace rlda::widgets
