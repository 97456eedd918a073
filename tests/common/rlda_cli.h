// The rlda program run as a user runs it, for the suites that test it from outside: its exit code
// and both streams, with a bound on how long it may take.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace rlda::test {

inline const QString rlda_program = QStringLiteral(RLDA_BIN_DIR "/rlda");

struct CliResult {
    int code = -1; // the exit code; -1: it did not finish in time (and was killed); -2: it crashed
    QString out;
    QString err;
};

// Runs `rlda args...` and waits for it up to timeout_ms; one that takes longer is killed, with err
// naming the command.
inline CliResult rlda_cli(const QStringList& args, int timeout_ms = 300000)
{
    QProcess p;
    p.start(rlda_program, args);
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, QStringLiteral("timed out or not started: rlda %1").arg(args.join(' '))};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace rlda::test
