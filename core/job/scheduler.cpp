// Allocation events reported once each, against either clock.
#include "core/job/scheduler.h"

#include "core/config/names.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>

namespace rlda::core::train {

std::string to_string(Allocation a)
{
    switch (a) {
    case Allocation::Up: return config::to_string(config::Change::Up);
    case Allocation::Down: return config::to_string(config::Change::Down);
    case Allocation::Same: break;
    }
    return "same";
}

std::optional<Allocation> allocation_from_string(std::string_view text)
{
    for (const Allocation a : {Allocation::Same, Allocation::Up, Allocation::Down})
        if (to_string(a) == text)
            return a;
    return std::nullopt;
}

Scheduler::Scheduler(double budget, std::vector<AllocationEvent> events, double start_time, Clock& clock)
    : budget_(budget), start_time_(start_time), events_(std::move(events)), clock_(clock)
{
    if (!(budget_ > 0.0))
        throw Error(fmt::format("scheduler: the budget must be positive, not {}", budget_));
    if (start_time_ < 0.0 || start_time_ >= budget_)
        throw Error(fmt::format("scheduler: start time {} is outside the budget [0, {})", start_time_, budget_));
    for (const auto& e : events_)
        if (e.time < 0.0 || e.time >= budget_)
            throw Error(fmt::format("scheduler: event at {} s is outside the budget [0, {})", e.time, budget_));
    std::stable_sort(events_.begin(), events_.end(),
                     [](const AllocationEvent& a, const AllocationEvent& b) { return a.time < b.time; });
}

double Scheduler::elapsed() const { return start_time_ + clock_.now(); }

double Scheduler::time_left() const { return std::max(0.0, budget_ - elapsed()); }

Allocation Scheduler::allocation()
{
    if (next_ < events_.size() && events_[next_].time <= elapsed())
        return events_[next_++].change;
    return Allocation::Same;
}

} // namespace rlda::core::train
