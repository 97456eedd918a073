// The transfer protocol: leave one model out, learn one policy on every table of the others, and
// judge it greedily on every table of the model it never saw, beside the references a reader needs
// (a random sequence, no adaptation, the best fixed sequence chosen in hindsight). Its results are
// values of core/transfer/results.h, written as core/transfer/files.h says.
#pragma once

#include "core/agent/learner_options.h"
#include "core/config/experiment.h"
#include "core/run/learn_run.h"
#include "core/table/results.h"
#include "core/transfer/results.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace rlda::core::run {

struct TransferSettings {
    std::vector<std::filesystem::path> tables; // every table, of every model (sim::expand_tables)
    // Replicates of some of those tables (core/table/replicates.h: the same table at another seed):
    // judged with their model when it is held out, so that its ranks come with their spread, and
    // never learned from, so that the training tables stay the same with or without them.
    std::vector<std::filesystem::path> replicates;
    std::vector<std::string> held_out;         // models left out in turn; empty = each model
    std::int64_t episodes = kPaperEpisodes; // per held-out model and seed, over its training tables in turn
    std::vector<std::uint64_t> seeds{42};
    config::PolicyConfig policy = [] {
        config::PolicyConfig p;
        p.encoder = config::PolicyEncoder::Structural; // the original encoder serves one block count only
        return p;
    }();
    agent::LearnerOptions learner = agent::LearnerOptions::robust();
    // A replicated training table's reward: one seed's accuracy per episode (drawn with the fold's
    // seed), or the mean (core/table/results.h).
    sim::RewardDraw reward = sim::RewardDraw::Replicate;
    // Each training model weighs the same, however many tables it has: the episodes go over the
    // models in turn, each model's tables in turn (a model of one table plays it every round).
    // Off: over the tables in turn, so that a model of three tables weighs three times one of one.
    bool balance_models = false;
};

// Told as the protocol goes (same thread): a fold's references before its first seed, each seed's
// start, every episode (LearnObserver), each rank once judged.
class TransferObserver : public sim::LearnObserver {
public:
    virtual void on_fold(const TransferFold&) {}
    virtual void on_seed(const TransferFold&, std::uint64_t /*seed*/) {}
    virtual void on_rank(const TransferRank&) {}
};

// Opens every table (its metadata names its model; an incomplete table or one without metadata is
// an Error) before anything is written. Then fills `out`: folds.csv, references.csv (each held-out
// table's references, before any learning), ranks.csv (a flushed line per rank, so that a killed
// run keeps what it judged) and <model>-seed<N>/policy.pt. Errors: a held-out
// model no table has; a fold with no training table; the original encoder with models of different
// block counts. A stop request ends it between episodes; what was judged stays.
TransferResult run_transfer(const TransferSettings& settings, const std::filesystem::path& out, bool force,
                            TransferObserver* observer = nullptr, const std::stop_token& stop = {});

} // namespace rlda::core::run
