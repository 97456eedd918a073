// Runs rlda in a QProcess: merged output split into lines, one finished() whatever happens.
#include "app/workbench/rlda_process.h"

#include <QCoreApplication>
#include <QDir>

namespace rlda::app {

RldaProcess::RldaProcess(QObject* parent) : QObject(parent)
{
    process_.setProcessChannelMode(QProcess::MergedChannels);
    connect(&process_, &QProcess::readyRead, this, [this] { readLines(false); });
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        // A crash or kill also ends in finished(); only a start that failed ends here alone.
        if (e != QProcess::FailedToStart || reported_)
            return;
        reported_ = true;
        Q_EMIT finished(false, tr("%1 could not be started: %2").arg(program(), process_.errorString()));
    });
    connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        readLines(true);
        if (reported_)
            return;
        reported_ = true;
        if (status == QProcess::CrashExit)
            Q_EMIT finished(false, tr("rlda stopped unexpectedly (%1)").arg(process_.errorString()));
        else if (code != 0)
            Q_EMIT finished(false, lastError_.isEmpty() ? tr("rlda failed (exit code %1)").arg(code) : lastError_);
        else
            Q_EMIT finished(true, QString());
    });
}

RldaProcess::~RldaProcess()
{
    // Gone mid-run (the window closed): killed, which takes no time to wait for. rlda's files
    // survive a kill (atomic rewrites, flushed appends), so what it finished is kept.
    if (process_.state() != QProcess::NotRunning) {
        reported_ = true;
        process_.kill();
        process_.waitForFinished(1000);
    }
}

QString RldaProcess::program()
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("rlda"));
}

bool RldaProcess::start(const QStringList& args)
{
    if (isRunning()) {
        Q_EMIT finished(false, tr("rlda is still running: %1").arg(commandLine_));
        return false;
    }
    commandLine_ = QStringLiteral("rlda ") + args.join(QLatin1Char(' '));
    pending_.clear();
    lastError_.clear();
    reported_ = false;
    process_.start(program(), args);
    return true;
}

bool RldaProcess::isRunning() const { return process_.state() != QProcess::NotRunning; }

void RldaProcess::stop()
{
    if (isRunning())
        process_.terminate();
}

void RldaProcess::readLines(bool flush)
{
    pending_ += process_.readAll();
    qsizetype end = 0;
    while ((end = pending_.indexOf('\n')) >= 0 || (flush && !pending_.isEmpty())) {
        const qsizetype take = end >= 0 ? end : pending_.size();
        QString text = QString::fromUtf8(pending_.left(take));
        pending_.remove(0, end >= 0 ? take + 1 : take);
        // A progress line redrawn in place on a terminal: keep what was drawn last.
        if (const auto cr = text.lastIndexOf(QLatin1Char('\r')); cr >= 0)
            text = text.mid(cr + 1);
        if (text.startsWith(QStringLiteral("rlda: error: ")))
            lastError_ = text.mid(13);
        Q_EMIT line(text);
    }
}

} // namespace rlda::app
