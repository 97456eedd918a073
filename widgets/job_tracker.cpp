// The job pool behind every JobTracker, and its bounded wait at shutdown.
#include "widgets/job_tracker.h"

#include "core/util/error_text.h"

#include <QDebug>
#include <QThread>

#include <algorithm>

namespace rlda::widgets {

QThreadPool& jobPool()
{
    // Leaked on purpose: a pool destroyed at exit would wait for its jobs without a bound.
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        // Jobs mostly wait (on a process, a lock, the disk): a few more than the cores.
        p->setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
        p->setObjectName(QStringLiteral("rlda-jobs"));
        return p;
    }();
    return *pool;
}

bool waitForJobs(std::chrono::milliseconds timeout) { return jobPool().waitForDone(int(timeout.count())); }

void logJobFailure(const QString& message) { qWarning().noquote() << message; }

QString jobErrorLine(const std::exception& e) { return QString::fromStdString(core::error_line(e)); }

} // namespace rlda::widgets
