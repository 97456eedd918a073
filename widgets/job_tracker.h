// One job at a time off the GUI thread, for a QObject that shows its result: the GUI never waits on
// a disk scan, a process, a table load or an evaluation. After KDAB hotspot's JobTracker.
//
//   widgets::JobTracker jobs_{this};              // a member of the page (the context)
//   jobs_.startJob([dir] { return scan(dir); },   // on the job pool; returns a value
//                  [this](Listing l) { show(l); }); // on the GUI thread, only if still wanted
//
// The contract:
// - The job runs on jobPool(). It takes no argument, or a `const JobTracker::Token&` whose stale()
//   says that its result will be dropped (a long job may stop early). It returns a value type: a
//   copy of everything the GUI needs, no pointer into the context.
// - Every startJob() makes the jobs started before it stale: only the latest job's result is ever
//   delivered. cancel() and the tracker's destructor make every job stale.
// - A result is delivered to `finish` on the GUI thread, queued (queueCall of
//   widgets/thread_handoff.h), when its job is still the latest and the context still exists. The
//   check is made there, on the GUI thread, so that a context destroyed meanwhile is never touched.
// - A job that throws delivers the exception's one-line message to `fail` (same rule), else to the
//   log. Either way isRunning() turns false when the latest job has answered.
// - At shutdown, waitForJobs(bound) waits for the jobs still running, at most that long.
#pragma once

#include "widgets/thread_handoff.h"

#include <QCoreApplication>
#include <QPointer>
#include <QRunnable>
#include <QString>
#include <QThreadPool>
#include <QtGlobal>

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <type_traits>
#include <utility>

namespace rlda::widgets {

// The pool every tracker's jobs run on. Never destroyed, so that the application's exit does not
// wait on it unbounded; waitForJobs() is the bounded wait.
QThreadPool& jobPool();
// Waits up to `timeout` for the jobs still running; true when none is left.
bool waitForJobs(std::chrono::milliseconds timeout);
// Where a failure goes when its job was started without `fail`.
void logJobFailure(const QString& message);

// What a failed job says: core::error_line, one line whatever threw (LibTorch's without its
// backtrace, a message of several lines cut at its first).
QString jobErrorLine(const std::exception& e);

class JobTracker {
    struct State {
        std::atomic<quint64> latest{0}; // the id of the job whose result is wanted; 0: none
        QPointer<QObject> context;      // read on the GUI thread only
        bool running = false;           // GUI thread only
    };

public:
    // Which job a result belongs to, for the job itself: stale() once a newer job started, the
    // tracker cancelled or was destroyed. Safe to call from the job's thread.
    class Token {
    public:
        bool stale() const { return state_->latest.load(std::memory_order_acquire) != id_; }

    private:
        friend class JobTracker;
        Token(std::shared_ptr<const State> state, quint64 id) : state_(std::move(state)), id_(id) {}
        std::shared_ptr<const State> state_;
        quint64 id_;
    };

    explicit JobTracker(QObject* context) : state_(std::make_shared<State>()) { state_->context = context; }
    ~JobTracker() { cancel(); }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // From startJob() until the latest job has answered (or cancel()).
    bool isRunning() const { return state_->running && state_->context; }
    // Drops the results of every job started so far.
    void cancel()
    {
        state_->latest.fetch_add(1, std::memory_order_acq_rel); // no job has this id yet
        state_->running = false;
    }

    template <typename Job, typename Finish>
    void startJob(Job&& job, Finish&& finish)
    {
        startJob(std::forward<Job>(job), std::forward<Finish>(finish), &logJobFailure);
    }

    template <typename Job, typename Finish, typename Fail>
    void startJob(Job&& job, Finish&& finish, Fail&& fail)
    {
        using Result = decltype(run(std::declval<std::decay_t<Job>&>(), std::declval<const Token&>()));
        static_assert(!std::is_pointer_v<Result> && !std::is_reference_v<Result> && std::is_move_constructible_v<Result>,
                      "a job returns a value type");
        const quint64 id = state_->latest.fetch_add(1, std::memory_order_acq_rel) + 1;
        state_->running = true;
        auto task = [state = state_, id, job = std::forward<Job>(job), finish = std::forward<Finish>(finish),
                     fail = std::forward<Fail>(fail)]() mutable {
            const Token token(state, id);
            QString error;
            try {
                auto result = run(job, token);
                if (token.stale())
                    return;
                post([state, id, result = std::move(result), finish = std::move(finish)]() mutable {
                    if (wanted(*state, id))
                        finish(std::move(result));
                });
                return;
            } catch (const std::exception& e) {
                error = jobErrorLine(e);
            } catch (...) {
                error = QStringLiteral("a background job failed");
            }
            if (!token.stale())
                post([state, id, error, fail = std::move(fail)]() mutable {
                    if (wanted(*state, id))
                        fail(error);
                });
        };
        jobPool().start(new Runnable<decltype(task)>(std::move(task)));
    }

private:
    template <typename F>
    class Runnable : public QRunnable {
    public:
        explicit Runnable(F f) : f_(std::move(f))
        {
            setAutoDelete(true);
            handoffRelease(this); // built here, run on the pool (widgets/thread_handoff.h)
        }
        void run() override
        {
            handoffAcquire(this);
            f_();
        }

    private:
        F f_;
    };

    template <typename Job>
    static auto run(Job& job, const Token& token)
    {
        if constexpr (std::is_invocable_v<Job&, const Token&>)
            return job(token);
        else
            return job();
    }

    // On the GUI thread: the latest job, its context alive. Marks the tracker idle when it is.
    static bool wanted(State& state, quint64 id)
    {
        if (state.latest.load(std::memory_order_acquire) != id || !state.context)
            return false;
        state.running = false;
        return true;
    }

    // Queued to the application object, which lives on the GUI thread for the whole program: the
    // context is looked at only once there.
    template <typename F>
    static void post(F&& f)
    {
        if (auto* app = QCoreApplication::instance())
            queueCall(app, std::forward<F>(f));
    }

    std::shared_ptr<State> state_;
};

} // namespace rlda::widgets
