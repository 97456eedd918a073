// File -> Recent: one submenu per kind of file (workspace::Recent), newest first. Whether each file is
// still there is checked off the GUI thread each time a list opens; an entry whose file is gone is
// greyed, not dropped (a disk not mounted now comes back). Choosing an entry asks for it to be opened.
#pragma once

#include "app/workbench/workspace.h"
#include "widgets/job_tracker.h"

#include <QObject>
#include <QString>

#include <array>
#include <iterator>

class QMenu;

namespace rlda::app {

class RecentMenus : public QObject {
    Q_OBJECT
public:
    // The submenus are added to `file`, empty until the lists are in use.
    RecentMenus(QMenu& file, QObject* parent);

    // Whether the lists are read from and written to the settings: only the program's window does
    // (MainWindow::restoreWorkspace); a window made for a test keeps none.
    void setInUse(bool inUse) { inUse_ = inUse; }
    bool inUse() const { return inUse_; }
    QMenu* menu(workspace::Recent kind) const { return menus_[static_cast<std::size_t>(kind)]; }
    // `path` first in its list, when the lists are in use.
    void add(workspace::Recent kind, const QString& path);
    // Checks which files still exist, then fills the submenus; checked() when they are filled.
    void refresh();

Q_SIGNALS:
    void openRequested(rlda::app::workspace::Recent kind, const QString& path);
    void checked();

private:
    void fill(workspace::Recent kind, const QStringList& files, const QList<bool>& exist);

    std::array<QMenu*, std::size(workspace::kRecentKinds)> menus_{};
    bool inUse_ = false;
    widgets::JobTracker job_{this};
};

} // namespace rlda::app
