// The cluster scheduler as the job sees it (the paper's Figure 2): budget, time left, allocation.
#pragma once

#include "core/job/clock.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::train {

// Up and Down are the config's Change (named there: "up", "down"); Same, nothing happened.
enum class Allocation { Same, Up, Down };
std::string to_string(Allocation a);
std::optional<Allocation> allocation_from_string(std::string_view text); // to_string's inverse

struct AllocationEvent {
    double time = 0.0; // seconds since the job started
    Allocation change = Allocation::Up;
    bool operator==(const AllocationEvent&) const = default;
};

class Scheduler {
public:
    // `start_time`: seconds of the budget already used when training starts. Events are sorted by
    // time; throws Error for a non-positive budget or an event outside [0, budget).
    Scheduler(double budget, std::vector<AllocationEvent> events, double start_time, Clock& clock);

    double time_budget() const { return budget_; }
    double elapsed() const;   // start_time + clock
    double time_left() const; // never negative, never increases
    bool expired() const { return time_left() <= 0.0; }

    // Up or Down for the earliest event that is due and not yet reported, else Same. Each event is
    // reported exactly once, in time order.
    Allocation allocation();

    // Checkpointing: how many events were reported.
    std::size_t reported() const { return next_; }
    void restore(std::size_t reported) { next_ = reported; }
    const std::vector<AllocationEvent>& events() const { return events_; }

private:
    double budget_;
    double start_time_;
    std::vector<AllocationEvent> events_;
    std::size_t next_ = 0;
    Clock& clock_;
};

} // namespace rlda::core::train
