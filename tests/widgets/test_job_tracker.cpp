// JobTracker: a job runs off the GUI thread and its value comes back on it; a result overtaken by a
// newer job, cancelled, or meant for a context that is gone is dropped; a throwing job reports one
// line; waitForJobs waits for the stragglers, bounded.
#include "tests/common/suite.h"
#include "widgets/job_tracker.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <mutex>
#include <condition_variable>
#include <stdexcept>
#include <vector>

using rlda::widgets::JobTracker;

namespace {

// A job that holds until released: what a slow squeue or a large folder is to the tracker.
class Gate {
public:
    void open()
    {
        const std::lock_guard lock(m_);
        open_ = true;
        cv_.notify_all();
    }
    void wait()
    {
        std::unique_lock lock(m_);
        cv_.wait(lock, [this] { return open_; });
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool open_ = false;
};

// Emits what the tracker delivers, so that a test can wait on it with QSignalSpy.
class Receiver : public QObject {
    Q_OBJECT
public:
    std::vector<int> values;
    Q_SIGNAL void delivered(int value);
    Q_SIGNAL void failed(const QString& message);
};

} // namespace

class TestJobTracker : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void a_result_comes_back_on_the_gui_thread()
    {
        Receiver r;
        JobTracker jobs(&r);
        QSignalSpy spy(&r, &Receiver::delivered);
        QThread* jobThread = nullptr;
        QThread* finishThread = nullptr;
        QVERIFY(!jobs.isRunning());
        jobs.startJob(
            [&jobThread] {
                jobThread = QThread::currentThread();
                return 42;
            },
            [&](int v) {
                finishThread = QThread::currentThread();
                Q_EMIT r.delivered(v);
            });
        QVERIFY(jobs.isRunning());
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.at(0).at(0).toInt(), 42);
        QCOMPARE(finishThread, QThread::currentThread());
        QVERIFY(jobThread && jobThread != QThread::currentThread());
        QVERIFY(!jobs.isRunning());
    }

    void a_stale_result_is_dropped()
    {
        Receiver r;
        JobTracker jobs(&r);
        QSignalSpy spy(&r, &Receiver::delivered);
        auto gate = std::make_shared<Gate>();
        auto sawStale = std::make_shared<std::atomic<bool>>(false);
        // The first job answers only after the second has started and answered.
        jobs.startJob(
            [gate, sawStale](const JobTracker::Token& token) {
                gate->wait();
                *sawStale = token.stale();
                return 1;
            },
            [&](int v) { Q_EMIT r.delivered(v); });
        jobs.startJob([] { return 2; }, [&](int v) { Q_EMIT r.delivered(v); });
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.at(0).at(0).toInt(), 2);
        QVERIFY(!jobs.isRunning());
        gate->open();
        QVERIFY(rlda::widgets::waitForJobs(std::chrono::seconds(5)));
        QCoreApplication::processEvents(); // anything the first job posted would be delivered now
        QCOMPARE(spy.count(), 1);
        QVERIFY(sawStale->load());
    }

    void a_cancelled_job_delivers_nothing()
    {
        Receiver r;
        JobTracker jobs(&r);
        QSignalSpy spy(&r, &Receiver::delivered);
        auto gate = std::make_shared<Gate>();
        jobs.startJob([gate] { gate->wait(); return 3; }, [&](int v) { Q_EMIT r.delivered(v); });
        jobs.cancel();
        QVERIFY(!jobs.isRunning());
        gate->open();
        QVERIFY(rlda::widgets::waitForJobs(std::chrono::seconds(5)));
        QCoreApplication::processEvents();
        QCOMPARE(spy.count(), 0);
        // The tracker goes on: the next job is delivered.
        jobs.startJob([] { return 4; }, [&](int v) { Q_EMIT r.delivered(v); });
        QVERIFY(spy.wait(5000));
        QCOMPARE(spy.at(0).at(0).toInt(), 4);
    }

    void a_destroyed_context_receives_nothing()
    {
        auto gate = std::make_shared<Gate>();
        auto calls = std::make_shared<std::atomic<int>>(0);
        auto finished = std::make_shared<std::atomic<bool>>(false);
        // The tracker outlives its context: only the context check stands between the result and a
        // dangling `this`.
        auto* context = new QObject;
        JobTracker jobs(context);
        jobs.startJob(
            [gate, finished] {
                gate->wait();
                *finished = true;
                return std::vector<int>{1, 2, 3};
            },
            [calls](std::vector<int>) { ++*calls; });
        delete context;
        QVERIFY(!jobs.isRunning());
        gate->open();
        QTRY_VERIFY(finished->load());
        QVERIFY(rlda::widgets::waitForJobs(std::chrono::seconds(5)));
        QCoreApplication::processEvents();
        QCOMPARE(calls->load(), 0);

        // The usual case: tracker and context go together, the job still running.
        auto gate2 = std::make_shared<Gate>();
        {
            Receiver r;
            JobTracker mine(&r);
            mine.startJob([gate2] { gate2->wait(); return 5; }, [calls](int) { ++*calls; });
        }
        gate2->open();
        QVERIFY(rlda::widgets::waitForJobs(std::chrono::seconds(5)));
        QCoreApplication::processEvents();
        QCOMPARE(calls->load(), 0);
    }

    void a_throwing_job_reports_one_line()
    {
        Receiver r;
        JobTracker jobs(&r);
        QSignalSpy delivered(&r, &Receiver::delivered);
        QSignalSpy failed(&r, &Receiver::failed);
        // A message of several lines, as LibTorch's with its backtrace: the first line only.
        jobs.startJob([]() -> int { throw std::runtime_error("table.csv:3: not a number\nException raised from f at x.cpp:1\nframe #0"); },
                      [&](int v) { Q_EMIT r.delivered(v); }, [&](const QString& m) { Q_EMIT r.failed(m); });
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("table.csv:3: not a number"));
        QCOMPARE(delivered.count(), 0);
        QVERIFY(!jobs.isRunning());
    }

    void waiting_for_jobs_is_bounded()
    {
        auto gate = std::make_shared<Gate>();
        Receiver r;
        JobTracker jobs(&r);
        jobs.startJob([gate] { gate->wait(); return 0; }, [](int) {});
        QVERIFY(!rlda::widgets::waitForJobs(std::chrono::milliseconds(50))); // still held
        gate->open();
        QVERIFY(rlda::widgets::waitForJobs(std::chrono::seconds(5)));
    }
};

RLDA_SUITE_MAIN(TestJobTracker)
#include "test_job_tracker.moc"
