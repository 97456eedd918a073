// Running rlda as a user without privileges, for the suites that check what a permission error
// says: root reads and deletes anything, so as root the program runs as `nobody` (setpriv, from
// util-linux); as anyone else it runs as that user. Both get the same binary, copied where every
// user may run it, and files the tests make readable to all.
#pragma once

#include "tests/common/rlda_cli.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <sys/stat.h>
#include <unistd.h>

namespace rlda::test {

// A folder every user may enter and write (a QTemporaryDir is 0700).
inline void open_to_all(const QString& path) { ::chmod(QFile::encodeName(path).constData(), 0777); }

// `rlda args...` as an unprivileged user; `bin` is a folder open to all that receives the binary.
inline CliResult rlda_unprivileged(const QString& bin, const QStringList& args, int timeout_ms = 300000)
{
    const QString copy = bin + "/rlda";
    if (!QFile::exists(copy)) {
        QFile::copy(rlda_program, copy);
        ::chmod(QFile::encodeName(copy).constData(), 0755);
    }
    if (::geteuid() == 0)
        return run_program("setpriv", QStringList{"--reuid=65534", "--regid=65534", "--clear-groups", copy} + args,
                           timeout_ms);
    return run_program(copy, args, timeout_ms);
}

} // namespace rlda::test
