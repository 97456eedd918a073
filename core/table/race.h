// Racing: a replicated table's seeds spent where they decide something (docs/tables.md, *Racing*).
// The rules of a race as pure functions of its rows; the engine's driver, which trains the rounds,
// is core/sim/race.h. No LibTorch.
//
// A race builds every sequence at its first seeds (a round per seed, the first round), then round
// after round gives one new seed, the same to each, to the sequences still in the 95 % confidence
// set for the best (core/table/variance_model.h, fitted on every seed so far: the seeds stay
// blocked, so each comparison is paired). It ends when the set has one member, when the seeds reach
// the most allowed, or when the next round would take the race past its budget. The race's table
// holds a row per sequence, its accuracy at every seed it was trained at, an empty cell at the
// others (kMissingSeed, core/table/table.h).
//
// Its cost is counted in epochs from the rows themselves, so that it is the same however often a
// race was stopped and resumed: the virtual seconds a tree build of the round's sequences trains
// (each prefix once, its seed's warm start included) over the virtual seconds of one epoch.
#pragma once

#include "core/table/reliability.h"
#include "core/table/table.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rlda::core::sim {

// The virtual seconds a tree build of the sequences `codes` trains after the warm start: each
// prefix's segment once (from its decision to the next, or to the end of the budget), read from
// the time left that `t`'s rows record (the virtual clock: equal at every seed). Error for a code
// `t` has no row of.
double tree_seconds(const SimulationTable& t, std::span<const std::int64_t> codes);
// The warm start's: from the start to the first decision (every row's total time less its first
// time left). Error for an empty table.
double warm_start_seconds(const SimulationTable& t);

// A round's cost in epochs: `seeds` seeds each training the sequences `codes` as a tree from their
// own warm start, over `epoch_seconds` of virtual time an epoch.
double round_epochs(const SimulationTable& t, std::span<const std::int64_t> codes, std::size_t seeds,
                    double epoch_seconds);

// The sequences (indices, best first) in the 95 % confidence set for the best of these accuracies,
// the seed-blocked model fitted on every seed (NaN where a sequence lacks one).
std::vector<std::int64_t> contenders(const ReplicateAccuracies& r);
// The same of a complete replicated table, as codes. Error for an incomplete or single-seed table.
std::vector<std::int64_t> contenders(const SimulationTable& t);

// A race's seeds: `first`, then one more at a time, the next whole numbers after the largest of
// `first` (skipping none: they are all larger), `count` in all (at least first.size()).
std::vector<std::uint64_t> race_seeds(const std::vector<std::uint64_t>& first, int count);

// Why a race ended.
enum class RaceEnd {
    Stopped,   // asked to stop; running it again resumes
    Named,     // the confidence set for the best has one member
    MostSeeds, // its sequences reached the most seeds allowed
    Budget,    // the next round would have taken it past its budget
};
std::string race_end_text(RaceEnd end);
// Its name in race.csv: "stopped", "named", "most-seeds", "budget".
std::string race_end_name(RaceEnd end);

// What bounds a race: the most seeds a sequence gets (sweep.race_max_seeds), its budget in epochs
// (sweep.race_budget_epochs; 0 = none), and what an epoch costs in virtual seconds.
struct RaceRules {
    int most_seeds = 10;
    double budget_epochs = 0.0;
    double epoch_seconds = 1.0;
};

// After a round: its contenders (the confidence set for the best of the race's accuracies so far,
// codes, best first), and either why the race ends (one contender, `seeds_used` at the most, or the
// next round's cost on top of `spent_epochs` past the budget) or, to go on, the next round's cost.
// `times` holds the rows whose time left costs a round (the race's table). The one rule of both
// the race (core/sim/race.h) and its benchmark (bench/race).
struct RaceStep {
    std::vector<std::int64_t> contenders;
    std::optional<RaceEnd> end; // none: another round, at one new seed, of the contenders
    double epochs = 0.0;        // that round's cost
};
RaceStep next_race_step(const ReplicateAccuracies& accuracies, const SimulationTable& times,
                        std::size_t seeds_used, const RaceRules& rules, double spent_epochs);

// One round: the seeds it trained (the first round's every one of its seeds), the sequences each of
// them trained, its cost, and the confidence set for the best after it.
struct RaceRound {
    std::vector<std::uint64_t> seeds;
    std::int64_t sequences = 0;
    double epochs = 0.0;       // this round's
    double total_epochs = 0.0; // every round's so far
    std::int64_t contenders = 0;
    std::optional<RaceEnd> end; // the last round's, once the race has ended; none while it goes on
};

// race.csv, a race's rounds: round,seeds,sequences,epochs,total_epochs,contenders,end (seeds space
// separated; epochs to 6 decimals; end empty but on the last round of a race that ended),
// written whole after every round.
std::string race_log_text(const std::vector<RaceRound>& rounds);
// Reads it back, Error "file:line: reason" for anything else; an absent file has no rounds.
std::vector<RaceRound> read_race_log(const std::filesystem::path& file);

} // namespace rlda::core::sim
