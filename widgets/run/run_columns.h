// The Runs page's column catalogue: which columns exist, their titles, how each is read from a run,
// and which are shown, remembered in QSettings under the key the app gives.
#pragma once

#include "widgets/run/run_listing.h"

#include <QColor>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVariant>

class QMenu;
class QWidget;

namespace rlda::widgets {

// A column has an id: "run", "kind", "result", "status", "modified" (built in), "tags", "note", a
// result field's id or a config key's schema name (core/io/run_fields.h). The model's columns are
// the five built-in ones, which a view hides when not shown, then the extras shown, in order.
class RunColumns : public QObject {
    Q_OBJECT
public:
    enum BuiltIn { Name, Kind, Result, Status, Modified, BuiltIns };

    // group: "" (built in), "Results" or the config section ("job", ...), a submenu of menu().
    struct Info {
        QString id;
        QString label;
        QString group;
    };
    static const QList<Info>& catalog();
    static QStringList defaults();
    static QString builtInId(int column); // "run" for Name, ...
    static QString label(const QString& id);
    static QString hint(const QString& id); // a header's tooltip: a config key's help

    // One run's cell. number: what it sorts by, where it has one; colour: a status still moving.
    struct Cell {
        QString text;
        QVariant number;
        QString toolTip;
        QColor colour;
    };
    // Names are relative to `root`: that tells nested runs apart.
    static Cell cell(const QString& id, const core::io::RunData& run, const RunFacts& facts, const QString& root);

    // Reads the columns last shown under `settingsKey` (the defaults when none); an empty key
    // remembers nothing.
    explicit RunColumns(QString settingsKey, QObject* parent = nullptr);

    QStringList shown() const; // in order, "run" first
    const QStringList& extras() const { return extras_; }
    bool isHidden(int builtIn) const;
    int modelColumn(const QString& id) const; // the model's column showing `id`; -1 when not shown
    // Shows these columns (unknown ids are dropped, "run" is always shown) and remembers them.
    void setShown(const QStringList& ids);
    // A checkable action per column (its data() the id), then "Default columns". The caller owns it.
    QMenu* menu(QWidget* parent);

Q_SIGNALS:
    void extrasChanged(); // the model's columns past the built-in ones changed
    void changed();       // anything shown changed

private:
    void apply(const QStringList& ids);

    QString key_;
    QStringList extras_;
    QStringList hidden_; // built-in columns the user hid
};

} // namespace rlda::widgets
