#include "app/cli/interrupts.h"

#include <atomic>
#include <chrono>

namespace rlda::app {
namespace {

std::atomic<bool> g_signalled{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_signal(int) { g_signalled.store(true); }

} // namespace

Interrupts::Interrupts()
{
    g_signalled.store(false);
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    watcher_ = std::jthread([this](std::stop_token done) {
        while (!done.stop_requested()) {
            if (g_signalled.load()) {
                stop_.request_stop();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
}

Interrupts::~Interrupts()
{
    watcher_.request_stop();
    watcher_.join();
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
}

bool Interrupts::requested() const { return g_signalled.load(); }

} // namespace rlda::app
