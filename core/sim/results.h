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
