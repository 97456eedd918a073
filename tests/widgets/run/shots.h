// Screenshots of the panels for a person to look at: written only when RLDA_SHOTS names a folder.
#pragma once

#include <QDir>
#include <QString>
#include <QWidget>

namespace rlda::tests {

inline void shot(QWidget& w, const QString& name)
{
    const QString dir = qEnvironmentVariable("RLDA_SHOTS");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    w.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

} // namespace rlda::tests
