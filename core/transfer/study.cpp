// Transfer runs side by side, per held-out model.
#include "core/transfer/study.h"

#include "core/table/open_table.h"
#include "core/table/sequences.h"
#include "core/table/variance_model.h"
#include "core/transfer/files.h"
#include "core/transfer/references.h"
#include "core/util/data_dir.h"
#include "core/util/distributions.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/statistics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <numeric>
#include <span>

namespace rlda::core::run {

std::vector<StudyRow> compare_transfers(const std::vector<StudyRun>& runs)
{
    std::vector<StudyRow> rows;
    std::vector<const TransferSummary*> first; // per row: the summary its references come from
    std::vector<std::string> first_label;
    for (const auto& run : runs)
        for (const auto& s : run.summaries) {
            const auto it = std::find_if(rows.begin(), rows.end(), [&](const StudyRow& r) { return r.model == s.fold.model; });
            if (it == rows.end()) {
                StudyRow row;
                row.model = s.fold.model;
                row.sequences = s.fold.sequences;
                row.tables = static_cast<int>(s.fold.tables.size());
                row.random = s.fold.random_rank;
                row.random_low = s.fold.random_mean_low;
                row.random_high = s.fold.random_mean_high;
                row.no_adaptation = s.fold.no_adaptation_rank;
                row.best_fixed = s.fold.best_fixed_rank;
                row.heuristic = best_heuristic(s);
                rows.push_back(std::move(row));
                first.push_back(&s);
                first_label.push_back(run.label);
                continue;
            }
            const auto i = static_cast<std::size_t>(it - rows.begin());
            if (first[i]->fold.tables != s.fold.tables)
                throw Error(fmt::format("transfer runs {} and {} judged {} on different tables: their ranks are not "
                                        "comparable",
                                        first_label[i], run.label, s.fold.model));
        }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        StudyRow& row = rows[i];
        row.table_files = first[i]->fold.tables;
        for (const auto& agent : reference_agents(*first[i]))
            if (const auto mean = reference_mean(*first[i], agent))
                row.references.emplace_back(agent, *mean);
        for (const auto& run : runs) {
            const auto it = std::find_if(run.summaries.begin(), run.summaries.end(),
                                         [&](const TransferSummary& s) { return s.fold.model == row.model; });
            row.means.push_back(it == run.summaries.end() ? std::nullopt : it->mean);
            std::vector<int> draws;
            if (it != run.summaries.end())
                for (const auto& table : it->rows) {
                    const auto seeds =
                        std::count_if(table.ranks.begin(), table.ranks.end(),
                                      [](const std::optional<int>& r) { return r.has_value(); });
                    draws.push_back(table.choices <= 1 ? table.choices : static_cast<int>(seeds));
                }
            row.draws.push_back(std::move(draws));
        }
    }
    return rows;
}

std::vector<StudyAverage> study_averages(const std::vector<StudyRun>& runs, const std::vector<StudyRow>& rows)
{
    std::vector<StudyAverage> out;
    const auto add = [&](const std::string& agent, bool run, double fraction) {
        auto it = std::find_if(out.begin(), out.end(), [&](const StudyAverage& a) { return a.agent == agent && a.run == run; });
        if (it == out.end()) {
            out.push_back({agent, run, 0.0, 0});
            it = out.end() - 1;
        }
        it->fraction += fraction;
        ++it->models;
    };
    for (std::size_t r = 0; r < runs.size(); ++r)
        for (const auto& row : rows)
            if (r < row.means.size() && row.means[r] && row.sequences > 0)
                add(runs[r].label, true, *row.means[r] / row.sequences);
    for (const auto& row : rows)
        if (row.sequences > 0)
            for (const auto& [agent, mean] : row.references)
                add(agent, false, mean / row.sequences);
    for (auto& a : out)
        a.fraction /= a.models;
    return out;
}

