// The file dialogs, each kind remembering its folder.
#include "widgets/file_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace rlda::widgets {
namespace {

QString kindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Experiment: return QStringLiteral("experiment");
    case FileKind::Table: return QStringLiteral("table");
    case FileKind::Policy: return QStringLiteral("policy");
    case FileKind::RunFolder: return QStringLiteral("runFolder");
    case FileKind::RunsRoot: return QStringLiteral("runsRoot");
    case FileKind::Model: return QStringLiteral("model");
    case FileKind::DataFolder: return QStringLiteral("dataFolder");
    case FileKind::Export: return QStringLiteral("export");
    case FileKind::Output: return QStringLiteral("output");
    }
    return QStringLiteral("other");
}

QString folderKey(FileKind kind)
{
    return QLatin1String(kFolderSettingsGroup) + QLatin1Char('/') + kindName(kind);
}

} // namespace

QString lastFolder(FileKind kind, const QString& fallback)
{
    const QString dir = QSettings().value(folderKey(kind)).toString();
    return dir.isEmpty() ? fallback : dir;
}

void rememberFolder(FileKind kind, const QString& path, bool isFolder)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(QDir::current().absoluteFilePath(path));
    // A run folder's next dialog starts among its siblings: the folder of runs.
    const bool parent = !isFolder || kind == FileKind::RunFolder;
    QSettings().setValue(folderKey(kind), QDir::cleanPath(parent ? info.absolutePath() : info.absoluteFilePath()));
}

QString openFileName(QWidget* parent, FileKind kind, const QString& title, const QString& filter, const QString& fallback)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, lastFolder(kind, fallback), filter);
    rememberFolder(kind, path, false);
    return path;
}

QStringList openFileNames(QWidget* parent, FileKind kind, const QString& title, const QString& filter,
                          const QString& fallback)
{
    const QStringList paths = QFileDialog::getOpenFileNames(parent, title, lastFolder(kind, fallback), filter);
    if (!paths.isEmpty())
        rememberFolder(kind, paths.front(), false);
    return paths;
}

QString saveFileName(QWidget* parent, FileKind kind, const QString& title, const QString& suggested,
                     const QString& filter)
{
    const bool placed = QDir::isAbsolutePath(suggested) && !suggested.startsWith(QLatin1Char(':'));
    const QString start = placed ? suggested : QDir(lastFolder(kind, QDir::currentPath())).filePath(QFileInfo(suggested).fileName());
    const QString path = QFileDialog::getSaveFileName(parent, title, start, filter);
    rememberFolder(kind, path, false);
    return path;
}

QString existingFolder(QWidget* parent, FileKind kind, const QString& title, const QString& fallback)
{
    const QString dir = QFileDialog::getExistingDirectory(parent, title, lastFolder(kind, fallback));
    rememberFolder(kind, dir, true);
    return dir;
}

QString chooseFolderFrom(QWidget* parent, FileKind kind, const QString& title, const QString& current)
{
    const QString dir = QFileDialog::getExistingDirectory(parent, title, current.isEmpty() ? lastFolder(kind) : current);
    rememberFolder(kind, dir, true);
    return dir;
}

} // namespace rlda::widgets
