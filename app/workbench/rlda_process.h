// The rlda program run from the workbench (figures, the paper's reproduction): its output line by
// line as it comes, and one end that says what went wrong. Nothing here waits: QProcess runs it
// and reports through signals on the GUI thread.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace rlda::app {

class RldaProcess : public QObject {
    Q_OBJECT
public:
    explicit RldaProcess(QObject* parent = nullptr);
    ~RldaProcess() override;

    // <folder of the running program>/rlda: the build tree and an installed package alike.
    static QString program();

    // Starts `rlda args…`; false (and finished(false, …) at once) while one is running.
    bool start(const QStringList& args);
    bool isRunning() const;
    // SIGTERM: the long commands stop between episodes or rows and keep what they wrote.
    void stop();

Q_SIGNALS:
    // Each line of its standard output and error, in order, without the line end.
    void line(const QString& text);
    // Once per start: ok when it exited with 0; otherwise `error` is one line: the program could
    // not be started, it crashed, or its last "rlda: error: …" line (else "exit code N").
    void finished(bool ok, const QString& error);

private:
    void readLines(bool flush);

    QProcess process_;
    QString commandLine_;
    QByteArray pending_;
    QString lastError_;
    bool reported_ = true;
};

} // namespace rlda::app
