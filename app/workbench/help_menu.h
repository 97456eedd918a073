// The Help menu: About (versions, licence, whether CUDA is there), Documentation (the shipped
// README and docs/, drawn in the workbench's own window) and Keyboard shortcuts (every action's,
// read from the menus, so the list is the real one). LibTorch's version and the GPUs are asked of
// the installed engine (app/workbench/engine.h).
#pragma once

#include "widgets/job_tracker.h"

#include <QObject>
#include <QString>

class QDialog;
class QMainWindow;
class QMenu;
class QMessageBox;

namespace rlda::app {

class DocumentationWindow;

// The About box's text (rich text): version, licence, LibTorch, Qt (built with and running), CUDA.
QString aboutText();
QMessageBox* makeAboutBox(QWidget* parent); // deleted on close

// Every action with a shortcut in `window`'s menu bar, by menu, and the plots' mouse gestures.
QDialog* makeShortcutsDialog(QMainWindow& window); // deleted on close

// Fills `menu` (Help) for `window`: Documentation, Keyboard shortcuts, About.
class HelpMenu : public QObject {
    Q_OBJECT
public:
    HelpMenu(QMainWindow& window, QMenu& menu);

    // Opens the documentation once it is found off the GUI thread; documentationOpened() says how.
    void openDocumentation();
    DocumentationWindow* documentation(); // made on first use

Q_SIGNALS:
    // The page shown, or `error` saying why not.
    void documentationOpened(const QString& file, const QString& error);

private:
    QMainWindow& window_;
    DocumentationWindow* documentation_ = nullptr;
    widgets::JobTracker find_{this};
};

} // namespace rlda::app
