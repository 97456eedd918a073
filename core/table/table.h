// Simulation tables: the final accuracy (and the time left at each decision) of every action sequence.
// read_table_file (below) is the one parser of the format: SimulationTable::load, the builder's
// resume, a sweep's status and the merging of parts and seeds all read through it. No LibTorch.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace rlda::core::sim {

// A seed a replicated row lacks (NaN; statistics leave it out).
inline constexpr double kMissingSeed = std::numeric_limits<double>::quiet_NaN();

// One trained action sequence: columns a1..ak, timeleft1..timeleftk, totaltime, accuracy, and in a
// replicated table accuracy_seed<S> for each of its seeds.
struct TableRow {
    std::vector<int> actions;      // 0..n-1 deepen original block i, n = Do Nothing
    std::vector<double> time_left; // seconds left in the budget when decision i+1 was made
    double total_time = 0.0;       // the budget, seconds
    double accuracy = 0.0;         // final test accuracy, a fraction; a replicated table's: the mean
    // A replicated table's: the accuracy under each of its seeds(), in that order (the mean of
    // those present is `accuracy`). kMissingSeed, an empty cell in the file, for a seed the sequence
    // was not trained at: a race (core/sim/race.h) gives its later seeds only to the sequences still
    // in contention. At least one is present. Empty in a single-seed table.
    std::vector<double> replicates;
    bool operator==(const TableRow&) const = default;
};

// Rows are kept in lexicographic action order; a sequence is found by its code (its value as a
// base-(n+1) number, core/table/sequences.h), so lookups during learning cost O(1).
class SimulationTable {
public:
    // An empty table of `decisions` decisions over `num_actions` actions each (Do Nothing
    // included); throws Error when either is < 1 or (num_actions)^decisions is too large to tabulate.
    SimulationTable(int decisions, int num_actions);

    // Reads the reference format, or a replicated table (read_table_file). `num_actions` = 0 infers
    // it as the largest action + 1, which is exact for a complete table; a partial table (a killed
    // build) needs it given. Throws Error "file:line: reason" for a bad header, a non-number, an
    // action out of range, an accuracy outside [0, 1], a time left beyond the total time, a mean
    // that is not its seeds' or a duplicate sequence.
    static SimulationTable load(const std::string& path, int num_actions = 0);

    // Written atomically in lexicographic order, formatted as the reference tables (Python's csv
    // module: CRLF line ends; timeleft with 6 decimals; totaltime and accuracy in their shortest
    // exact form), so that re-saving a reference table reproduces it byte for byte. A replicated
    // table adds its accuracy_seed<S> columns.
    void save(const std::string& path) const;
    // The paper's columns alone: a single-seed table as save() writes it, a replicated one's means.
    void save_means(const std::string& path) const;

    // The seeds of a replicated table, in column order; empty for a single-seed table. Set before
    // rows are added; every row then carries one accuracy per seed.
    const std::vector<std::uint64_t>& seeds() const { return seeds_; }
    void set_seeds(std::vector<std::uint64_t> seeds);
    bool replicated() const { return !seeds_.empty(); }
    // The seeds (indices into seeds()) that every row holds: all of them unless a race left some
    // rows without its later seeds.
    const std::vector<std::size_t>& seeds_held_by_every_row() const { return held_; }

    int decisions() const { return decisions_; }
    int num_actions() const { return num_actions_; }
    int do_nothing() const { return num_actions_ - 1; }
    // (num_actions)^decisions: the rows of a complete table.
    std::int64_t sequences() const { return static_cast<std::int64_t>(slots_.size()); }
    const std::vector<TableRow>& rows() const { return rows_; }
    bool complete() const { return static_cast<std::int64_t>(rows_.size()) == sequences(); }
    // What errors about the table name: the file it was loaded from, else "simulation table".
    const std::string& source() const { return source_; }

    // Throws Error for a row of the wrong length, an action out of range, a time left that is
    // not a vector of `decisions` values, an accuracy outside [0, 1] or a sequence already present.
    void add(TableRow row);
    // Null when the sequence is not in the table (or not a valid sequence for it).
    const TableRow* find(const std::vector<int>& seq) const;
    // Throws Error naming the sequence when it is missing.
    const TableRow& at(const std::vector<int>& seq) const;

