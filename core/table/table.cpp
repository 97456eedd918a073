// Reading, checking, querying and writing simulation tables in the reference CSV format.
#include "core/table/table.h"
#include "core/config/value_limits.h"
#include "core/table/sequences.h"

#include "core/util/atomic_file.h"
#include "core/util/csv.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/read_file.h"
#include "core/util/statistics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

namespace rlda::core::sim {
namespace {

// A dense index beyond this would cost more memory than any buildable table is worth.
constexpr std::int64_t kMaxSequences = std::int64_t{1} << 20;

// "[0 2 3]", for messages.
std::string bracketed(const std::vector<int>& seq)
{
    return fmt::format("[{}]", fmt::join(seq, " "));
}

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

template <class T> bool parse_whole(std::string_view text, T& value)
{
    text = trimmed(text);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// Where a load error points: "file:line: ".
struct Place {
    const std::string& file;
    int line;
    [[noreturn]] void fail(const std::string& reason) const
    {
        throw Error(fmt::format("{}:{}: {}", file, line, reason));
    }
};

constexpr std::string_view kSeedColumn = "accuracy_seed";

// The widest header a table can have: a table of k decisions has at least 2^k rows (every block
// and Do Nothing at each), so past 30 decisions it could never be read (core/util/read_file.h's
// cap); then totaltime, accuracy and a column per seed.
constexpr std::size_t kMaxTableDecisions = 30;
constexpr std::size_t kMaxTableColumns = 2 * kMaxTableDecisions + 2 + config::kMaxReplicates;

// The paper's columns of k decisions: a1..ak, timeleft1..timeleftk, totaltime, accuracy.
std::vector<std::string> paper_columns(std::size_t k)
{
    std::vector<std::string> h;
    for (std::size_t i = 1; i <= k; ++i)
        h.push_back(fmt::format("a{}", i));
    for (std::size_t i = 1; i <= k; ++i)
        h.push_back(fmt::format("timeleft{}", i));
    h.emplace_back("totaltime");
    h.emplace_back("accuracy");
    return h;
}

// The decisions and the seeds a header names; Error at `at` unless it is the paper's columns,
// then one accuracy_seed<S> column per seed, each seed once.
std::pair<int, std::vector<std::uint64_t>> columns_of(const std::vector<std::string>& header, const Place& at)
{
    std::vector<std::string> got;
    got.reserve(header.size());
    for (const auto& h : header)
        got.emplace_back(trimmed(h));
    const auto accuracy = std::find(got.begin(), got.end(), "accuracy");
    const auto paper = static_cast<std::size_t>(accuracy - got.begin()) + 1;
    const std::size_t k = accuracy != got.end() && paper >= 4 ? (paper - 2) / 2 : (got.size() >= 4 ? (got.size() - 2) / 2 : 1);
    const auto want = paper_columns(k);
    if (accuracy == got.end() || !std::equal(want.begin(), want.end(), got.begin(), got.begin() + static_cast<std::ptrdiff_t>(paper)))
        at.fail(fmt::format("header: expected \"{}\" (a1..ak,timeleft1..timeleftk,totaltime,accuracy), "
                            "found {}",
                            fmt::join(want, ","), excerpt(fmt::format("{}", fmt::join(got, ",")))));
    std::vector<std::uint64_t> seeds;
    for (std::size_t i = paper; i < got.size(); ++i) {
        std::uint64_t seed = 0;
        const std::string_view name = got[i];
        if (!name.starts_with(kSeedColumn) || !parse_whole(name.substr(kSeedColumn.size()), seed))
            at.fail(fmt::format("header: column {}: expected accuracy_seed<SEED> after accuracy, found {}", i + 1,
                                excerpt(name)));
        if (std::find(seeds.begin(), seeds.end(), seed) != seeds.end())
            at.fail(fmt::format("header: the seed {} has two columns", seed));
        seeds.push_back(seed);
    }
    return {static_cast<int>(k), std::move(seeds)};
}

// One row's numbers. A replicated row's accuracy must be the mean of its seeds' (as save writes it).
} // namespace

bool is_table_header(const std::string& line)
{
    static const std::string kSource = "header";
    try {
        const auto end = line.find_last_not_of(" \t\r\n");
        columns_of(split_csv_record(line.substr(0, end == std::string::npos ? 0 : end + 1)), Place{kSource, 1});
        return true;
    } catch (const Error&) {
        return false;
    }
}

namespace {

TableRow parse_row(const std::vector<std::string>& fields, const std::vector<std::string>& header,
                   std::size_t k, std::size_t seeds, const Place& at)
{
    const auto number = [&](std::size_t i) {
        double v = 0.0;
        if (!parse_whole(fields[i], v) || !std::isfinite(v))
            at.fail(fmt::format("{}: not a number: {}", trimmed(header[i]), excerpt(fields[i])));
        return v;
    };
    TableRow row;
    for (std::size_t i = 0; i < k; ++i) {
        int a = 0;
        if (!parse_whole(fields[i], a))
            at.fail(fmt::format("{}: not an integer: {}", trimmed(header[i]), excerpt(fields[i])));
        row.actions.push_back(a);
    }
    for (std::size_t i = 0; i < k; ++i)
        row.time_left.push_back(number(k + i));
    row.total_time = number(2 * k);
    row.accuracy = number(2 * k + 1);
    // An empty seed cell: a seed the sequence was not trained at (a race's; table.h).
    for (std::size_t i = 0; i < seeds; ++i)
        row.replicates.push_back(trimmed(fields[2 * k + 2 + i]).empty() ? kMissingSeed
                                                                        : number(2 * k + 2 + i));
    if (seeds > 0 && std::ranges::all_of(row.replicates, [](double a) { return std::isnan(a); }))
        at.fail("every accuracy_seed<S> cell is empty; a row holds at least one seed's accuracy");
    if (seeds > 0 && std::abs(decimal_mean(row.replicates) - row.accuracy) > 1e-9)
        at.fail(fmt::format("accuracy: {} is not the mean of the seeds' accuracies ({})", row.accuracy,
                            decimal_mean(row.replicates)));
    return row;
}

// The reason `row` does not belong in a table of this shape, or "" when it does.
std::string row_problem(const TableRow& row, int k, int num_actions)
{
    if (static_cast<int>(row.actions.size()) != k || static_cast<int>(row.time_left.size()) != k)
        return fmt::format("a row needs {} actions and {} times left, got {} and {}", k, k,
                           row.actions.size(), row.time_left.size());
    for (std::size_t i = 0; i < row.actions.size(); ++i)
        if (row.actions[i] < 0 || row.actions[i] >= num_actions)
            return fmt::format("a{}: action {} outside 0..{}", i + 1, row.actions[i], num_actions - 1);
    for (std::size_t i = 0; i < row.time_left.size(); ++i)
        if (!(row.time_left[i] >= 0.0) || !std::isfinite(row.time_left[i]))
            return fmt::format("timeleft{}: must be a finite number >= 0, got {}", i + 1, row.time_left[i]);
    if (!(row.total_time >= 0.0 && row.total_time <= config::kMaxBudget))
        return fmt::format("totaltime: must be a number from 0 to {:g} seconds, got {}", config::kMaxBudget,
                           row.total_time);
    for (std::size_t i = 0; i < row.time_left.size(); ++i)
        if (row.time_left[i] > row.total_time)
            return fmt::format("timeleft{}: {} is more than the total time {}", i + 1, row.time_left[i], row.total_time);
    if (!(row.accuracy >= 0.0 && row.accuracy <= 1.0))
        return fmt::format("accuracy: must lie in [0, 1], got {}", row.accuracy);
    for (const double a : row.replicates)
        if (!std::isnan(a) && !(a >= 0.0 && a <= 1.0))
            return fmt::format("a seed's accuracy: must lie in [0, 1], got {}", a);
    if (!row.replicates.empty() &&
        std::ranges::all_of(row.replicates, [](double a) { return std::isnan(a); }))
        return "no seed's accuracy: a row holds at least one";
    return {};
}

std::int64_t power(int base, int exponent)
{
    std::int64_t p = 1;
    for (int i = 0; i < exponent; ++i) {
        p *= base;
        if (p > kMaxSequences)
            return -1;
    }
    return p;
}

} // namespace

SimulationTable::SimulationTable(int decisions, int num_actions)
    : decisions_(decisions), num_actions_(num_actions)
{
    if (decisions < 1 || num_actions < 1)
        throw Error(
            fmt::format("a simulation table needs at least one decision and one action, not {} and {}",
                        decisions, num_actions));
    const std::int64_t n = power(num_actions, decisions);
    if (n < 0)
        throw Error(fmt::format("{}^{} action sequences are too many to tabulate (at most {})", num_actions,
                                decisions, kMaxSequences));
    slots_.assign(static_cast<std::size_t>(n), -1);
}

TableFile read_table_file(const std::filesystem::path& file, int decisions, bool growing)
{
    TableFile out;
    const std::string path = file.string();
    std::error_code ec;
    if (growing && !std::filesystem::exists(file, ec))
        return out;
    std::string text = read_text_file(file);
    if (growing) {
        // A writer appends whole lines; what follows the last line break is a line being written.
        const auto end = text.rfind('\n');
        text.resize(end == std::string::npos ? 0 : end + 1);
        if (text.empty())
            return out;
    }
    std::vector<std::string> header;
    std::size_t seeds = 0;
    std::size_t begin = 0;
    for (int number = 1; begin < text.size(); ++number) {
        const std::size_t eol = std::min(text.find('\n', begin), text.size());
        std::string line = text.substr(begin, eol - begin);
        begin = eol + 1;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        const Place at{path, number};
        if (header.empty() && line.find('\r') != std::string::npos)
            at.fail("its lines end in CR alone (an old Mac text file); save it with LF or CRLF line ends");
        // Bounded before a field is made (a line of 30 MB of commas took 4 GB as strings).
        const auto commas = static_cast<std::size_t>(std::count(line.begin(), line.end(), ','));
        if (header.empty() && commas >= kMaxTableColumns)
            at.fail(fmt::format("header: {} columns, more than the {} a table can have", commas + 1,
                                kMaxTableColumns));
        if (!header.empty() && commas + 1 != header.size())
            at.fail(fmt::format("{} fields, the header has {}", commas + 1, header.size()));
        std::vector<std::string> fields;
        try {
            fields = split_csv_record(line);
        } catch (const Error& e) {
            at.fail(e.what());
        }
        if (header.empty()) {
            header = std::move(fields);
            auto [k, s] = columns_of(header, at);
            if (decisions > 0 && k != decisions)
                at.fail(fmt::format("header: a table of {} decisions, expected {}", k, decisions));
            out.decisions = k;
            out.seeds = std::move(s);
            seeds = out.seeds.size();
            continue;
        }
        if (fields.size() != header.size())
            at.fail(fmt::format("{} fields, the header has {}", fields.size(), header.size()));
        out.rows.push_back(parse_row(fields, header, static_cast<std::size_t>(out.decisions), seeds, at));
        out.lines.push_back(number);
    }
    if (header.empty() && !growing)
        throw Error(fmt::format("{}: empty file, expected a header row", path));
    return out;
}

SimulationTable SimulationTable::load(const std::string& path, int num_actions)
{
    TableFile f = read_table_file(path);
    const int k = f.decisions;
    int largest = 0;
    for (std::size_t i = 0; i < f.rows.size(); ++i) {
        const Place at{path, f.lines[i]};
        // Without a given count the largest action sizes the table: refused here, at its line, before
        // largest + 1 could overflow or the count be too many to tabulate.
        for (std::size_t j = 0; j < f.rows[i].actions.size(); ++j)
            if (const int a = f.rows[i].actions[j];
                num_actions <= 0 && a >= 0 && (a >= kMaxSequences || power(a + 1, k) < 0))
                at.fail(fmt::format(
                    "a{}: action {} makes {}^{} action sequences, too many to tabulate (at most {})", j + 1,
                    a, std::int64_t{a} + 1, k, kMaxSequences));
        for (int a : f.rows[i].actions)
            largest = std::max(largest, a);
    }
    SimulationTable table(k, num_actions > 0 ? num_actions : largest + 1);
    table.source_ = path;
    table.set_seeds(f.seeds);
    std::vector<std::int64_t> first_line(static_cast<std::size_t>(table.sequences()), -1);
    for (std::size_t i = 0; i < f.rows.size(); ++i) {
        const Place at{path, f.lines[i]};
        if (const std::string why = row_problem(f.rows[i], k, table.num_actions_); !why.empty())
            at.fail(why);
        auto& first = first_line[static_cast<std::size_t>(table.code(f.rows[i].actions))];
        if (first >= 0)
            at.fail(fmt::format("duplicate sequence {} (first on line {})", bracketed(f.rows[i].actions), first));
        first = f.lines[i];
        table.add(std::move(f.rows[i]));
    }
    return table;
}

void SimulationTable::save(const std::string& path) const
{
    std::string text = table_header(decisions_, seeds_);
    for (const auto& row : rows_)
        text += table_line(row);
    write_text_atomically(path, text);
}

void SimulationTable::save_means(const std::string& path) const
{
    std::string text = table_header(decisions_);
    for (TableRow row : rows_) {
        row.replicates.clear();
        text += table_line(row);
    }
    write_text_atomically(path, text);
}

void SimulationTable::set_seeds(std::vector<std::uint64_t> seeds)
{
    if (!rows_.empty())
        throw Error("simulation table: the seeds are set before any row is added");
    for (std::size_t i = 0; i < seeds.size(); ++i)
        if (std::find(seeds.begin(), seeds.begin() + static_cast<std::ptrdiff_t>(i), seeds[i]) !=
            seeds.begin() + static_cast<std::ptrdiff_t>(i))
            throw Error(fmt::format("simulation table: the seed {} is listed twice", seeds[i]));
    seeds_ = std::move(seeds);
    held_.resize(seeds_.size());
    std::iota(held_.begin(), held_.end(), std::size_t{0});
}

std::int64_t SimulationTable::code(const std::vector<int>& seq) const
{
    if (static_cast<int>(seq.size()) != decisions_)
        return -1;
    return sequence_code(seq, num_actions_);
}

void SimulationTable::add(TableRow row)
{
    if (const std::string why = row_problem(row, decisions_, num_actions_); !why.empty())
        throw Error(fmt::format("simulation table row {}: {}", bracketed(row.actions), why));
    if (row.replicates.size() != seeds_.size())
        throw Error(fmt::format("simulation table row {}: {} seeds' accuracies, the table has {} seeds",
                                bracketed(row.actions), row.replicates.size(), seeds_.size()));
    const std::int64_t c = code(row.actions);
    if (slots_[static_cast<std::size_t>(c)] >= 0)
        throw Error(fmt::format("simulation table: duplicate sequence {}", bracketed(row.actions)));
    for (std::size_t i = 0; i < row.replicates.size(); ++i)
        if (std::isnan(row.replicates[i]))
            std::erase(held_, i);
    // Lexicographic order is the order of codes; rows usually arrive in it, so this appends.
    const auto pos = std::lower_bound(rows_.begin(), rows_.end(), c,
                                      [&](const TableRow& r, std::int64_t v) { return code(r.actions) < v; });
    const auto inserted = rows_.insert(pos, std::move(row)); // may reallocate: begin() only after it
    for (auto i = static_cast<std::size_t>(inserted - rows_.begin()); i < rows_.size(); ++i)
        slots_[static_cast<std::size_t>(code(rows_[i].actions))] = static_cast<std::int32_t>(i);
}

const TableRow* SimulationTable::find(const std::vector<int>& seq) const
{
    const std::int64_t c = code(seq);
    if (c < 0)
        return nullptr;
    const std::int32_t i = slots_[static_cast<std::size_t>(c)];
    return i < 0 ? nullptr : &rows_[static_cast<std::size_t>(i)];
}

const TableRow& SimulationTable::at(const std::vector<int>& seq) const
{
    if (const TableRow* row = find(seq))
        return *row;
    throw Error(fmt::format("simulation table: no row for the sequence {} ({} decisions over actions 0..{})",
                            bracketed(seq), decisions_, num_actions_ - 1));
}

double SimulationTable::time_left(const std::vector<int>& prefix) const
{
    const auto j = prefix.size();
    if (j >= static_cast<std::size_t>(decisions_))
        throw Error(fmt::format("simulation table: the time left is known before decisions 1..{}, not after "
                                "the prefix {}",
                                decisions_, bracketed(prefix)));
    std::vector<int> seq = prefix;
    seq.resize(static_cast<std::size_t>(decisions_), 0);
    return at(seq).time_left[j];
}

int SimulationTable::rank(const std::vector<int>& seq) const
{
    return competition_rank(rows_, accuracy(seq), &TableRow::accuracy);
}

const TableRow& SimulationTable::optimal() const
{
    if (rows_.empty())
        throw Error("simulation table: no rows, so no optimal sequence");
    return *std::max_element(rows_.begin(), rows_.end(),
                             [](const TableRow& a, const TableRow& b) { return a.accuracy < b.accuracy; });
}

std::vector<int> SimulationTable::no_adaptation_sequence() const
{
    // Parentheses: braces would make the two-element list {decisions, do_nothing}.
    return std::vector<int>(static_cast<std::size_t>(decisions_), do_nothing()); // NOLINT(modernize-return-braced-init-list)
}

double SimulationTable::random_mean(int count, std::uint64_t seed) const
{
    if (count < 1)
        throw Error(fmt::format("simulation table: random_mean needs at least one sequence, not {}", count));
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> action(0, num_actions_ - 1);
    double sum = 0.0;
    for (int i = 0; i < count; ++i) {
        std::vector<int> seq(static_cast<std::size_t>(decisions_));
        for (int& a : seq)
            a = action(rng);
        sum += accuracy(seq);
    }
    return sum / count;
}

double SimulationTable::expected_random() const
{
    if (rows_.empty())
        throw Error("simulation table: no rows to average");
    double sum = 0.0;
    for (const auto& r : rows_)
        sum += r.accuracy;
    return sum / static_cast<double>(rows_.size());
}

SimulationTable merge_seeds(const std::vector<std::uint64_t>& seeds,
                            const std::vector<const SimulationTable*>& tables, std::size_t required)
{
    if (required == 0 || required > tables.size())
        required = tables.size();
    if (tables.empty() || tables.size() != seeds.size())
        throw Error("replicated table: one table is needed for each seed");
    const SimulationTable& first = *tables.front();
    for (const auto* t : tables)
        if (t->decisions() != first.decisions() || t->num_actions() != first.num_actions() || t->replicated())
            throw Error(fmt::format("replicated table: {} is not a single-seed table of {} decisions over {} actions",
                                    t->source(), first.decisions(), first.num_actions()));
    SimulationTable out(first.decisions(), first.num_actions());
    out.set_seeds(seeds);
    for (const TableRow& row : first.rows()) {
        TableRow merged = row;
        merged.replicates.clear();
        std::vector<std::vector<double>> times;
        bool everywhere = true;
        for (std::size_t i = 0; i < tables.size(); ++i) {
            const TableRow* r = tables[i]->find(row.actions);
            if (!r && i < required) {
                everywhere = false;
                break;
            }
            merged.replicates.push_back(r ? r->accuracy : kMissingSeed);
            if (r)
                times.push_back(r->time_left);
        }
        if (!everywhere)
            continue;
        merged.accuracy = decimal_mean(merged.replicates);
        for (std::size_t d = 0; d < merged.time_left.size(); ++d) {
            std::vector<double> at;
            at.reserve(times.size());
            for (const auto& t : times)
                at.push_back(t[d]);
            if (std::any_of(at.begin(), at.end(), [&](double v) { return v != at.front(); }))
                merged.time_left[d] = mean_of(at);
        }
        out.add(std::move(merged));
    }
    return out;
}

std::string table_header(int decisions, const std::vector<std::uint64_t>& seeds)
{
    std::string h = fmt::format("{}", fmt::join(paper_columns(static_cast<std::size_t>(decisions)), ","));
    for (const auto seed : seeds)
        h += fmt::format(",{}{}", kSeedColumn, seed);
    return h + "\r\n";
}

std::string table_line(const TableRow& row)
{
    // fmt's "{}" is the shortest text that reads back to the same double, as Python's repr.
    std::string line;
    for (int a : row.actions)
        line += fmt::format("{},", a);
    for (double t : row.time_left)
        line += fmt::format("{:.6f},", t);
    line += fmt::format("{},{}", row.total_time, row.accuracy);
    for (double a : row.replicates)
        line += std::isnan(a) ? std::string(",") : fmt::format(",{}", a);
    return line + "\r\n";
}

std::vector<TableIndexEntry> load_table_index(const std::string& index_csv)
{
    const CsvTable csv = read_csv(index_csv);
    const std::vector<std::string> want{"file",     "model",    "scenario", "adaptation_start_s",
                                        "budget_s", "sequences"};
    if (csv.header != want)
        Place{index_csv, 1}.fail(fmt::format("header: expected \"{}\", found {}", fmt::join(want, ","),
                                             excerpt(fmt::format("{}", fmt::join(csv.header, ",")))));
    const std::filesystem::path folder = std::filesystem::path(index_csv).parent_path();
    std::vector<TableIndexEntry> out;
    for (std::size_t i = 0; i < csv.rows.size(); ++i) {
        const auto& f = csv.rows[i];
        const Place at{index_csv, csv.row_lines[i]};
        TableIndexEntry e;
        e.file = (folder / f[0]).string();
        e.model = f[1];
        e.scenario = f[2];
        if (!parse_whole(f[3], e.adaptation_start))
            at.fail(fmt::format("adaptation_start_s: not a number: {}", excerpt(f[3])));
        if (!parse_whole(f[4], e.budget))
            at.fail(fmt::format("budget_s: not a number: {}", excerpt(f[4])));
        if (!parse_whole(f[5], e.sequences))
            at.fail(fmt::format("sequences: not an integer: {}", excerpt(f[5])));
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<std::string> read_table_header(const std::filesystem::path& file)
{
    bool more = false;
    std::string line = read_file_prefix(file, std::uint64_t{64} * 1024, more);
    line.resize(std::min(line.size(), line.find('\n')));
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    std::vector<std::string> fields;
    std::stringstream s(line);
    for (std::string f; std::getline(s, f, ',');)
        fields.push_back(f);
    return fields;
}

int header_decisions(const std::vector<std::string>& header)
{
    return static_cast<int>(std::count_if(header.begin(), header.end(), [](const std::string& h) {
        return h.size() > 1 && h[0] == 'a' &&
               std::all_of(h.begin() + 1, h.end(), [](char c) { return c >= '0' && c <= '9'; });
    }));
}

} // namespace rlda::core::sim
