// Replicated tables drawn from a known truth, for the statistics' calibration tests and the race's
// benchmark: what a table built at R seeds would hold if the seed-blocked model, with noise shared
// along the decision tree, were exactly true. No LibTorch.
#pragma once

#include "core/table/reliability.h"

#include <cstdint>
#include <random>
#include <vector>

namespace rlda::core::sim {

// The truth of a table of num_actions^decisions sequences (code order, core/table/sequences.h).
struct TableTruth {
    int decisions = 3;
    int num_actions = 4;
    std::vector<double> effect; // each sequence's true mean accuracy
    double sigma_seeds = 0.0;   // sd of the offset a seed gives every sequence
    double sigma_e = 0.01;      // sd of one sequence's noise at one seed, in all
    // The share of sigma_e^2 drawn before the last decision, split evenly over the prefixes of
    // length 1..decisions-1: sequences that share a prefix share that part of the noise (a tree
    // build trains the prefix once per seed). The rest is the sequence's own.
    double prefix_share = 0.0;

    int sequences() const;
    // The true competition rank of each sequence (1 = best).
    std::vector<int> ranks() const;
    // The index of the truly best sequence (the first of equals).
    std::size_t best() const;
};

// The truth with effects drawn N(mean, sigma_sequences^2) from `rng`.
TableTruth random_truth(int decisions, int num_actions, double mean, double sigma_sequences,
                        double sigma_seeds, double sigma_e, double prefix_share, std::mt19937_64& rng);

// One seed's accuracies of every sequence.
std::vector<double> draw_seed(const TableTruth& truth, std::mt19937_64& rng);

// A table at `seeds` seeds: draw_seed for each.
ReplicateAccuracies draw_table(const TableTruth& truth, int seeds, std::mt19937_64& rng);

} // namespace rlda::core::sim
