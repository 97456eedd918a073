// Clocks behind one interface: wall time (the original semantics) or virtual, reproducible time.
#pragma once

#include <chrono>
#include <memory>

namespace rlda::core::train {

// Enough to put a clock back exactly where it was (virtual) or to continue counting from (wall).
struct ClockState {
    double seconds = 0.0;
    long long steps = 0;
    long long evaluations = 0;
};

class Clock {
public:
    virtual ~Clock() = default;
    // Seconds since the clock started (or since the state it was restored to).
    virtual double now() const = 0;
    // Called after every training step and every test evaluation; the virtual clock advances here.
    virtual void on_step() {}
    virtual void on_evaluation() {}
    // For checkpoints: a virtual clock restores exactly; a wall clock continues from `seconds`.
    virtual ClockState state() const = 0;
    virtual void restore(const ClockState& state) = 0;
    virtual bool is_virtual() const = 0;
};

class WallClock final : public Clock {
public:
    WallClock() : start_(std::chrono::steady_clock::now()) {}
    double now() const override
    {
        return offset_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }
    ClockState state() const override { return {now(), 0, 0}; }
    void restore(const ClockState& state) override
    {
        offset_ = state.seconds;
        start_ = std::chrono::steady_clock::now();
    }
    bool is_virtual() const override { return false; }

private:
    std::chrono::steady_clock::time_point start_;
    double offset_ = 0.0;
};

// Advances by a fixed cost per training step (and per evaluation), so that a run is a pure function
// of its config and seed. Time is counted in whole steps, so a restored clock reads exactly what
// the unbroken one does.
class VirtualClock final : public Clock {
public:
    explicit VirtualClock(double step_cost, double eval_cost = 0.0)
        : step_cost_(step_cost), eval_cost_(eval_cost)
    {
    }
    double now() const override
    {
        return static_cast<double>(steps_) * step_cost_ + static_cast<double>(evals_) * eval_cost_;
    }
    void on_step() override { ++steps_; }
    void on_evaluation() override { ++evals_; }
    ClockState state() const override { return {now(), steps_, evals_}; }
    void restore(const ClockState& state) override
    {
        steps_ = state.steps;
        evals_ = state.evaluations;
    }
    bool is_virtual() const override { return true; }

private:
    double step_cost_;
    double eval_cost_;
    long long steps_ = 0;
    long long evals_ = 0;
};

} // namespace rlda::core::train
