// What simulation-driven learning reports and what an evaluation finds: plain value types
// (no LibTorch), shared by the engine, the run files, the command line and the workbench.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlda::core::sim {

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
};

std::string sequence_string(const std::vector<int>& actions); // "0 2 3"

} // namespace rlda::core::sim
