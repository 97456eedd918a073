// SequenceFilterProxy: the explorer's filter over a SimulationTableModel: action tokens with
// wildcards ("2 0 *", a prefix "2"), else a regular expression on the sequence text, and a minimum
// accuracy. Sorting is QSortFilterProxyModel's, on SimulationTableModel::SortRole.
#pragma once

#include <QRegularExpression>
#include <QSortFilterProxyModel>

#include <vector>

namespace rlda::widgets {

class SequenceFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    // `minAccuracy` is a fraction. Returns false (and filters by accuracy alone) for an invalid regex.
    bool setFilter(const QString& pattern, double minAccuracy);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::vector<int> tokens_; // -1 = any action; shorter than k = a prefix
    bool useTokens_ = false;
    QRegularExpression regex_;
    bool useRegex_ = false;
    double minAccuracy_ = 0.0;
};

} // namespace rlda::widgets
