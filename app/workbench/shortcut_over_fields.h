// A text field claims Ctrl+E (end of line, as in Emacs) before any shortcut sees it, so that
// File -> Export plot would do nothing while the Tables filter or a spin box has the focus. This
// refuses that claim for the fields of one window, so that the key goes on to its action. It watches
// the widget with the focus (where Qt sends a shortcut's claim), not every event of the program.
#pragma once

#include <QObject>

class QAction;
class QWidget;

namespace rlda::app {

class ShortcutOverFields : public QObject {
    Q_OBJECT
public:
    ShortcutOverFields(const QAction& action, QWidget& window); // owned by `window`

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    const QAction& action_;
};

} // namespace rlda::app
