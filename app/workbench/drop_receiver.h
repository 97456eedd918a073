// Files and folders dropped on a window: the local paths are told apart off the GUI thread
// (drops.h), then each is handed on by what it is, one signal a kind. Anything with URLs is taken
// on the drag, so that what cannot be opened is told why on the drop.
#pragma once

#include "widgets/job_tracker.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QWidget;

namespace rlda::app {

class DropReceiver : public QObject {
    Q_OBJECT
public:
    explicit DropReceiver(QWidget& window); // accepts drops on `window` from now on
    void open(const QStringList& paths);   // as if they were dropped

Q_SIGNALS:
    void experimentDropped(const QString& path);
    void modelDropped(const QString& path);
    void tableDropped(const QString& path); // a table, or the first of a folder of tables
    void policyDropped(const QString& path);
    void runDropped(const QString& folder);
    void runsFolderDropped(const QString& folder);
    void status(const QString& text);   // for the status bar
    void problem(const QString& text);  // for the status bar and the log
    void note(const QString& text);     // for the log
    // Each path handled: what it was taken for (dropKindName) and, when refused, the reason.
    void handled(const QString& path, const QString& kind, const QString& error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    widgets::JobTracker job_{this};
};

} // namespace rlda::app
