// A learning run from its settings to a run folder: Algorithm 4 over one table or a curriculum,
// with checkpoints, per-episode rows and a final evaluation. `rlda learn` and the workbench's
// worker both run it, so the files they leave are the same.
#pragma once

#include "core/agent/learner_options.h"
#include "core/config/experiment.h"
#include "core/model/spec.h"
#include "core/table/results.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace rlda::core::run {

// The paper's episodes of a learning run from scratch: the default of rlda learn, reproduce and
// transfer, and of the Learning page. Their other defaults are LearnRunSettings' (below),
// ReproduceSettings' and TransferSettings': every front end reads them from there.
inline constexpr std::int64_t kPaperEpisodes = 75000;

// One curriculum stage: `episodes` episodes against `table`, starting at `temperature` (0 = keep
// the policy's own).
struct LearnStage {
    std::string table;
    std::int64_t episodes = kPaperEpisodes;
    double temperature = 0.0;
    bool operator==(const LearnStage&) const = default;
};

struct LearnRunSettings {
    std::vector<LearnStage> stages;
    // Each table's starting model, input and classes come from its metadata (table_meta.h); these
    // only override, and must then agree with it. A table without metadata takes them, or ConvNet2
    // at CIFAR-10's input (model::kCifar10Input, kCifar10Classes).
    std::string model;                   // zoo name or TOML file; "" = the table's
    std::optional<model::Shape> input;   // nullopt = the table's
    std::optional<std::int64_t> classes; // nullopt = the table's
    // true: model, input and classes are only what to assume for a table without metadata, and a
    // table that has it is read as it says (the workbench's Learning page, whose fields start at
    // the experiment's model before the table is read); false: they override and must agree.
    bool model_is_fallback = false;
    std::uint64_t seed = 42;         // a new policy's weights and sampling
    std::string from;                // continue this policy file instead (curricula, transfer)
    config::PolicyConfig policy;     // encoder, sizes and rates of a new policy
    double temperature_decay = 0.9;  // temperature x this every temperature_every episodes
    std::int64_t temperature_every = 0; // 0: every policy.decay_freq (the paper); the original code: 1
    // How rewards become updates: the paper's algorithm by default (agent::learner_preset). A
    // policy continued with `from` takes these too, replacing what its file says.
    agent::LearnerOptions learner;
    std::int64_t checkpoint_every = 5000; // policy.pt is rewritten this often (and at the end)
    std::int64_t report_every = 500;      // on_greedy() this often
    // A replicated table's reward: one seed's accuracy drawn per episode (seeded by `seed`), or the mean.
    sim::RewardDraw reward = sim::RewardDraw::Replicate;
    // Other files the caller read for this run (an experiment file sizing the policy): with the
    // stage tables, `model` and `from`, inputs that --force never deletes.
    std::vector<std::string> also_read;
};

struct StageStart {
    int index = 0; // 0-based
    int count = 0;
    LearnStage stage;
    std::int64_t first_episode = 0; // the policy's episode counter before the stage
    double temperature = 0.0;       // what the stage starts at
};

// What run_learning tells its observer, in the order it happens:
//
//   on_message(text)        Before anything is written: a warning per table without metadata, whose
//                           model, input and classes were assumed, and per table that ranks nothing
//                           (core/table/table_checks.h).
//   on_stage(start)         At the start of each stage that runs, after its "stage" event is written
//                           and before its first episode. A stage a stop request prevents gets none.
//   on_episode(record)      After every episode's update, once its row is in metrics/episodes.csv
//                           (see LearnObserver).
//   on_greedy(episode, e)   Every report_every episodes of a stage and when the stage ends (a stop
//                           included), after the "greedy" event is written and policy.pt saved if it
//                           was due: the greedy sequence on the stage's table. `episode` is the
//                           policy's counter.
//
// There is no final hook: the final evaluation is in the LearnRunResult. Every hook runs on the
// thread that called run_learning, one at a time, and may block, learning waiting for it (the
// workbench pauses in on_episode); a stop is seen between episodes. An exception thrown from a hook
// propagates unchanged out of run_learning: the run ends there with no further hooks and no
// "finished" event, the folder keeping what was written and policy.pt its last save.
class LearnRunObserver : public sim::LearnObserver {
public:
    virtual void on_stage(const StageStart&) {}
    virtual void on_greedy(std::int64_t /*episode*/, const sim::Evaluation&) {}
    virtual void on_message(const std::string&) {}
};

struct LearnRunResult {
    std::int64_t episodes = 0; // run by this call, all stages together
    bool cancelled = false;
    sim::Evaluation evaluation; // the final policy on the last stage's table
    std::filesystem::path policy_file;
};

// Opens every table with open_table() (its metadata, its model; an incomplete table or a model that
// does not match is an Error) before anything is written, then fills
// `out`: policy.pt, metrics/episodes.csv (episode,time,objective,accuracy,reward,lr,temperature,
// actions,probabilities) and events.jsonl (settings, stages, greedy checkpoints, evaluation,
// finished). An existing non-empty `out` is an Error unless `force` and rlda made it
// (core/util/output_folder.h). A stop request ends the run between episodes with the policy saved.
LearnRunResult run_learning(const LearnRunSettings& settings, const std::filesystem::path& out, bool force,
                            LearnRunObserver* observer = nullptr, const std::stop_token& stop = {});

// "TABLE:EPISODES[:TEMPERATURE]" (the command line's --stage); Error naming the text.
LearnStage parse_stage(const std::string& text);

} // namespace rlda::core::run