namespace {

// A table a run names: the path as written, else, for a run made in the source tree that names
// the shipped tables as data/..., where the shipped data is (an installed package, say).
std::filesystem::path located(const std::string& file)
{
    std::filesystem::path path(file);
    if (std::filesystem::exists(path) || path.is_absolute() || path.empty() || *path.begin() != "data")
        return path;
    return find_data_file(path.lexically_relative("data"), data_dirs());
}

} // namespace

StudyTables read_study_tables(const std::vector<StudyRow>& rows)
{
    StudyTables out;
    for (const auto& row : rows)
        for (const auto& file : row.table_files) {
            if (out.contains(file))
                continue;
            try {
                const auto opened = sim::open_table(located(file));
                StudyTable t;
                t.ranks = sequence_ranks(opened.table);
                t.num_actions = opened.table.num_actions();
                t.accuracies = sim::accuracies_by_seed(opened.table);
                if (t.accuracies.replicates() >= 2) {
                    const auto m = sim::fit_variance_model(t.accuracies);
                    t.sigma_e = m.sigma_e;
                    t.df_error = m.df_error;
                }
                out.emplace(file, std::move(t));
            } catch (const std::exception&) {
                // Left out: the model gets no ChanceTest (study_test_lines names the models tested).
            }
        }
    return out;
}

