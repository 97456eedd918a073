// Ctrl-C and SIGTERM for the commands that run long (simulate, sweep wait, reproduce, transfer):
// caught while an Interrupts object lives, the previous handlers restored after it.
#pragma once

#include <csignal>
#include <stop_token>
#include <thread>

namespace rlda::app {

class Interrupts {
public:
    Interrupts();
    ~Interrupts();
    Interrupts(const Interrupts&) = delete;
    Interrupts& operator=(const Interrupts&) = delete;

    // Whether SIGINT or SIGTERM came since construction.
    bool requested() const;
    // The same as a stop request, for code that takes a std::stop_token: a watcher thread turns
    // the flag into it (a signal handler may only touch a lock-free atomic).
    std::stop_token token() const { return stop_.get_token(); }

private:
    std::stop_source stop_;
    std::jthread watcher_;
    struct sigaction old_int_ = {};
    struct sigaction old_term_ = {};
};

} // namespace rlda::app
