// The Runs page's column catalogue: the columns, their titles, their cells, which are shown.
#include "widgets/run/run_columns.h"

#include "core/config/schema.h"
#include "widgets/qs.h"

#include <QAction>
#include <QDir>
#include <QHash>
#include <QMenu>
#include <QSettings>

#include <algorithm>
#include <utility>

namespace rlda::widgets {

using core::io::RunData;

namespace {

const char* const kBuiltInIds[RunColumns::BuiltIns] = {"run", "kind", "result", "status", "modified"};


QString tableResultText(const core::sim::TableStatus& t)
{
    if (!t.best)
        return QObject::tr("no rows yet");
    return QObject::tr("best [%1] · acc %2")
        .arg(qs(core::sim::sequence_string(t.best->actions)))
        .arg(t.best->accuracy, 0, 'f', 3);
}

QString resultText(const RunData& run)
{
    if (!run.episodes.empty()) {
        const auto& last = run.episodes.back();
        return QObject::tr("episode %1 · acc %2").arg(last.episode).arg(last.accuracy, 0, 'f', 3);
    }
    if (const auto acc = core::io::final_accuracy(run))
        return QObject::tr("acc %1").arg(*acc, 0, 'f', 3);
    return QStringLiteral("—");
}

QString noteLine(const std::string& note)
{
    QString first = qs(note).section(QLatin1Char('\n'), 0, 0);
    return first.size() > 60 ? first.left(59) + QStringLiteral("…") : first;
}

QVariant fieldNumber(const RunFacts& facts, const std::string& id)
{
    const auto it = facts.fields.values.find(id);
    return it != facts.fields.values.end() && it->second.number ? QVariant(*it->second.number) : QVariant();
}

} // namespace

const QList<RunColumns::Info>& RunColumns::catalog()
{
    static const QList<Info> catalog = [] {
        QList<Info> c{{QStringLiteral("run"), tr("Run"), {}},       {QStringLiteral("kind"), tr("Kind"), {}},
                      {QStringLiteral("result"), tr("Result"), {}}, {QStringLiteral("status"), tr("Status"), {}},
                      {QStringLiteral("modified"), tr("Modified"), {}}, {QStringLiteral("tags"), tr("Tags"), {}},
                      {QStringLiteral("note"), tr("Note"), {}}};
        for (const auto& f : core::io::result_fields())
            c.push_back({qs(f.id), tr(f.label.c_str()), tr("Results")});
        for (const auto& k : core::config::experiment_schema().keys)
            c.push_back({qs(k.name), qs(k.name), k.section().empty() ? tr("Config") : qs(k.section())});
        return c;
    }();
    return catalog;
}

QStringList RunColumns::defaults()
{
    return {QStringLiteral("run"), QStringLiteral("kind"), QStringLiteral("result"), QStringLiteral("status"),
            QStringLiteral("modified"), QStringLiteral("tags")};
}

QString RunColumns::builtInId(int column) { return QLatin1String(kBuiltInIds[column]); }

QString RunColumns::label(const QString& id)
{
    for (const auto& c : catalog())
        if (c.id == id)
            return c.label;
    return id;
}

QString RunColumns::hint(const QString& id)
{
    const auto* key = core::config::experiment_schema().find(id.toStdString());
    return key ? QStringLiteral("%1: %2").arg(id, qs(key->hint())) : id;
}

RunColumns::Cell RunColumns::cell(const QString& id, const RunData& run, const RunFacts& facts, const QString& root)
{
    const auto& table = facts.table;
    Cell c;
    if (id == QLatin1String("run")) {
        c.text = QDir(root).relativeFilePath(qs(run.path.string()));
        if (c.text.isEmpty() || c.text == QStringLiteral("."))
            c.text = qs(run.name);
        c.toolTip = qs(run.path.string());
    } else if (id == QLatin1String("kind")) {
        c.text = qs(core::io::to_string(run.kind));
    } else if (id == QLatin1String("result")) {
        c.text = table ? tableResultText(*table) : resultText(run);
        c.number = fieldNumber(facts, "final_accuracy");
    } else if (id == QLatin1String("status")) {
        c.text = table ? tableStatusText(*table) : (facts.tableFolder ? tr("unreadable table") : runStatus(run, facts));
        const bool unfinished = table ? table->expected > 0 && !table->complete()
                                      : (facts.tableFolder || (run.truncated && !run.finished));
        const bool running =
            table ? table->building()
                  : !facts.tableFolder && !run.finished && !run.truncated && writtenLately(facts);
        if (running)
            c.colour = QColor(0x1f, 0x77, 0xb4);
        else if (unfinished)
            c.colour = QColor(0xb2, 0x4a, 0x00);
        if (!run.problems.empty())
            c.toolTip = run.problems.size() == 1 ? tr("1 record skipped; see Problems")
                                                 : tr("%1 records skipped; see Problems").arg(run.problems.size());
    } else if (id == QLatin1String("modified")) {
        if (facts.modified.isValid())
            c.text = facts.modified.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    } else if (id == QLatin1String("tags")) {
        c.text = qs(core::io::tags_text(facts.notes.tags));
    } else if (id == QLatin1String("note")) {
        c.text = noteLine(facts.notes.note);
        c.toolTip = qs(facts.notes.note);
    } else if (const auto it = facts.fields.values.find(id.toStdString()); it != facts.fields.values.end()) {
        c.text = qs(it->second.text);
        c.number = fieldNumber(facts, it->first);
    }
    return c;
}

RunColumns::RunColumns(QString settingsKey, QObject* parent) : QObject(parent), key_(std::move(settingsKey))
{
    const QStringList saved = key_.isEmpty() ? QStringList() : QSettings().value(key_).toStringList();
    apply(saved.isEmpty() ? defaults() : saved);
}

QStringList RunColumns::shown() const
{
    QStringList out;
    for (const char* id : kBuiltInIds)
        if (!hidden_.contains(QLatin1String(id)))
            out << QLatin1String(id);
    return out + extras_;
}

bool RunColumns::isHidden(int builtIn) const { return hidden_.contains(builtInId(builtIn)); }

int RunColumns::modelColumn(const QString& id) const
{
    for (int c = 0; c < BuiltIns; ++c)
        if (id == QLatin1String(kBuiltInIds[c]))
            return isHidden(c) ? -1 : c;
    const auto i = extras_.indexOf(id);
    return i < 0 ? -1 : BuiltIns + int(i);
}

void RunColumns::setShown(const QStringList& ids)
{
    apply(ids);
    if (!key_.isEmpty())
        QSettings().setValue(key_, shown());
}

void RunColumns::apply(const QStringList& ids)
{
    QStringList extras;
    QStringList hidden;
    for (const char* id : kBuiltInIds)
        if (!ids.contains(QLatin1String(id)) && qstrcmp(id, "run") != 0)
            hidden << QLatin1String(id);
    const auto& all = catalog();
    for (const QString& id : ids) {
        const bool known = std::any_of(std::next(all.cbegin(), BuiltIns), all.cend(),
                                       [&id](const Info& c) { return c.id == id; });
        if (known && !extras.contains(id))
            extras << id;
    }
    const bool rebuild = extras != extras_;
    extras_ = extras;
    hidden_ = hidden;
    if (rebuild)
        Q_EMIT extrasChanged();
    Q_EMIT changed();
}

QMenu* RunColumns::menu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("columnMenu"));
    const QStringList ids = shown();
    QHash<QString, QMenu*> groups;
    for (const auto& c : catalog()) {
        QMenu* into = menu;
        if (!c.group.isEmpty()) {
            if (!groups.contains(c.group)) {
                if (groups.isEmpty())
                    menu->addSeparator();
                groups.insert(c.group, menu->addMenu(c.group == tr("Results") || c.group == tr("Config")
                                                         ? c.group
                                                         : tr("Config: [%1]").arg(c.group)));
            }
            into = groups.value(c.group);
        }
        QAction* a = into->addAction(c.label);
        a->setData(c.id);
        a->setCheckable(true);
        a->setChecked(ids.contains(c.id));
        a->setEnabled(c.id != QLatin1String("run"));
        if (const auto* key = core::config::experiment_schema().find(c.id.toStdString()))
            a->setToolTip(qs(key->hint()));
        connect(a, &QAction::toggled, this, [this, id = c.id](bool on) {
            QStringList now = shown();
            if (on && !now.contains(id))
                now << id;
            else if (!on)
                now.removeAll(id);
            setShown(now);
        });
    }
    menu->addSeparator();
    connect(menu->addAction(tr("Default columns")), &QAction::triggered, this, [this] { setShown(defaults()); });
    return menu;
}

} // namespace rlda::widgets
