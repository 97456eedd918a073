#include "app/workbench/recent_menus.h"

#include <QAction>
#include <QFileInfo>
#include <QFontMetrics>
#include <QMenu>

namespace rlda::app {
namespace {

// A path as a menu entry: '&' is not a mnemonic in it, and a long one loses its middle.
QString menuEntry(int index, const QString& path, const QFont& font)
{
    QString shown = QFontMetrics(font).elidedText(path, Qt::ElideMiddle, 560);
    shown.replace(QLatin1Char('&'), QStringLiteral("&&"));
    // 1 to 9, then 10 with its 0 as the mnemonic, as editors number their recent files.
    const QString number = index < 9 ? QStringLiteral("&%1").arg(index + 1)
                                     : index == 9 ? QStringLiteral("1&0") : QString::number(index + 1);
    return number + QStringLiteral("  ") + shown;
}

} // namespace

RecentMenus::RecentMenus(QMenu& file, QObject* parent) : QObject(parent)
{
    for (const workspace::Recent kind : workspace::kRecentKinds) {
        QMenu* m = file.addMenu(workspace::recentTitle(kind));
        m->setObjectName(QStringLiteral("recent-") + workspace::recentName(kind));
        menus_[static_cast<std::size_t>(kind)] = m;
        connect(m, &QMenu::aboutToShow, this, &RecentMenus::refresh);
        fill(kind, {}, {});
    }
}

void RecentMenus::add(workspace::Recent kind, const QString& path)
{
    if (!inUse_ || path.isEmpty())
        return;
    workspace::addRecent(kind, path);
    refresh();
}

void RecentMenus::refresh()
{
    struct Lists {
        std::array<QStringList, std::size(workspace::kRecentKinds)> files;
        std::array<QList<bool>, std::size(workspace::kRecentKinds)> exist;
    };
    Lists lists;
    if (inUse_)
        for (const workspace::Recent kind : workspace::kRecentKinds)
            lists.files[static_cast<std::size_t>(kind)] = workspace::recentFiles(kind);
    job_.startJob(
        [lists]() mutable {
            for (std::size_t k = 0; k < lists.files.size(); ++k)
                for (const QString& f : lists.files[k])
                    lists.exist[k] << QFileInfo::exists(f);
            return lists;
        },
        [this](Lists found) {
            for (const workspace::Recent kind : workspace::kRecentKinds)
                fill(kind, found.files[static_cast<std::size_t>(kind)], found.exist[static_cast<std::size_t>(kind)]);
            Q_EMIT checked();
        });
}

void RecentMenus::fill(workspace::Recent kind, const QStringList& files, const QList<bool>& exist)
{
    QMenu* m = menu(kind);
    m->clear();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        QAction* a = m->addAction(menuEntry(i, path, m->font()), this, [this, kind, path] {
            Q_EMIT openRequested(kind, path);
        });
        a->setData(path);
        a->setToolTip(path);
        if (i < exist.size() && !exist[i]) {
            a->setEnabled(false);
            a->setText(a->text() + tr("  (not found)"));
            a->setToolTip(tr("%1: not found").arg(path));
        }
    }
    if (files.isEmpty())
        m->addAction(tr("(none yet)"))->setEnabled(false);
    m->addSeparator();
    QAction* clear = m->addAction(tr("&Clear this list"), this, [this, kind] {
        workspace::clearRecent(kind);
        refresh();
    });
    clear->setObjectName(QStringLiteral("clearRecent"));
    clear->setEnabled(inUse_ && !files.isEmpty());
    m->menuAction()->setToolTip(tr("The last %1 opened, newest first").arg(workspace::kMaxRecent));
}

} // namespace rlda::app
