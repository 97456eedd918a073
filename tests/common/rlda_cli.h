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

// Runs `program args...` and waits for it up to timeout_ms; one that takes longer is killed, with
// err naming the command.
inline CliResult run_program(const QString& program, const QStringList& args, int timeout_ms = 300000)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, QStringLiteral("timed out or not started: %1 %2").arg(program, args.join(' '))};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// `rlda args...`, as run_program.
inline CliResult rlda_cli(const QStringList& args, int timeout_ms = 300000)
{
    return run_program(rlda_program, args, timeout_ms);
}

// Whether the rlda program's LibTorch sees a GPU, as `rlda --version` says ("CUDA: not available
// (LibTorch 1.13.1)" where it does not): the suites that run rlda ask the program, not LibTorch.
inline bool rlda_sees_a_gpu()
{
    const CliResult r = rlda_cli({QStringLiteral("--version")});
    return r.code == 0 && r.out.contains(QStringLiteral("CUDA: ")) &&
           !r.out.contains(QStringLiteral("CUDA: not available"));
}

} // namespace rlda::test
