#include "app/workbench/shortcut_over_fields.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QKeySequence>
#include <QWidget>

namespace rlda::app {

ShortcutOverFields::ShortcutOverFields(const QAction& action, QWidget& window) : QObject(&window), action_(action)
{
    connect(qApp, &QApplication::focusChanged, this, [this, &window](QWidget* old, QWidget* now) {
        if (old)
            old->removeEventFilter(this);
        if (now && now->window() == &window)
            now->installEventFilter(this);
    });
}

bool ShortcutOverFields::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ShortcutOverride && watched->isWidgetType()) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (QKeySequence(key->keyCombination()) == action_.shortcut()) {
            event->ignore(); // unclaimed: the shortcut map goes on to the action
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace rlda::app
