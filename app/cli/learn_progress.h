// What `rlda learn`, `rlda reproduce` and `rlda transfer` print while a policy learns, and after it
// was judged.
#pragma once

#include "core/run/learn_run.h"
#include "core/table/results.h"
#include "core/util/rolling_mean.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace rlda::app {

// The progress line: rate, rolling objective and the latest greedy sequence, redrawn in place on
// a terminal, a plain line every 10 s otherwise. Warnings go to stderr.
class LearnProgress final : public core::run::LearnRunObserver {
public:
    LearnProgress(std::size_t window, bool tty) : recent_(window), tty_(tty) {}

    void on_stage(const core::run::StageStart& s) override;
    void on_episode(const core::sim::EpisodeRecord& r) override;
    void on_greedy(std::int64_t, const core::sim::Evaluation& e) override;
    void on_message(const std::string& text) override;
    // Ends a line redrawn in place, before other output.
    void end_line();

private:
    using Clock = std::chrono::steady_clock;
    void print();

    core::RollingMean recent_; // the objective over the last `window` episodes
    bool tty_;
    Clock::time_point start_ = Clock::now(), last_print_ = start_;
    std::int64_t total_ = 0, done_ = 0;
    double temperature_ = 0.0;
    std::string greedy_ = "(after the first report)";
};

// Who chose the sequence evaluated: a policy's is its greedy sequence; a growth heuristic walks each
// seed's table and may choose differently under each seed.
enum class Chooser { Policy, Heuristic };

// greedy (a heuristic's: choice), rank, accuracy, regret, optimal, no_adaptation, random_mean,
// random_expected: one a line; with `actions` of more operations than deepening, the chosen and
// optimal sequences by name too ("actions: d1 w0 (optimal d1 d1)"); where the seeds' choices
// differ, each seed's (seed_sequences, a heuristic's: choice_per_seed).
void print_evaluation(const core::sim::Evaluation& e, const core::model::ActionSpace* actions = nullptr,
                      Chooser chooser = Chooser::Policy);

} // namespace rlda::app
