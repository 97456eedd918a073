// Reproducing the paper's evaluation on its shipped tables: an agent learned from scratch on each
// of six tables, and one curriculum (early -> late -> middle on ConvNet2) judged on all ten, each
// greedy rank set beside the rank the paper published.
#pragma once

#include "core/agent/learner_options.h"
#include "core/run/learn_run.h"
#include "core/table/results.h"

#include <cstdint>
#include <filesystem>
#include <stop_token>
#include <string>
#include <vector>

namespace rlda::core::run {

struct ReproduceSettings {
    std::filesystem::path tables;  // a folder with the paper's index.csv; empty = paper_tables_dir()
    std::int64_t episodes = kPaperEpisodes; // each from-scratch run
    // Each further curriculum stage (late at temperature 10, then middle at 1), from the ConvNet2
    // early policy; 0 = episodes x 2/15 (the paper's 10,000 at 75,000).
    std::int64_t stage_episodes = 0;
    std::uint64_t seed = 42;
    agent::LearnerOptions learner; // the paper's algorithm unless told otherwise
    sim::RewardDraw reward = sim::RewardDraw::Replicate; // for replicated tables (core/table/results.h)
};

// One learning run of the reproduction.
struct ReproduceRun {
    std::string name;                // "scratch-convnet2_early", "curriculum-convnet2"
    std::filesystem::path folder;    // its run folder (policy.pt, metrics/episodes.csv)
    std::vector<std::string> tables; // the stage tables, in order
};

// One evaluated rank, beside the paper's.
struct ReproducedRank {
    std::string trained_on; // "scratch" or "curriculum"
    std::string model;      // the table's
    std::string scenario;
    std::string table;  // file
    std::string run;    // ReproduceRun::name
    int paper_rank = 0; // 0 when the paper published none for this pair
    sim::Evaluation evaluation;
};

struct ReproduceResult {
    std::vector<ReproduceRun> runs;
    std::vector<ReproducedRank> ranks; // scratch (6), then the curriculum on every table (10)
    bool cancelled = false;
};

// Told which run starts; the LearnRunObserver hooks then follow for that run. Same thread.
class ReproduceObserver : public LearnRunObserver {
public:
    virtual void on_run(int /*index*/, int /*count*/, const ReproduceRun&) {}
    virtual void on_rank(const ReproducedRank&) {}
};

// The runs this reproduction makes, in order, before anything is run (for progress displays).
std::vector<ReproduceRun> reproduction_plan(const ReproduceSettings& settings,
                                            const std::filesystem::path& out);

// Learns every run of the plan into out/<run name>/, evaluates, and writes out/ranks.csv
// (trained_on,model,scenario,table,run,rank,paper_rank,sequences,greedy,accuracy,optimal) row by
// row as each rank is known. `out` must be empty or absent unless `force` and rlda made it
// (core/util/output_folder.h). A stop request ends the run in progress between episodes (its
// policy saved) and skips the rest; `cancelled` says so.
// Errors name the file: a missing table, a paper rank file that does not parse.
ReproduceResult reproduce_paper(const ReproduceSettings& settings, const std::filesystem::path& out,
                                bool force, ReproduceObserver* observer = nullptr,
                                const std::stop_token& stop = {});

// The paper's published ranks (data/paper/ranks.csv: trained_on,evaluated_on_model,scenario,rank).
struct PaperRank {
    std::string trained_on;
    std::string model;
    std::string scenario;
    int rank = 0;
};
std::vector<PaperRank> load_paper_ranks(const std::filesystem::path& file);

} // namespace rlda::core::run
