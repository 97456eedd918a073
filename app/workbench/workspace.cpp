// The workspace's settings: recent lists and the export settings, under the keys of workspace.h.
#include "app/workbench/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QWidget>

#include <memory>

#include <unistd.h>

namespace rlda::app::workspace {
namespace {

QString recentKey(Recent kind) { return QLatin1String(key::kRecentGroup) + QLatin1Char('/') + recentName(kind); }

} // namespace

QString recentName(Recent kind)
{
    switch (kind) {
    case Recent::Experiments: return QStringLiteral("experiments");
    case Recent::Tables: return QStringLiteral("tables");
    case Recent::Policies: return QStringLiteral("policies");
    case Recent::Runs: return QStringLiteral("runs");
    }
    return {};
}

QString recentTitle(Recent kind)
{
    switch (kind) {
    case Recent::Experiments: return QObject::tr("Recent &experiments");
    case Recent::Tables: return QObject::tr("Recent &tables");
    case Recent::Policies: return QObject::tr("Recent p&olicies");
    case Recent::Runs: return QObject::tr("Recent run &folders");
    }
    return {};
}

QStringList recentFiles(Recent kind)
{
    QStringList files = QSettings().value(recentKey(kind)).toStringList();
    files.removeAll(QString());
    return files.mid(0, kMaxRecent);
}

void addRecent(Recent kind, const QString& path)
{
    if (path.isEmpty())
        return;
    // Absolute and clean, so that one file opened two ways is one entry; no disk is read for it.
    const QString clean = QDir::cleanPath(QDir::current().absoluteFilePath(path));
    QStringList files = recentFiles(kind);
    files.removeAll(clean);
    files.prepend(clean);
    QSettings().setValue(recentKey(kind), files.mid(0, kMaxRecent));
}

void clearRecent(Recent kind) { QSettings().remove(recentKey(kind)); }

QString defaultRunsFolder()
{
    const QDir here = QDir::current();
    if (QFileInfo(here.filePath(QStringLiteral("scripts/run"))).isFile() && QFileInfo::exists(here.filePath(QStringLiteral(".git"))))
        return here.filePath(QStringLiteral("runs"));
    return dataRunsFolder();
}

QString dataRunsFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("runs"));
}

QString runsFolder()
{
    const QString chosen = QSettings().value(key::kRunsFolder).toString();
    return chosen.isEmpty() ? defaultRunsFolder() : chosen;
}

void setRunsFolder(const QString& dir) { QSettings().setValue(key::kRunsFolder, QDir::cleanPath(QDir::current().absoluteFilePath(dir))); }

widgets::ExportSettings exportSettings()
{
    const QSettings s;
    widgets::ExportSettings e{QSize(1200, 700), 150};
    if (const QSize size = s.value(key::kExportSize).toSize(); size.isValid() && !size.isEmpty())
        e.size = size;
    if (const int dpi = s.value(key::kExportDpi).toInt(); dpi > 0)
        e.dpi = dpi;
    return e;
}

void setExportSettings(const widgets::ExportSettings& settings)
{
    QSettings s;
    s.setValue(key::kExportSize, settings.size);
    s.setValue(key::kExportDpi, settings.dpi);
}

QString guardSettingsFile()
{
    static const QString warning = [] {
        // The folder QSettings keeps user files in (QSettings::setPath included), from a file that
        // is never there: making a QSettings reads its file, and the real one may be a FIFO.
        const QSettings probe(QSettings::NativeFormat, QSettings::UserScope, QStringLiteral(".rlda-settings-probe"));
        const QString root = QFileInfo(probe.fileName()).absolutePath();
        const QString file = QStringLiteral("%1/%2/%3.conf")
                                 .arg(root, QCoreApplication::organizationName(), QCoreApplication::applicationName());
        const QFileInfo info(file);
        if (!info.exists() && !info.isSymLink())
            return QString();
        QString why;
        if (!info.exists())
            why = QObject::tr("is a symbolic link to nothing");
        else if (!info.isFile())
            why = QObject::tr("is not a regular file");
        else if (!info.isReadable())
            why = QObject::tr("cannot be read (permission denied)");
        else if (info.size() > kMaxSettingsBytes)
            why = QObject::tr("is %1 bytes, more than a settings file has").arg(info.size());
        if (why.isEmpty()) {
            // Read as it is. One that cannot be written (read-only, immutable) is said so: nothing
            // this session changes will be remembered.
            if (::access(QFile::encodeName(file).constData(), W_OK) == 0)
                return QString();
            return QObject::tr(
                       "Settings file %1 cannot be written: the layout and recent lists of this session "
                       "will not be remembered; make it writable to keep them")
                .arg(file);
        }
        static const auto scratch = std::make_unique<QTemporaryDir>();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, scratch->path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, scratch->path());
        return QObject::tr("Settings file %1 %2: starting with the default layout and recent lists, and saving "
                           "none of them this time; remove or replace the file to keep them")
            .arg(file, why);
    }();
    return warning;
}

void resetSettings()
{
    QSettings s;
    s.clear();
    s.sync();
}

void placeOnScreen(QWidget& window)
{
    constexpr QSize kDefaultSize(1440, 900);
    const QScreen* screen = window.screen();
    if (!screen) {
        window.resize(kDefaultSize);
        return;
    }
    const QRect free = screen->availableGeometry();
    // Room for a window manager's frame and title bar around the window's own size.
    const QSize size = kDefaultSize.boundedTo(free.size() - QSize(16, 48)).expandedTo(window.minimumSizeHint());
    window.resize(size);
    window.move(free.center() - QPoint(size.width() / 2, size.height() / 2));
}

} // namespace rlda::app::workspace
