// What simulation-driven learning reports and what an evaluation finds: plain value types
// (no LibTorch), shared by the engine, the run files, the command line and the workbench.
#pragma once

#include "core/table/reliability.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rlda::core::sim {

// How an episode's accuracy is read from a replicated table (a table of one seed has one accuracy):
// Replicate, the accuracy at one of its seeds drawn for the episode, so that the expected reward is
// the mean's and the policy sees the spread the seeds really have; Mean, the mean over the seeds;
// Centred, the drawn seed's accuracy less that seed's offset (its mean over the table's sequences
// less the table's mean, seed_offsets of core/table/judge.h). Every sequence of a seed shares the
// offset, so removing it leaves each sequence's expected reward as it was and only the noise
// smaller: the offset is 37-82 % of one run's variance on the shipped tables (rlda noise).
enum class RewardDraw { Replicate, Mean, Centred };

struct EpisodeRecord {
    std::int64_t episode = 0; // 1-based, counted over the policy's whole life
    double objective = 0.0;
    double accuracy = 0.0;
    double reward = 0.0;
    double lr = 0.0;          // the lr the update used
    double temperature = 0.0; // the temperature the actions were sampled at
    std::vector<int> actions;
    std::vector<std::vector<double>> probabilities; // per decision
};

// What sim::learn tells its observer. on_episode(record) comes after every episode's policy update,
// on the thread that called learn (or run_learning, which adds the hooks of LearnRunObserver), one
// call at a time; record.episode counts over the policy's whole life, so a policy continued from a
// file goes on from its counter and nothing is replayed.
// Blocking: the hook may block, and learning waits; the workbench pauses learning this way. A stop
// requested meanwhile is seen before the next episode, so a blocking hook should wake on the same
// stop token.
// Exceptions: one thrown from the hook propagates unchanged out of learn (or run_learning); learning
// ends there with no further hooks, and the policy keeps the update of that episode.
class LearnObserver {
public:
    virtual ~LearnObserver() = default;
    virtual void on_episode(const EpisodeRecord&) {}
};

struct Evaluation {
    std::vector<int> greedy;
    std::vector<std::vector<double>> probabilities; // of each greedy decision
    int rank = 0;                                   // 1 = best
    int sequences = 0;
    double accuracy = 0.0;
    double regret = 0.0; // optimal - accuracy
    std::vector<int> optimal_sequence;
    double optimal = 0.0;
    double no_adaptation = 0.0;
    double random_mean = 0.0;     // mean of 10 random sequences, the paper's baseline
    double random_expected = 0.0; // over all sequences
    // An agent that reads each seed's own training state (core/table/agent_eval.h) may take another
    // sequence under each seed of a replicated table. Then this holds each seed's sequence (in the
    // table's seeds() order), `greedy` is the most frequent of them (the earliest seed's among equals),
    // and `rank`, `accuracy`, `regret` and greedy_spread are the agent's: the mean over the seeds of
    // what each seed's sequence earned at that seed, ranked among the sequences' means. Empty when
    // one sequence serves every seed (a policy's, or an agent's that the seeds agree on).
    std::vector<std::vector<int>> seed_sequences;

    // What the table's seeds say (add_seed_statistics, core/sim/learn.h): set for a replicated
    // table, where `rank` and the accuracies are those of the mean over its seeds.
    struct Spread {
        int low = 0, high = 0; // the rank's marginal 95 % interval (core/table/variance_model.h)
        double best_share =
            0.0; // P(best): the share of resamples of the seeds in which it is the best (descriptive)
    };
    int replicates = 1;
    Spread greedy_spread, optimal_spread, no_adaptation_spread;
    // The random baseline under the same statistics: a uniformly random sequence's expected rank in
    // the mean table ((N + 1) / 2 but for ties), and the sd over the seeds of each seed's
    // random_expected (its mean accuracy over all sequences).
    double random_rank = 0.0;
    double random_expected_sd = 0.0;
    int best_set = 0;               // the 95 % confidence set for the best: its size
    bool best_set_all = false;      // every sequence: the table does not separate its sequences
    bool greedy_among_best = false; // the greedy sequence is in that set
    Reliability reliability;        // known() only for a replicated table
};

std::string sequence_string(const std::vector<int>& actions); // "0 2 3"

} // namespace rlda::core::sim
