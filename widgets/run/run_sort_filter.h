// The Runs page's sort and filter over RunListModel: numbers sort as numbers, the filter keeps the
// rows where any column shown holds its text.
#pragma once

#include <QSortFilterProxyModel>
#include <QString>

namespace rlda::widgets {

class RunColumns;

// Numbers sort as numbers (an accuracy of 0.9 before 0.85 descending, 10 epochs after 9), cells
// with one before cells without; the others by their text. The filter is case-insensitive and
// ignores the built-in columns `columns` hides.
class RunSortFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunSortFilter(RunColumns* columns, QObject* parent = nullptr);

    void setNeedle(const QString& text); // trimmed; empty keeps every row
    QString needle() const { return needle_; }

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    RunColumns* columns_;
    QString needle_;
};

} // namespace rlda::widgets
