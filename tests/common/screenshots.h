// Screenshots of the widgets under test, for a person to look at: written only when the one
// switch, RLDA_SCREENSHOT_DIR, names a folder (scripts/screenshots sets it; every suite reads it
// here).
#pragma once

#include <QDir>
#include <QString>
#include <QWidget>

namespace rlda::test {

// The folder RLDA_SCREENSHOT_DIR names; empty when no screenshot is wanted.
inline QString screenshotDir()
{
    return qEnvironmentVariable("RLDA_SCREENSHOT_DIR");
}

// `w` as it looks, to NAME.png in screenshotDir(); nothing when none is wanted.
inline void shot(QWidget& w, const QString& name)
{
    const QString dir = screenshotDir();
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    w.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

} // namespace rlda::test
