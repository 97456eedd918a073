// A race's rules: its cost from the rows, its contenders, its seeds and its log.
#include "core/table/race.h"

#include "core/table/reliability.h"
#include "core/table/results.h"
#include "core/table/sequences.h"
#include "core/table/variance_model.h"
#include "core/util/atomic_file.h"
#include "core/util/csv.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

namespace rlda::core::sim {

double tree_seconds(const SimulationTable& t, std::span<const std::int64_t> codes)
{
    const int k = t.decisions();
    std::set<std::pair<int, std::int64_t>> trained; // (depth, prefix code): each segment once
    double seconds = 0.0;
    for (const std::int64_t code : codes) {
        const auto seq = sequence_of(code, k, t.num_actions());
        const TableRow* row = code >= 0 && code < t.sequences() ? t.find(seq) : nullptr;
        if (row == nullptr)
            throw Error(fmt::format("{}: no row for the sequence {}", t.source(), sequence_string(seq)));
        std::int64_t prefix = 0;
        for (int depth = 1; depth <= k; ++depth) {
            prefix = prefix * t.num_actions() + seq[static_cast<std::size_t>(depth - 1)];
            if (!trained.emplace(depth, prefix).second)
                continue;
            const auto i = static_cast<std::size_t>(depth - 1);
            // From decision `depth` to the next one, or to the end of the budget after the last.
            const double next = depth < k ? row->time_left[i + 1] : 0.0;
            seconds += std::max(0.0, row->time_left[i] - next);
        }
    }
    return seconds;
}

double warm_start_seconds(const SimulationTable& t)
{
    if (t.rows().empty())
        throw Error(fmt::format("{}: no rows, so no warm start to count", t.source()));
    const TableRow& row = t.rows().front();
    return std::max(0.0, row.total_time - row.time_left.front());
}

double round_epochs(const SimulationTable& t, std::span<const std::int64_t> codes, std::size_t seeds,
                    double epoch_seconds)
{
    return static_cast<double>(seeds) * (warm_start_seconds(t) + tree_seconds(t, codes)) / epoch_seconds;
}

std::vector<std::int64_t> contenders(const ReplicateAccuracies& r)
{
    return best_set(r, fit_variance_model(r)).members;
}

std::vector<std::int64_t> contenders(const SimulationTable& t)
{
    if (!t.replicated())
        throw Error(fmt::format("{}: a race needs a replicated table", t.source()));
    // A complete table's rows are in code order: row i is the sequence of code i.
    return contenders(accuracies_by_seed(t)); // Error for an incomplete table
}

RaceStep next_race_step(const ReplicateAccuracies& accuracies, const SimulationTable& times,
                        std::size_t seeds_used, const RaceRules& rules, double spent_epochs)
{
    RaceStep step;
    step.contenders = contenders(accuracies);
    if (step.contenders.size() == 1)
        step.end = RaceEnd::Named;
    else if (static_cast<int>(seeds_used) >= rules.most_seeds)
        step.end = RaceEnd::MostSeeds;
    else {
        step.epochs = round_epochs(times, step.contenders, 1, rules.epoch_seconds);
        if (rules.budget_epochs > 0.0 && spent_epochs + step.epochs > rules.budget_epochs * (1.0 + 1e-12))
            step.end = RaceEnd::Budget;
    }
    return step;
}

std::vector<std::uint64_t> race_seeds(const std::vector<std::uint64_t>& first, int count)
{
    std::vector<std::uint64_t> out = first;
    std::uint64_t next = first.empty() ? 0 : *std::ranges::max_element(first) + 1;
    while (static_cast<int>(out.size()) < count)
        out.push_back(next++);
    return out;
}

namespace {

constexpr std::string_view kRaceHeader = "round,seeds,sequences,epochs,total_epochs,contenders,end";

// Each end: its name in race.csv, and what the race's last line says of it.
struct EndName {
    RaceEnd end;
    std::string_view name, text;
};
constexpr std::array<EndName, 4> kEnds{{
    {RaceEnd::Stopped, "stopped", "stopped; run the same command again to go on"},
    {RaceEnd::Named, "named", "the confidence set for the best has one member"},
    {RaceEnd::MostSeeds, "most-seeds", "the most seeds allowed (sweep.race_max_seeds) are spent"},
    {RaceEnd::Budget, "budget", "the next round would pass the budget (sweep.race_budget_epochs)"},
}};

const EndName& end_name(RaceEnd end)
{
    return *std::ranges::find(kEnds, end, &EndName::end);
}

} // namespace

std::string race_end_text(RaceEnd end)
{
    return std::string(end_name(end).text);
}

std::string race_end_name(RaceEnd end)
{
    return std::string(end_name(end).name);
}

std::string race_log_text(const std::vector<RaceRound>& rounds)
{
    std::string text = std::string(kRaceHeader) + "\n";
    for (std::size_t i = 0; i < rounds.size(); ++i) {
        const RaceRound& r = rounds[i];
        text += fmt::format("{},{},{},{:.6f},{:.6f},{},{}\n", i + 1, fmt::join(r.seeds, " "), r.sequences,
                            r.epochs, r.total_epochs, r.contenders, r.end ? race_end_name(*r.end) : "");
    }
    return text;
}

std::vector<RaceRound> read_race_log(const std::filesystem::path& file)
{
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return {};
    const CsvTable csv = read_csv(file.string());
    const std::string path = file.string();
    if (fmt::format("{}", fmt::join(csv.header, ",")) != kRaceHeader)
        throw Error(fmt::format("{}:1: header: expected \"{}\"", path, kRaceHeader));
    std::vector<RaceRound> out;
    for (std::size_t i = 0; i < csv.rows.size(); ++i) {
        const auto& f = csv.rows[i];
        const auto fail = [&](std::size_t column) {
            throw Error(fmt::format("{}:{}: {}: not a number: {}", path, csv.row_lines[i], csv.header[column],
                                    excerpt(f[column])));
        };
        // The whole of `text` as one number, else fail(column).
        const auto parse = [&](std::string_view text, std::size_t column, auto& value) {
            const auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (err != std::errc() || end != text.data() + text.size() || text.empty())
                fail(column);
        };
        const auto whole = [&](std::size_t column, auto& value) { parse(f[column], column, value); };
        const auto real = [&](std::size_t column) {
            double v = 0.0;
            whole(column, v);
            if (!std::isfinite(v) || v < 0.0)
                fail(column);
            return v;
        };
        RaceRound r;
        std::istringstream seeds(f[1]);
        for (std::string one; seeds >> one;)
            parse(one, 1, r.seeds.emplace_back());
        if (r.seeds.empty())
            fail(1);
        whole(2, r.sequences);
        r.epochs = real(3);
        r.total_epochs = real(4);
        whole(5, r.contenders);
        if (!f[6].empty()) {
            const auto it = std::ranges::find(kEnds, std::string_view(f[6]), &EndName::name);
            if (it == kEnds.end())
                throw Error(fmt::format("{}:{}: end: expected stopped, named, most-seeds or budget, found {}",
                                        path, csv.row_lines[i], excerpt(f[6])));
            r.end = it->end;
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace rlda::core::sim
