// The Runs page's sort and filter over RunListModel.
#include "widgets/run/run_sort_filter.h"

#include "widgets/run/run_columns.h"
#include "widgets/run/run_list_model.h"

namespace rlda::widgets {

RunSortFilter::RunSortFilter(RunColumns* columns, QObject* parent)
    : QSortFilterProxyModel(parent)
    , columns_(columns)
{
    // A column hidden or shown again changes what the filter reads.
    connect(columns_, &RunColumns::changed, this, [this] {
        if (!needle_.isEmpty())
            invalidateFilter();
    });
}

void RunSortFilter::setNeedle(const QString& text)
{
    const QString needle = text.trimmed();
    if (needle == needle_)
        return;
    needle_ = needle;
    invalidateFilter();
}

bool RunSortFilter::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(RunListModel::SortRole);
    const QVariant b = right.data(RunListModel::SortRole);
    if (a.isValid() && b.isValid())
        return a.toDouble() < b.toDouble();
    if (a.isValid() != b.isValid())
        return a.isValid();
    return left.data().toString() < right.data().toString();
}

bool RunSortFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (needle_.isEmpty())
        return true;
    const auto* model = sourceModel();
    for (int c = 0; c < model->columnCount(sourceParent); ++c)
        if ((c >= RunColumns::BuiltIns || !columns_->isHidden(c)) &&
            model->index(sourceRow, c, sourceParent).data().toString().contains(needle_, Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace rlda::widgets
