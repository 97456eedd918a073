// How the table explorer's parts write a sequence ("2 0 3") and an accuracy ("71.94%").
#pragma once

#include "core/sim/results.h"

#include <QString>

#include <vector>

namespace rlda::widgets {

inline QString sequenceText(const std::vector<int>& actions)
{
    return QString::fromStdString(core::sim::sequence_string(actions));
}

inline QString percentText(double fraction) { return QString::number(100.0 * fraction, 'f', 2) + QLatin1Char('%'); }

} // namespace rlda::widgets
