// A race (sweep.race): a replicated table whose later seeds go only to the sequences still in the
// confidence set for the best. The rules are core/table/race.h's; this trains the rounds.
#pragma once

#include "core/config/experiment.h"
#include "core/sim/build.h"
#include "core/table/race.h"
#include "core/table/table.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <vector>

namespace rlda::core::train {
class TrainObserver;
}

namespace rlda::core::sim {

// Reported for every row a round trains (and as each round's build starts).
struct RaceProgress {
    int round = 1;               // 1: every sequence at sweep.seeds
    std::uint64_t seed = 0;      // the round's seed; the first round's: 0
    std::int64_t contenders = 0; // the sequences the round trains (the first: every one)
    BuildProgress build;         // the build of the round (the first: of every starting seed)
};
using RaceProgressFn = std::function<void(const RaceProgress&)>;

struct RaceResult {
    SimulationTable table{1, 1}; // the race's table: out/table.csv
    std::vector<RaceRound> rounds;
    RaceEnd end = RaceEnd::Stopped;
    std::vector<std::int64_t> contenders; // the confidence set for the best at the end (codes)
};

// Races the table of `c` in `out`: the first round is build_table of `c` (every sequence at
// sweep.seeds, at least 2), then each round builds the contenders alone at the next seed
// (race_seeds), each seed in its own folder out/seeds/seed-<S>/ as build_sequences builds it. After
// every round out/table.csv (the rows at every seed so far, an empty cell where a sequence lacks
// one), table.json (its seeds) and race.csv (race_log_text) are written, so that a stopped race's
// folder opens as a table. Running it again on the folder resumes to the same bytes: every choice is
// a function of the rows on disk. Raising sweep.race_max_seeds or the budget lets a finished race go
// on. Error, before anything is trained, for settings without sweep.race, with fewer than 2 seeds or
// more than race_max_seeds, with fused replicates, or not built as a tree (the virtual clock).
RaceResult race_table(const config::ExperimentConfig& c, const std::filesystem::path& out, bool force,
                      const RaceProgressFn& progress = {}, const std::stop_token& stop = {},
                      train::TrainObserver* observer = nullptr);

// Error unless `c` can race (the checks race_table makes first).
void check_race_settings(const config::ExperimentConfig& c);

// The virtual seconds of one epoch of these settings: steps per epoch times scheduler.step_cost, plus
// one evaluation's eval_cost. Loads the dataset's training set to count it.
double epoch_seconds(const config::ExperimentConfig& c);

} // namespace rlda::core::sim
