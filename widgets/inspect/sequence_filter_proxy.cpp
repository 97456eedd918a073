// SequenceFilterProxy: which rows of the table pass the explorer's filter.
#include "widgets/inspect/sequence_filter_proxy.h"

#include "widgets/inspect/simulation_table_model.h"
#include "widgets/inspect/table_text.h"

namespace rlda::widgets {

bool SequenceFilterProxy::setFilter(const QString& pattern, double minAccuracy)
{
    tokens_.clear();
    useTokens_ = false;
    useRegex_ = false;
    minAccuracy_ = minAccuracy;
    bool valid = true;
    const QString p = pattern.trimmed();
    static const QRegularExpression wildcard(QStringLiteral("^[0-9*?,\\s]+$"));
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    if (p.isEmpty()) {
    } else if (wildcard.match(p).hasMatch()) {
        useTokens_ = true;
        // Actions are single digits (at most 6 per decision), so "20*" may be typed without spaces.
        const QStringList parts = p.contains(separators) ? p.split(separators, Qt::SkipEmptyParts)
                                                         : p.split(QString(), Qt::SkipEmptyParts);
        for (const auto& t : parts)
            tokens_.push_back(t == QLatin1String("*") || t == QLatin1String("?") ? -1 : t.toInt());
    } else {
        regex_.setPattern(p);
        valid = regex_.isValid();
        useRegex_ = valid;
    }
    invalidateFilter();
    return valid;
}

bool SequenceFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const auto* model = qobject_cast<const SimulationTableModel*>(sourceModel());
    if (sourceParent.isValid() || !model || !model->table())
        return false;
    const auto& row = model->table()->rows()[static_cast<std::size_t>(sourceRow)];
    if (row.accuracy < minAccuracy_)
        return false;
    if (useTokens_) {
        if (tokens_.size() > row.actions.size())
            return false;
        for (std::size_t i = 0; i < tokens_.size(); ++i)
            if (tokens_[i] >= 0 && tokens_[i] != row.actions[i])
                return false;
    }
    if (useRegex_ && !regex_.match(sequenceText(row.actions)).hasMatch())
        return false;
    return true;
}

} // namespace rlda::widgets
