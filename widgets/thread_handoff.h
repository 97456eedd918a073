// A value handed from one thread to another through Qt, made visible to ThreadSanitizer.
//
// Debian's Qt is not built with ThreadSanitizer, and its QMutex waits on a futex that the sanitizer
// does not see. So a functor queued to another thread's event loop, or a QRunnable started on the
// job pool, reads on the receiving thread memory written on the sending one with no ordering the
// sanitizer knows of, and every such hand-off reads as a race (scripts/test --tsan). These two
// calls state the ordering that Qt's queue provides:
//
//   queueCall(receiver, [payload = std::move(p)] { use(payload); }); // runs on receiver's thread
//   class Task : public QRunnable { Task(...) { ...; handoffRelease(this); }
//                                   void run() override { handoffAcquire(this); ... } };
//
// handoffRelease(p) after the sender's last write, handoffAcquire(p) before the receiver's first
// read. Without ThreadSanitizer (every build but the tsan preset) they are nothing.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <Qt>

#include <utility>

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr); // NOLINT(bugprone-reserved-identifier)
extern "C" void __tsan_release(void* addr); // NOLINT(bugprone-reserved-identifier)
extern "C" void AnnotateIgnoreWritesBegin(const char* file, int line);
extern "C" void AnnotateIgnoreWritesEnd(const char* file, int line);
#endif

namespace rlda::widgets {

inline void handoffRelease([[maybe_unused]] const void* key)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_release(const_cast<void*>(key));
#endif
}

inline void handoffAcquire([[maybe_unused]] const void* key)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(const_cast<void*>(key));
#endif
}

// Calls f on the thread of `receiver`'s event loop, queued (never inline), as the functor overload
// of QMetaObject::invokeMethod does. Everything the sending thread wrote before the call is
// visible to f. The key is one per functor type, so that f reads none of its captures before the
// acquire; the copy of f into Qt's slot object is the hand-off itself, so its writes are left out.
template <typename F> void queueCall(QObject* receiver, F&& f)
{
    static const char key = 0;
    handoffRelease(&key);
#if defined(__SANITIZE_THREAD__)
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
#endif
    QMetaObject::invokeMethod(
        receiver,
        [f = std::forward<F>(f)]() mutable {
            handoffAcquire(&key);
            f();
        },
        Qt::QueuedConnection);
#if defined(__SANITIZE_THREAD__)
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
#endif
}

} // namespace rlda::widgets
