// A wall-clock duration as the run widgets print it: "45 s", "12:05", "1:02:03", "—" when unknown.
#pragma once

#include <QLatin1Char>
#include <QString>

#include <cmath>

namespace rlda::widgets {

inline QString durationText(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return QStringLiteral("—");
    const auto total = static_cast<qint64>(std::llround(seconds));
    if (total < 60)
        return QStringLiteral("%1 s").arg(total);
    if (total < 3600)
        return QStringLiteral("%1:%2").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2:%3")
        .arg(total / 3600)
        .arg(total / 60 % 60, 2, 10, QLatin1Char('0'))
        .arg(total % 60, 2, 10, QLatin1Char('0'));
}

} // namespace rlda::widgets