namespace {

// An agent's mean rank on a row as a fraction of the row's sequences; nullopt where it was not judged.
std::optional<double> fraction_of(const StudyRow& row, const std::vector<StudyRun>& runs,
                                  const std::string& agent, bool run)
{
    if (row.sequences <= 0)
        return std::nullopt;
    if (run) {
        for (std::size_t r = 0; r < runs.size() && r < row.means.size(); ++r)
            if (runs[r].label == agent && row.means[r])
                return *row.means[r] / row.sequences;
        return std::nullopt;
    }
    for (const auto& [name, mean] : row.references)
        if (name == agent)
            return mean / row.sequences;
    return std::nullopt;
}

StudyComparison compare(const std::vector<StudyRun>& runs, const std::vector<StudyRow>& rows,
                        const std::string& agent, const std::string& against, bool against_run)
{
    StudyComparison c;
    c.agent = agent;
    c.against = against;
    std::vector<double> differences;
    for (const auto& row : rows) {
        const auto a = fraction_of(row, runs, agent, true);
        const auto b = fraction_of(row, runs, against, against_run);
        if (!a || !b)
            continue;
        ++c.models;
        // Compared as the ranks are printed: to 1e-9 of a fraction, so that equal mean ranks tie.
        const double d = std::abs(*a - *b) < 1e-9 ? 0.0 : *a - *b;
        differences.push_back(d);
        ++(d < 0.0 ? c.better : d > 0.0 ? c.worse : c.tied);
    }
    const SignedRankTest t = signed_rank_test(differences);
    c.p = t.p;
    if (c.p < kStudyLevel) {
        // The agent's ranks are lower where the negative differences weigh more.
        const double all = static_cast<double>(t.positive + t.negative) * (t.positive + t.negative + 1) / 2.0;
        c.verdict = t.w_plus < all - t.w_plus ? StudyVerdict::Better : StudyVerdict::Worse;
    }
    return c;
}

std::string plural(int n, const char* one, const char* many)
{
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

// An agent's weights over one table's sequences (by code): what it chose there. Empty where it
// chose nothing.
using Weights = std::map<std::int64_t, double>;

// Run `label`'s on `file` of `model`: each learning seed's greedy sequence, alike.
Weights run_weights(const StudyRun& run, const std::string& model, const std::string& file, int num_actions)
{
    Weights w;
    for (const auto& s : run.summaries) {
        if (s.fold.model != model)
            continue;
        for (const auto& row : s.rows) {
            if (row.table != file)
                continue;
            int judged = 0;
            for (const auto& g : row.greedy)
                judged += g.empty() ? 0 : 1;
            for (const auto& g : row.greedy)
                if (!g.empty())
                    w[sim::sequence_code(g, num_actions)] += 1.0 / judged;
        }
    }
    return w;
}

// A reference agent's on `file`: its sequence, from the first run that judged the model; random's,
// every sequence alike.
Weights reference_weights(const std::vector<StudyRun>& runs, const std::string& model,
                          const std::string& file, const std::string& agent, const StudyTable& table)
{
    Weights w;
    if (agent == kRandomReference) {
        const std::size_t k = table.accuracies.sequences();
        for (std::size_t s = 0; s < k; ++s)
            w[static_cast<std::int64_t>(s)] = 1.0 / static_cast<double>(k);
        return w;
    }
    for (const auto& run : runs)
        for (const auto& s : run.summaries) {
            if (s.fold.model != model)
                continue;
            for (const auto& row : s.rows)
                if (row.table == file)
                    for (const auto& ref : row.references)
                        if (ref.agent == agent && !ref.sequence.empty()) {
                            w[sim::sequence_code(ref.sequence, table.num_actions)] = 1.0;
                            return w;
                        }
        }
    return w;
}

// The contrast of two agents' weights on one model's tables (ModelContrast); nullopt where no table
// has seeds to test on or either agent chose nothing on one.
std::optional<ModelContrast> contrast(const StudyRow& row, const StudyTables& tables,
                                      const std::function<Weights(const std::string&, const StudyTable&)>& a,
                                      const std::function<Weights(const std::string&, const StudyTable&)>& b)
{
    ModelContrast c;
    c.model = row.model;
    double sum = 0.0, variance = 0.0, df_terms = 0.0;
    for (const auto& file : row.table_files) {
        const auto it = tables.find(file);
        if (it == tables.end() || it->second.df_error <= 0.0)
            continue;
        const StudyTable& t = it->second;
        const Weights wa = a(file, t), wb = b(file, t);
        if (wa.empty() || wb.empty())
            return std::nullopt;
        Weights delta = wa;
        for (const auto& [code, w] : wb)
            delta[code] -= w;
        double d = 0.0, squares = 0.0;
        int seeds = 0;
        for (const auto& seed : t.accuracies.accuracy) {
            double at = 0.0;
            bool whole = true;
            for (const auto& [code, w] : delta) {
                const double y = seed[static_cast<std::size_t>(code)];
                whole = whole && !std::isnan(y);
                at += w * y;
            }
            if (!whole)
                continue; // a race's seed that one of the sequences lacks
            d += at;
            ++seeds;
        }
        if (seeds == 0)
            continue;
        for (const auto& [code, w] : delta)
            squares += w * w;
        const double v = t.sigma_e * t.sigma_e * squares / seeds;
        sum += d / seeds;
        variance += v;
        df_terms += v * v / t.df_error;
        ++c.tables;
    }
    if (c.tables == 0)
        return std::nullopt;
    const double n = c.tables;
    c.difference = sum / n;
    if (std::abs(c.difference) < 1e-12)
        c.difference = 0.0; // the same sequences, or equal accuracies: compared as the table's decimals
    c.se = std::sqrt(variance) / n;
    c.df = df_terms > 0.0 ? variance * variance / df_terms : 0.0;
    if (c.se > 0.0 && c.df > 0.0)
        c.p = 2.0 * (1.0 - t_cdf(std::abs(c.difference) / c.se, c.df));
    else
        c.p = c.difference == 0.0 ? 1.0 : 0.0; // no noise: replicates that agree exactly
    return c;
}

// Holm's step-down over `contrasts` (one model's), at kStudyLevel: adjusted p-values and verdicts.
void holm_adjust(std::span<ModelContrast> contrasts)
{
    std::vector<std::size_t> order(contrasts.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return contrasts[a].p < contrasts[b].p; });
    double running = 0.0;
    const auto m = static_cast<double>(contrasts.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        ModelContrast& c = contrasts[order[i]];
        running = std::max(running, std::min(1.0, (m - static_cast<double>(i)) * c.p));
        c.p = running;
        if (c.p < kStudyLevel)
            c.verdict = c.difference > 0.0 ? StudyVerdict::Better : StudyVerdict::Worse;
    }
}

} // namespace

