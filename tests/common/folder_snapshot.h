// Every file and folder under a folder, hidden ones included, with each file's bytes: two snapshots
// compare equal when nothing in the folder changed.
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QString>

namespace rlda::test {

// Relative path -> contents; a folder is "path/" -> empty.
inline QMap<QString, QByteArray> folder_snapshot(const QString& dir)
{
    QMap<QString, QByteArray> files;
    const QDir root(dir);
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString name = root.relativeFilePath(path);
        if (it.fileInfo().isDir()) {
            files.insert(name + '/', {});
            continue;
        }
        QFile f(path);
        files.insert(name, f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)"));
    }
    return files;
}

// A folder of the user's own: a.txt and sub/b.txt.
inline void make_user_folder(const QString& dir)
{
    QDir().mkpath(dir + "/sub");
    QFile a(dir + "/a.txt");
    a.open(QIODevice::WriteOnly);
    a.write("the user's a\n");
    QFile b(dir + "/sub/b.txt");
    b.open(QIODevice::WriteOnly);
    b.write("the user's b\n");
}

} // namespace rlda::test
