// File -> Open the paper's tables and Open the Fashion-MNIST tables: the tables that ship with the
// program, the original system's (data/paper/tables) and this project's (data/fashion-mnist/tables).
// Each index is read off the GUI thread and fills its menu when it answers; until then, or when it
// cannot be read (the menu's tooltip says why), the menu is disabled.
#pragma once

#include "widgets/job_tracker.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QMenu;

namespace rlda::app {

class ShippedTables : public QObject {
    Q_OBJECT
public:
    ShippedTables(QMenu& file, QObject* parent); // adds the two menus to `file`
    // The paper's tables, once its index has been read (empty before).
    QStringList paperTables() const { return paperTables_; }

Q_SIGNALS:
    void openRequested(const QString& table);

private:
    void addMenu(QMenu& file, const QString& title, const QString& name, widgets::JobTracker& job,
                 std::string (*index)(), QStringList* paths);

    QStringList paperTables_;
    widgets::JobTracker paperJob_{this};
    widgets::JobTracker fashionJob_{this};
};

} // namespace rlda::app
