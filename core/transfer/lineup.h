// Every agent on one table, side by side: a policy's greedy sequence (when there is one), each
// growth heuristic, no adaptation, the optimal sequence and a uniformly random one, each with its
// rank, its 95 % interval over the table's seeds and a verdict against the best that says no more
// than the seeds' test does. `rlda evaluate --agent all` prints it; the workbench's Policy page
// shows it; both export it as CSV or Markdown from here. No LibTorch: a policy's evaluation is
// made by the caller (core/run/evaluate_policy.h) and passed in.
#pragma once

#include "core/config/experiment.h"
#include "core/table/judge.h"
#include "core/table/results.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rlda::core::run {

// The names of the rows that are no heuristic (a heuristic's row is its agent.kind).
inline constexpr const char* kLineupPolicy = "policy";
inline constexpr const char* kLineupNone = "none";
inline constexpr const char* kLineupOptimal = "optimal";
inline constexpr const char* kLineupRandom = "random";

struct LineupEntry {
    std::string agent;      // kLineupPolicy, a heuristic's kind, kLineupNone, ...
    bool in_sample = false; // the policy learned on this table
    std::vector<std::vector<int>>
        sequences;                   // the sequence; one per seed where the seeds' differ; none for random
    std::string sequence_text;       // the same, as the table's action names or numbers
    double rank = 0.0;               // random: the expected rank (tie-aware)
    int rank_low = 0, rank_high = 0; // the 95 % interval; random: where 95 % of its ranks fall;
                                     // 0 and 0 for another agent on a single-seed table
    double accuracy = 0.0;           // random: the mean over all sequences
    double regret = 0.0;             // optimal's accuracy less this one
    double p_best = 0.0;             // P(best) over the seeds' bootstrap, descriptive
    bool among_best = false;         // in the 95 % confidence set for the best
    std::string not_judged;          // why this agent could not walk the table; "" when judged
};

struct Lineup {
    std::string table; // its source
    int sequences = 0;
    int replicates = 1;
    // The 95 % confidence set for the best (core/table/variance_model.h), the table's sequences in
    // it, best first; `best_set_all` when the seeds do not separate the sequences. Empty for a
    // single-seed table, which has no such set.
    std::vector<std::vector<int>> best_set;
    bool best_set_all = false;
    std::vector<LineupEntry> entries; // the policy, the heuristics in agent.kind order, none, optimal, random
};

// Judges every agent on `task` (check_task first): `policy`, when given, is its evaluation on this
// table (in_sample: it learned on it); each growth heuristic, or why it cannot walk the table (the
// feature readers need decision features); no adaptation, the optimal sequence and a random one.
// `seed` seeds the bootstraps and the random sequences, as `rlda evaluate --seed` does; `heuristics`
// holds the heuristics' settings (grow-while-improving's threshold; its kind is ignored).
Lineup judge_lineup(const sim::LearnTask& task, const std::optional<sim::Evaluation>& policy = std::nullopt,
                    bool in_sample = false, std::uint64_t seed = 0,
                    const config::AgentConfig& heuristics = {});

// The row's verdict against the best, which claims only what the seeds' test supports.
enum class LineupVerdict {
    AmongBest,    // "cannot be told from the best": in the 95 % confidence set for the best
    BelowBest,    // "below the best": outside it
    OneSeed,      // "no test: one seed"
    NotSeparated, // "no test: the seeds do not separate the sequences"
    ByChance,     // random: how often a random sequence is in the set
    NotJudged,    // "not judged: ...": an agent that could not walk the table
};
LineupVerdict lineup_verdict_of(const Lineup& lineup, const LineupEntry& entry);
// The verdict as the tables print it.
std::string lineup_verdict(const Lineup& lineup, const LineupEntry& entry);

// One line above the table: the table, its sequences and seeds, and the best set (or why there is none).
std::string lineup_caption(const Lineup& lineup);

// The lineup as text for a terminal (aligned columns under the caption), as CSV (one header line;
// rank_low and rank_high as numbers, empty where there is no interval; no caption) and as Markdown
// (the caption, then a pipe table). Every form has the same rows and verdicts.
std::string lineup_text(const Lineup& lineup);
std::string lineup_csv(const Lineup& lineup);
std::string lineup_markdown(const Lineup& lineup);

// The columns the workbench's table shows, in order, and one row's cells: what lineup_text prints.
std::vector<std::string> lineup_headers();
std::vector<std::string> lineup_cells(const Lineup& lineup, const LineupEntry& entry);

} // namespace rlda::core::run