    double accuracy(const std::vector<int>& seq) const { return at(seq).accuracy; }
    // The original learner's rule: for a prefix p of length j < k, timeleft(j+1) of the row that
    // continues p with zeros. Throws Error when that row is missing or j >= k.
    double time_left(const std::vector<int>& prefix) const;

    // 1 = best; ties share the best rank: 1 + the number of rows with a strictly higher accuracy.
    int rank(const std::vector<int>& seq) const;
    // The most accurate row (the first in lexicographic order among equals); Error when empty.
    const TableRow& optimal() const;
    // Every decision Do Nothing.
    std::vector<int> no_adaptation_sequence() const;
    // The paper's baseline: the mean accuracy of `count` sequences drawn uniformly (with
    // replacement, std::mt19937_64 seeded with `seed`). Error when a drawn sequence is missing.
    double random_mean(int count = 10, std::uint64_t seed = 0) const;
    // Mean accuracy over all rows: the expectation of random_mean on a complete table.
    double expected_random() const;

private:
    // sequence_code (sequences.h) of a sequence; -1 for one that does not fit the table.
    std::int64_t code(const std::vector<int>& seq) const;

    int decisions_;
    int num_actions_;
    std::vector<TableRow> rows_;
    std::vector<std::int32_t> slots_; // code -> index in rows_, -1 = absent
    std::vector<std::uint64_t> seeds_;
    std::vector<std::size_t> held_; // the seeds no row lacks, kept as rows are added (read per episode)
    std::string source_ = "simulation table";
};

// For writers that append a table row by row (the table builder): the same text as save().
std::string table_header(int decisions, const std::vector<std::uint64_t>& seeds = {});
std::string table_line(const TableRow& row);
// Whether `line` (its line break allowed) is a table's header as the one parser reads it: the paper's columns, then any
// accuracy_seed<S> columns of a replicated table.
bool is_table_header(const std::string& line);

// One replicated table of the same table built at `seeds` (`tables[i]` at seeds[i], one shape,
// complete or not): every sequence that the first `required` of them all hold (0: every one), with
// its accuracy at each seed (kMissingSeed where a later table lacks it) and the mean of those
// present; its time left is theirs when they agree (the virtual clock), else their mean. Error for
// tables of other shapes or a seed listed twice.
SimulationTable merge_seeds(const std::vector<std::uint64_t>& seeds,
                            const std::vector<const SimulationTable*>& tables, std::size_t required = 0);

// The rows of a table file as the one parser of the format reads them, before they are checked
// against each other (SimulationTable::load does that).
struct TableFile {
    int decisions = 0;
    std::vector<std::uint64_t> seeds; // accuracy_seed<S> columns; empty for a single-seed table
    std::vector<TableRow> rows;       // in file order
    std::vector<int> lines;           // each row's line, 1-based, for messages
};

// The one parser of the table format: the header (a1..ak, timeleft1..timeleftk, totaltime,
// accuracy, then optionally accuracy_seed<S> columns), and each row's numbers, a replicated row's
// mean checked against its seeds'. `decisions` > 0: the header must have that many. `growing`: the
// file may be being appended to (a table or sweep part being built): only whole lines count, the
// text after the last line break is ignored, and a missing file or one without a whole header has
// no rows. Error "file:line: reason".
TableFile read_table_file(const std::filesystem::path& file, int decisions = 0, bool growing = false);

// A table file's first line as fields, read alone (a table may have a million rows); a FIFO or a
// folder is refused. Empty for an empty file.
std::vector<std::string> read_table_header(const std::filesystem::path& file);
// The number of decisions a header names, counting its a1..ak columns, whatever else it holds: for
// a table without metadata, before read_table_file checks the rest.
int header_decisions(const std::vector<std::string>& header);

// One line of an index of tables (data/paper/tables/index.csv).
struct TableIndexEntry {
    std::string file; // the table's path: the index's folder joined with the listed name
    std::string model;
    std::string scenario;
    double adaptation_start = 0.0; // seconds at which the allocation first goes up
    double budget = 0.0;           // seconds
    int sequences = 0;
};

// Reads index.csv (file,model,scenario,adaptation_start_s,budget_s,sequences); Error "file:line:".
std::vector<TableIndexEntry> load_table_index(const std::string& index_csv);

} // namespace rlda::core::sim
