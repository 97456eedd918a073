// The Runs page as its tests reach it: the table view (over the sort/filter proxy), the model of
// its runs, its columns, and the text of one run's cell, by the run's name.
#pragma once

#include "widgets/run/run_browser.h"
#include "widgets/run/run_columns.h"
#include "widgets/run/run_list_model.h"

#include <QString>
#include <QTableView>

namespace rlda::tests {

inline QTableView* runTable(widgets::RunBrowser& b) { return b.findChild<QTableView*>(QStringLiteral("runTable")); }
inline widgets::RunListModel* runModel(widgets::RunBrowser& b)
{
    return b.findChild<widgets::RunListModel*>(QStringLiteral("runModel"));
}
inline widgets::RunColumns* runColumns(widgets::RunBrowser& b)
{
    return b.findChild<widgets::RunColumns*>(QStringLiteral("runColumns"));
}

// The cell of the run named `name` (the Run column's text) in the model's column `column`, shown
// or filtered out.
inline QString cell(widgets::RunBrowser& b, const QString& name, int column)
{
    const auto* m = runModel(b);
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, 0).data().toString() == name)
            return m->index(r, column).data().toString();
    return {};
}

// The text of a cell of the table as it shows it: sorted and filtered.
inline QString shownCell(widgets::RunBrowser& b, int row, int column)
{
    return runTable(b)->model()->index(row, column).data().toString();
}

} // namespace rlda::tests
