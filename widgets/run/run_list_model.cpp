// The Runs page's runs as a table model, merged listing by listing.
#include "widgets/run/run_list_model.h"

#include "widgets/run/run_columns.h"

#include <QBrush>
#include <QSet>

namespace rlda::widgets {

namespace {

QString pathOf(const core::io::RunData& run) { return QString::fromStdString(run.path.string()); }

} // namespace

RunListModel::RunListModel(RunColumns* columns, QObject* parent)
    : QAbstractTableModel(parent)
    , columns_(columns)
{
    connect(columns_, &RunColumns::extrasChanged, this, [this] {
        beginResetModel();
        for (int row = 0; row < runs_.size(); ++row)
            cells_[row] = cellsOf(row);
        endResetModel();
    });
}

int RunListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(runs_.size()); }

int RunListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : RunColumns::BuiltIns + int(columns_->extras().size());
}

QVariant RunListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) ||
        (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != Qt::ForegroundRole && role != SortRole))
        return {};
    const auto& cell = cells_[index.row()][index.column()];
    switch (role) {
    case Qt::DisplayRole:
        return cell.text;
    case Qt::ToolTipRole:
        return cell.toolTip.isEmpty() ? QVariant() : QVariant(cell.toolTip);
    case Qt::ForegroundRole:
        return cell.colour.isValid() ? QVariant(QBrush(cell.colour)) : QVariant();
    default:
        return cell.number;
    }
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool extra = section >= RunColumns::BuiltIns;
    const QString id = extra ? columns_->extras().at(section - RunColumns::BuiltIns) : RunColumns::builtInId(section);
    if (role == Qt::DisplayRole)
        return RunColumns::label(id);
    if (role == Qt::ToolTipRole && extra)
        return RunColumns::hint(id);
    return {};
}

RunListModel::Merge RunListModel::setListing(const QString& root, QList<RunRead> reads)
{
    Merge m;
    QHash<QString, int> old;
    for (int i = 0; i < runs_.size(); ++i)
        old.insert(pathOf(runs_[i]), i);
    QSet<QString> listed;
    m.samePaths = root == root_ && reads.size() == runs_.size();
    for (int i = 0; i < reads.size(); ++i) {
        listed.insert(pathOf(reads[i].run));
        m.samePaths = m.samePaths && old.value(pathOf(reads[i].run), -1) == i;
    }
    // The rows gone, each stretch removed at once from the end.
    for (int end = int(runs_.size()) - 1; end >= 0 && root == root_;) {
        int first = end;
        while (first >= 0 && !listed.contains(pathOf(runs_[first])))
            --first;
        if (first < end) {
            beginRemoveRows({}, first + 1, end);
            runs_.erase(runs_.begin() + first + 1, runs_.begin() + end + 1);
            facts_.erase(facts_.begin() + first + 1, facts_.begin() + end + 1);
            cells_.erase(cells_.begin() + first + 1, cells_.begin() + end + 1);
            endRemoveRows();
        }
        end = first - 1;
    }
    // What is left keeps its order in the listing: the new rows go in between. A new root, or runs
    // listed in another order, start afresh.
    QList<int> kept;
    for (int i = 0; i < reads.size(); ++i)
        if (old.contains(pathOf(reads[i].run)))
            kept << i;
    bool inOrder = root == root_ && kept.size() == runs_.size();
    for (int k = 0; inOrder && k < kept.size(); ++k)
        inOrder = reads[kept[k]].run.path == runs_[k].path;
    if (!inOrder) {
        QHash<QString, int> at; // where each run left is now
        for (int i = 0; root == root_ && i < runs_.size(); ++i)
            at.insert(pathOf(runs_[i]), i);
        beginResetModel();
        QList<core::io::RunData> runs;
        QList<RunFacts> facts;
        for (int i = 0; i < reads.size(); ++i) {
            const int was = at.value(pathOf(reads[i].run), -1);
            const bool keep = reads[i].unchanged && was >= 0;
            runs.push_back(keep ? runs_[was] : std::move(reads[i].run));
            facts.push_back(keep ? facts_[was] : std::move(reads[i].facts));
            if (!keep)
                m.changed << i;
        }
        root_ = root;
        runs_ = std::move(runs);
        facts_ = std::move(facts);
        cells_.clear();
        for (int row = 0; row < runs_.size(); ++row)
            cells_.push_back(cellsOf(row));
        endResetModel();
        return m;
    }
    for (int i = 0; i < reads.size();) {
        if (i < runs_.size() && runs_[i].path == reads[i].run.path) {
            if (!reads[i].unchanged) {
                runs_[i] = std::move(reads[i].run);
                facts_[i] = std::move(reads[i].facts);
                m.changed << i;
                rowChanged(i);
            }
            ++i;
            continue;
        }
        int last = i; // a stretch of new runs
        while (last + 1 < reads.size() && !old.contains(pathOf(reads[last + 1].run)))
            ++last;
        beginInsertRows({}, i, last);
        for (int j = i; j <= last; ++j) {
            runs_.insert(j, std::move(reads[j].run));
            facts_.insert(j, std::move(reads[j].facts));
            cells_.insert(j, cellsOf(j));
            m.changed << j;
        }
        endInsertRows();
        i = last + 1;
    }
    return m;
}

int RunListModel::updateRun(RunRead read)
{
    const int row = rowOf(read.run.path);
    if (row >= 0) {
        runs_[row] = std::move(read.run);
        facts_[row] = std::move(read.facts);
        rowChanged(row);
    }
    return row;
}

void RunListModel::setNotes(const std::filesystem::path& run, const core::io::RunNotes& notes)
{
    if (const int row = rowOf(run); row >= 0) {
        facts_[row].notes = notes;
        facts_[row].notesError.clear();
        rowChanged(row);
    }
}

std::optional<core::sim::TableStatus> RunListModel::tableStatus(int row) const
{
    return row >= 0 && row < facts_.size() ? facts_[row].table : std::nullopt;
}

int RunListModel::rowOf(const std::filesystem::path& run) const
{
    for (int i = 0; i < runs_.size(); ++i)
        if (runs_[i].path == run)
            return i;
    return -1;
}

QList<RunColumns::Cell> RunListModel::cellsOf(int row) const
{
    QList<RunColumns::Cell> cells;
    for (int c = 0; c < columnCount(); ++c)
        cells << RunColumns::cell(c < RunColumns::BuiltIns ? RunColumns::builtInId(c)
                                                           : columns_->extras().at(c - RunColumns::BuiltIns),
                                  runs_[row], facts_[row], root_);
    return cells;
}

void RunListModel::rowChanged(int row)
{
    cells_[row] = cellsOf(row);
    Q_EMIT dataChanged(index(row, 0), index(row, columnCount() - 1));
}

} // namespace rlda::widgets