StudyTests test_study(const std::vector<StudyRun>& runs, const std::vector<StudyRow>& rows,
                      const StudyTables& tables)
{
    StudyTests out;
    std::vector<std::string> references;
    for (const auto& row : rows)
        for (const auto& [agent, mean] : row.references)
            if (agent != kBestFixedReference &&
                std::find(references.begin(), references.end(), agent) == references.end())
                references.push_back(agent);
    for (std::size_t r = 0; r < runs.size(); ++r) {
        for (std::size_t o = 0; o < runs.size(); ++o)
            if (o != r)
                out.comparisons.push_back(compare(runs, rows, runs[r].label, runs[o].label, true));
        for (const auto& agent : references)
            out.comparisons.push_back(compare(runs, rows, runs[r].label, agent, false));
    }
    for (std::size_t r = 0; r < runs.size(); ++r)
        for (const auto& row : rows) {
            if (r >= row.means.size() || !row.means[r] || row.draws[r].size() != row.table_files.size())
                continue;
            std::vector<std::vector<int>> lists;
            for (const auto& file : row.table_files)
                if (const auto it = tables.find(file); it != tables.end())
                    lists.push_back(it->second.ranks);
            if (lists.size() != row.table_files.size())
                continue;
            ChanceTest c;
            c.agent = runs[r].label;
            c.model = row.model;
            for (const int d : row.draws[r])
                c.draws += d;
            c.p = random_mean_p(lists, row.draws[r], *row.means[r]);
            out.chance.push_back(std::move(c));
        }
    // Within each model: each run against every other run, each reference and random.
    for (const auto& row : rows) {
        const std::size_t first = out.contrasts.size();
        std::vector<std::string> agents; // the references judged on this model, best-fixed aside
        for (const auto& [agent, mean] : row.references)
            if (agent != kBestFixedReference &&
                std::find(agents.begin(), agents.end(), agent) == agents.end())
                agents.push_back(agent);
        if (std::find(agents.begin(), agents.end(), kRandomReference) == agents.end())
            agents.emplace_back(kRandomReference);
        for (const auto& run : runs) {
            const auto mine = [&](const std::string& file, const StudyTable& t) {
                return run_weights(run, row.model, file, t.num_actions);
            };
            for (const auto& other : runs) {
                if (&other <= &run)
                    continue; // each pair of runs once: the second against the first is its mirror
                const auto theirs = [&](const std::string& file, const StudyTable& t) {
                    return run_weights(other, row.model, file, t.num_actions);
                };
                if (auto c = contrast(row, tables, mine, theirs)) {
                    c->agent = run.label;
                    c->against = other.label;
                    out.contrasts.push_back(std::move(*c));
                }
            }
            for (const auto& agent : agents) {
                const auto theirs = [&](const std::string& file, const StudyTable& t) {
                    return reference_weights(runs, row.model, file, agent, t);
                };
                if (auto c = contrast(row, tables, mine, theirs)) {
                    c->agent = run.label;
                    c->against = agent;
                    out.contrasts.push_back(std::move(*c));
                }
            }
        }
        holm_adjust(std::span(out.contrasts).subspan(first));
    }
    for (const auto& run : runs) {
        bool every = false;
        for (const auto& c : out.comparisons) {
            if (c.agent != run.label)
                continue;
            every = c.verdict == StudyVerdict::Better;
            if (!every)
                break;
        }
        if (every) {
            out.best = run.label;
            break;
        }
    }
    return out;
}

