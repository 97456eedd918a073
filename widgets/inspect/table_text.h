// How the table explorer's parts write a sequence ("2 0 3", or "d2 w0 -" for actions of several
// operations) and an accuracy ("71.94%").
#pragma once

#include "core/model/actions.h"
#include "core/table/results.h"

#include <QString>
#include <QStringList>

#include <optional>

#include <vector>

namespace rlda::widgets {

inline QString sequenceText(const std::vector<int>& actions)
{
    return QString::fromStdString(core::sim::sequence_string(actions));
}

// One action as a table of these actions names it: "2" for the paper's (deepen only), "w1" ("-"
// for Do Nothing) when the actions are of several operations, or the number outside the space.
inline QString actionText(int action, const std::optional<core::model::ActionSpace>& space)
{
    return space ? QString::fromStdString(space->sequence_text({action})) : QString::number(action);
}

// "2 0 3", or "d2 w0 -" for actions of several operations.
inline QString sequenceText(const std::vector<int>& actions, const std::optional<core::model::ActionSpace>& space)
{
    return space ? QString::fromStdString(space->sequence_text(actions)) : sequenceText(actions);
}

inline QString percentText(double fraction) { return QString::number(100.0 * fraction, 'f', 2) + QLatin1Char('%'); }

} // namespace rlda::widgets
