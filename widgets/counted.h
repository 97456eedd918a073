// A count with its noun in the right number, "1 part" and "3 parts": the English the workbench
// shows without a translation file (Qt's %n plurals need one to drop their "(s)").
#pragma once

#include <QString>

namespace rlda::widgets {

// `one` and `many` are already translated: counted(n, tr("part"), tr("parts")).
inline QString counted(qint64 n, const QString& one, const QString& many)
{
    return QStringLiteral("%L1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace rlda::widgets