std::vector<std::string> study_test_lines(const std::vector<StudyRow>& rows, const StudyTests& tests)
{
    std::vector<std::string> out;
    out.push_back(fmt::format(
        "the held-out model as the unit ({}): each pair's mean rank / sequences, paired by model, "
        "Wilcoxon signed-rank test, exact, two-sided, {:.0f} %",
        plural(static_cast<int>(rows.size()), "model", "models"), kStudyLevel * 100));
    for (const auto& c : tests.comparisons) {
        const char* verdict = c.verdict == StudyVerdict::Better  ? "better"
                              : c.verdict == StudyVerdict::Worse ? "worse"
                                                                 : "not distinguishable";
        out.push_back(fmt::format("  {} against {}: lower on {}, higher on {}, equal on {}; p = {:.3f}: {}",
                                  c.agent, c.against, plural(c.better, "model", "models"), c.worse, c.tied,
                                  c.p, verdict));
    }
    if (!tests.chance.empty()) {
        out.emplace_back(
            "against a random agent judged as often (one draw per table where every learning seed chose the "
            "same sequence), exact, one-sided:");
        std::vector<std::string> agents;
        for (const auto& c : tests.chance)
            if (std::find(agents.begin(), agents.end(), c.agent) == agents.end())
                agents.push_back(c.agent);
        for (const auto& agent : agents) {
            std::vector<std::string> cells;
            int better = 0;
            int judged = 0;
            for (const auto& c : tests.chance)
                if (c.agent == agent) {
                    cells.push_back(
                        fmt::format("{} p = {:.3f} ({})", c.model, c.p, plural(c.draws, "draw", "draws")));
                    better += c.p < kStudyLevel ? 1 : 0;
                    ++judged;
                }
            out.push_back(fmt::format("  {}: better than chance on {} of {}: {}", agent, better, judged,
                                      fmt::join(cells, ", ")));
        }
    }
    if (!tests.contrasts.empty()) {
        out.emplace_back("within each held-out model: mean accuracy paired by the table's seeds, over its "
                         "replicated tables; "
                         "the sequences chosen taken as fixed, the noise the table's sigma_e; t tests, "
                         "two-sided, Holm over "
                         "the model's comparisons, 5 %:");
        for (const auto& c : tests.contrasts) {
            const char* verdict = c.verdict == StudyVerdict::Better  ? "better"
                                  : c.verdict == StudyVerdict::Worse ? "worse"
                                                                     : "not distinguishable";
            if (c.difference == 0.0 && c.se == 0.0)
                out.push_back(fmt::format("  {}, {} against {}: the same sequences ({})", c.model, c.agent,
                                          c.against, plural(c.tables, "table", "tables")));
            else
                out.push_back(
                    fmt::format("  {}, {} against {}: {:+.2f} points (se {:.2f}, {}), p = {:.3f}: {}",
                                c.model, c.agent, c.against, 100.0 * c.difference, 100.0 * c.se,
                                plural(c.tables, "table", "tables"), c.p, verdict));
        }
    }
    out.push_back(
        tests.best.empty()
            ? std::string(
                  "best agent: not distinguishable (no agent is better than every other on the models)")
            : fmt::format("best agent: {} (better than every other agent on the models)", tests.best));
    out.emplace_back(
        "the best heuristic and the best fixed sequence are chosen per model in hindsight, on the held-out "
        "tables themselves: references, not agents, and not tested");
    return out;
}

StudyRun read_study_run(const std::filesystem::path& folder, std::string label)
{
    StudyRun run;
    run.summaries = summarize_transfer(read_transfer(folder));
    if (label.empty()) {
        const std::filesystem::path normal = folder.lexically_normal();
        label = (normal.has_filename() ? normal : normal.parent_path()).filename().string();
    }
    // Printed and drawn: a folder named with an escape sequence is shown as its text (\xNN).
    run.label = printable(label.empty() ? folder.string() : label);
    return run;
}

bool beats_chance(const StudyTests& tests, const StudyRow& row, const std::string& label, double mean)
{
    for (const auto& c : tests.chance)
        if (c.agent == label && c.model == row.model)
            return c.p < kStudyLevel;
    return beats_random(row, mean);
}

bool has_random_interval(const StudyRow& row) { return row.random_high > 0.0; }

bool beats_random(const StudyRow& row, double mean)
{
    return has_random_interval(row) && mean < row.random_low;
}

} // namespace rlda::core::run
