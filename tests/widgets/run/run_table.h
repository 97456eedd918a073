// The run browser's table as its tests read it: the text of one run's cell, by the run's name.
#pragma once

#include "widgets/run/run_browser.h"

#include <QString>
#include <QTableWidget>

namespace rlda::tests {

inline QString cell(widgets::RunBrowser& b, const QString& name, int column)
{
    auto* t = b.findChild<QTableWidget*>(QStringLiteral("runTable"));
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, 0)->text() == name)
            return t->item(r, column)->text();
    return {};
}

} // namespace rlda::tests
