// The learning progress line and the evaluation printout of the rlda command line.
#include "app/cli/learn_progress.h"
#include "app/cli/decimal.h"
#include "app/cli/warning.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace rlda::app {

void LearnProgress::on_stage(const core::run::StageStart& s)
{
    end_line();
    fmt::print("stage {}/{}: {} for {} episodes from episode {}, temperature {}\n", s.index + 1, s.count,
               s.stage.table, s.stage.episodes, s.first_episode, decimal(s.temperature));
    total_ = s.stage.episodes;
    done_ = 0;
    start_ = last_print_ = Clock::now();
}

void LearnProgress::on_episode(const core::sim::EpisodeRecord& r)
{
    ++done_;
    recent_.add(r.objective);
    temperature_ = r.temperature;
    const auto now = Clock::now();
    if (now - last_print_ > (tty_ ? std::chrono::milliseconds(250) : std::chrono::seconds(10)) ||
        done_ == total_) {
        last_print_ = now;
        print();
    }
}

void LearnProgress::on_greedy(std::int64_t, const core::sim::Evaluation& e)
{
    greedy_ = fmt::format("[{}] rank {}", core::sim::sequence_string(e.greedy), e.rank);
}

void LearnProgress::on_message(const std::string& text)
{
    print_warning(text);
}

void LearnProgress::end_line()
{
    if (tty_ && done_ > 0)
        fmt::print("\n");
    done_ = 0;
}

void LearnProgress::print()
{
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    const std::string line =
        fmt::format("episode {:>6}/{} {:>7.0f} eps/s  objective(mean of {}) {:>9.2f}  T {:.3g}  greedy {}",
                    done_, total_, static_cast<double>(done_) / std::max(seconds, 1e-9), recent_.count(),
                    recent_.mean(), temperature_, greedy_);
    if (tty_)
        fmt::print("\r\033[K{}", line);
    else
        fmt::print("{}\n", line);
    std::fflush(stdout);
}

void print_evaluation(const core::sim::Evaluation& e, const core::model::ActionSpace* actions,
                      Chooser chooser)
{
    const bool heuristic = chooser == Chooser::Heuristic;
    if (actions && !actions->deepen_only()) {
        fmt::print("actions: {} (optimal {})\n", actions->sequence_text(e.greedy),
                   actions->sequence_text(e.optimal_sequence));
    }
    fmt::print("{}: {}{}\nrank: {}/{}\naccuracy: {}\nregret: {}\noptimal: {} ({})\nno_adaptation: {}\n"
               "random_mean: {}\nrandom_expected: {}\n",
               heuristic ? "choice" : "greedy", core::sim::sequence_string(e.greedy),
               heuristic && !e.seed_sequences.empty()
                   ? " (the heuristic's most frequent choice over the seeds)"
                   : "",
               e.rank, e.sequences, decimal(e.accuracy), decimal(e.regret), decimal(e.optimal),
               core::sim::sequence_string(e.optimal_sequence), decimal(e.no_adaptation),
               decimal(e.random_mean), decimal(e.random_expected));
    if (!e.seed_sequences.empty()) {
        // An agent that took another sequence under some seeds: greedy above is the most frequent.
        std::vector<std::string> each;
        for (const auto& s : e.seed_sequences)
            each.push_back(actions ? actions->sequence_text(s) : core::sim::sequence_string(s));
        fmt::print(
            "{}: {} (under each seed; rank and accuracy are the mean over the seeds of what each seed's "
            "sequence earned)\n",
            heuristic ? "choice_per_seed" : "seed_sequences", fmt::join(each, " | "));
    }
    if (e.reliability.known()) {
        // A replicated table: the rank above is the mean's; the seeds say how far it may be off.
        const auto interval = [](const core::sim::Evaluation::Spread& s) { return fmt::format("{}-{}", s.low, s.high); };
        fmt::print("rank_interval: {} (marginal 95 %, the seed-blocked model over the {} seeds)\n",
                   interval(e.greedy_spread), e.replicates);
        if (e.best_set_all)
            fmt::print(
                "best_set: all {} sequences: the table does not separate them (95 % confidence set for the "
                "best)\n",
                e.best_set);
        else
            fmt::print(
                "best_set: {} sequence{} in the 95 % confidence set for the best; the greedy one is {}among "
                "them (P(best) {:.0f} %, descriptive)\n",
                e.best_set, e.best_set == 1 ? "" : "s", e.greedy_among_best ? "" : "not ",
                100.0 * e.greedy_spread.best_share);
        fmt::print("optimal_rank_interval: {} (P(best) {:.0f} %)\nno_adaptation_rank_interval: {}\n",
                   interval(e.optimal_spread), 100.0 * e.optimal_spread.best_share, interval(e.no_adaptation_spread));
        fmt::print("random_rank: {:.1f} (expected)\nrandom_expected_sd: {} (over the seeds)\n", e.random_rank,
                   decimal(e.random_expected_sd));
    }
    fmt::print("{}\n", core::sim::reliability_text(e.reliability));
}

} // namespace rlda::app
