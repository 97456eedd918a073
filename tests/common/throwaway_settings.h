// QSettings of a suite in a temporary folder, never the user's: call before any QSettings is made.
#pragma once

#include <QSettings>
#include <QTemporaryDir>

namespace rlda::test {

inline void use_throwaway_settings(const QTemporaryDir& dir)
{
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

} // namespace rlda::test
