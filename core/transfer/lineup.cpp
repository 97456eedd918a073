// Every agent on one table: judged here, rendered here in the three forms users export.
#include "core/transfer/lineup.h"

#include "core/agent/from_config.h"
#include "core/config/names.h"
#include "core/table/agent_eval.h"
#include "core/table/reliability.h"
#include "core/table/variance_model.h"
#include "core/transfer/references.h"
#include "core/util/csv.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

namespace rlda::core::run {

using namespace sim;

namespace {

std::string sequence_text(const LearnTask& task, const std::vector<int>& sequence)
{
    return task.actions.deepen_only() ? sequence_string(sequence) : task.actions.sequence_text(sequence);
}

LineupEntry entry_of(const LearnTask& task, const std::string& agent, const Evaluation& e)
{
    LineupEntry out;
    out.agent = agent;
    if (e.seed_sequences.empty())
        out.sequences = {e.greedy};
    else
        out.sequences = e.seed_sequences;
    std::vector<std::string> texts;
    for (const auto& s : out.sequences)
        texts.push_back(sequence_text(task, s));
    out.sequence_text = fmt::format("{}", fmt::join(texts, " | "));
    out.rank = e.rank;
    if (task.table->replicated()) {
        out.rank_low = e.greedy_spread.low;
        out.rank_high = e.greedy_spread.high;
        out.p_best = e.greedy_spread.best_share;
        out.among_best = e.greedy_among_best;
    }
    out.accuracy = e.accuracy;
    out.regret = e.regret;
    return out;
}

std::string rank_text(const LineupEntry& e)
{
    if (!e.not_judged.empty())
        return "";
    return e.agent == kLineupRandom ? fmt::format("{:.1f}", e.rank) : fmt::format("{:.0f}", e.rank);
}

bool has_interval(const LineupEntry& e)
{
    return e.not_judged.empty() && e.rank_high > 0;
}

std::string p_best_text(const Lineup& lineup, const LineupEntry& e)
{
    if (!e.not_judged.empty() || lineup.replicates < 2 || e.agent == kLineupRandom)
        return "";
    return fmt::format("{:.0f} %", 100.0 * e.p_best);
}

std::string agent_text(const LineupEntry& e)
{
    return e.in_sample ? e.agent + " (in-sample)" : e.agent;
}

std::string decimal(double v, bool judged)
{
    return judged ? fmt::format("{:.4f}", v) : "";
}

} // namespace

Lineup judge_lineup(const LearnTask& task, const std::optional<Evaluation>& policy, bool in_sample,
                    std::uint64_t seed, const config::AgentConfig& heuristics)
{
    check_task(task);
    const SimulationTable& table = *task.table;
    Lineup out;
    out.table = table.source();
    out.sequences = static_cast<int>(table.rows().size());
    if (table.replicated()) {
        const ReplicateAccuracies r = accuracies_by_seed(table);
        const VarianceModel model = fit_variance_model(r);
        const BestSet set = best_set(r, model);
        out.replicates = r.replicates();
        out.best_set_all = set.all;
        for (const std::int64_t s : set.members)
            out.best_set.push_back(table.rows()[static_cast<std::size_t>(s)].actions);
    }
    if (policy) {
        out.entries.push_back(entry_of(task, kLineupPolicy, *policy));
        out.entries.back().in_sample = in_sample;
    }
    for (const auto& [kind, name] : config::name_table<config::AgentKind>()) {
        if (!agent::is_heuristic(kind))
            continue;
        config::AgentConfig agent = heuristics;
        agent.kind = kind;
        if (!walks_table(agent, task)) {
            LineupEntry e;
            e.agent = name;
            e.not_judged = "it reads the training state, and the table has no decision features";
            out.entries.push_back(std::move(e));
            continue;
        }
        out.entries.push_back(entry_of(task, name, evaluate_agent(agent, task, seed)));
    }
    config::AgentConfig none;
    none.kind = config::AgentKind::None;
    const Evaluation still = evaluate_agent(none, task, seed);
    out.entries.push_back(entry_of(task, kLineupNone, still));
    config::AgentConfig optimal;
    optimal.kind = config::AgentKind::Fixed;
    optimal.sequence = still.optimal_sequence;
    out.entries.push_back(entry_of(task, kLineupOptimal, evaluate_agent(optimal, task, seed)));

    LineupEntry random; // a uniformly random sequence: its expected rank, and where 95 % of its ranks fall
    random.agent = kLineupRandom;
    random.sequence_text = "any";
    const RandomRank r = random_rank(table);
    random.rank = r.rank;
    random.rank_low = r.low;
    random.rank_high = r.high;
    random.accuracy = still.random_expected;
    random.regret = still.optimal - still.random_expected;
    out.entries.push_back(std::move(random));
    return out;
}

LineupVerdict lineup_verdict_of(const Lineup& lineup, const LineupEntry& entry)
{
    if (!entry.not_judged.empty())
        return LineupVerdict::NotJudged;
    if (lineup.replicates < 2)
        return LineupVerdict::OneSeed;
    if (lineup.best_set_all)
        return LineupVerdict::NotSeparated;
    if (entry.agent == kLineupRandom)
        return LineupVerdict::ByChance;
    return entry.among_best ? LineupVerdict::AmongBest : LineupVerdict::BelowBest;
}

std::string lineup_verdict(const Lineup& lineup, const LineupEntry& entry)
{
    switch (lineup_verdict_of(lineup, entry)) {
    case LineupVerdict::AmongBest:
        return "cannot be told from the best";
    case LineupVerdict::BelowBest:
        return "below the best";
    case LineupVerdict::OneSeed:
        return "no test: one seed";
    case LineupVerdict::NotSeparated:
        return "no test: the seeds do not separate the sequences";
    case LineupVerdict::ByChance:
        return fmt::format("by chance: in the best set {} in {}", lineup.best_set.size(), lineup.sequences);
    case LineupVerdict::NotJudged:
        break;
    }
    return "not judged: " + entry.not_judged;
}

std::string lineup_caption(const Lineup& lineup)
{
    const std::string head = fmt::format("{}: {} sequences", lineup.table, lineup.sequences);
    if (lineup.replicates < 2)
        return head + ", one seed: ranks without intervals and no test against the best; build the table at "
                      "several seeds for one (rlda simulate CONFIG --seeds 42 43 44)";
    if (lineup.best_set_all)
        return fmt::format(
            "{}, {} seeds: the seeds do not separate the sequences (no sequence is shown to be "
            "better than another), so no agent is shown to be below the best",
            head, lineup.replicates);
    std::vector<std::string> members;
    for (const auto& s : lineup.best_set)
        members.push_back(sequence_string(s));
    constexpr std::size_t kNamed = 6;
    std::string named = fmt::format(
        "{}",
        fmt::join(members.begin(),
                  members.begin() + static_cast<std::ptrdiff_t>(std::min(kNamed, members.size())), ", "));
    if (members.size() > kNamed)
        named += fmt::format(" and {} more", members.size() - kNamed);
    return fmt::format(
        "{}, {} seeds; the 95 % confidence set for the best holds {} of them ({}); intervals are "
        "marginal 95 %, P(best) descriptive",
        head, lineup.replicates, members.size(), named);
}

std::vector<std::string> lineup_headers()
{
    return {"agent", "sequence", "rank", "95 % interval", "accuracy", "regret", "P(best)", "verdict"};
}

std::vector<std::string> lineup_cells(const Lineup& lineup, const LineupEntry& e)
{
    const bool judged = e.not_judged.empty();
    return {agent_text(e),
            e.sequence_text,
            rank_text(e),
            has_interval(e) ? fmt::format("{}-{}", e.rank_low, e.rank_high) : "",
            decimal(e.accuracy, judged),
            decimal(e.regret, judged),
            p_best_text(lineup, e),
            lineup_verdict(lineup, e)};
}

std::string lineup_text(const Lineup& lineup)
{
    std::vector<std::vector<std::string>> rows{lineup_headers()};
    for (const auto& e : lineup.entries)
        rows.push_back(lineup_cells(lineup, e));
    std::vector<std::size_t> width(rows.front().size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    std::string out = lineup_caption(lineup) + "\n";
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c)
            line += c + 1 < row.size() ? fmt::format("{:<{}}  ", row[c], width[c]) : row[c];
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

std::string lineup_csv(const Lineup& lineup)
{
    std::string out = "table,agent,in_sample,sequence,rank,rank_low,rank_high,accuracy,regret,p_best,"
                      "in_best_set,verdict\n";
    const bool replicated = lineup.replicates > 1;
    for (const auto& e : lineup.entries) {
        const bool judged = e.not_judged.empty();
        const std::vector<std::string> fields{
            lineup.table,
            e.agent,
            e.in_sample ? "yes" : "no",
            e.sequence_text,
            judged
                ? (e.agent == kLineupRandom ? fmt::format("{:.2f}", e.rank) : fmt::format("{:.0f}", e.rank))
                : "",
            has_interval(e) ? std::to_string(e.rank_low) : "",
            has_interval(e) ? std::to_string(e.rank_high) : "",
            decimal(e.accuracy, judged),
            decimal(e.regret, judged),
            judged && replicated && e.agent != kLineupRandom ? fmt::format("{:.4f}", e.p_best) : "",
            judged && replicated && e.agent != kLineupRandom ? (e.among_best ? "yes" : "no") : "",
            lineup_verdict(lineup, e)};
        std::vector<std::string> quoted;
        quoted.reserve(fields.size());
        for (const auto& f : fields)
            quoted.push_back(csv_field(f));
        out += fmt::format("{}\n", fmt::join(quoted, ","));
    }
    return out;
}

std::string lineup_markdown(const Lineup& lineup)
{
    const auto row = [](const std::vector<std::string>& cells) {
        std::vector<std::string> escaped;
        for (const auto& c : cells) {
            std::string s;
            for (const char ch : c) {
                if (ch == '|')
                    s += '\\';
                s += ch;
            }
            escaped.push_back(s);
        }
        return fmt::format("| {} |\n", fmt::join(escaped, " | "));
    };
    std::string out = lineup_caption(lineup) + "\n\n" + row(lineup_headers());
    out += row(std::vector<std::string>(lineup_headers().size(), "---"));
    for (const auto& e : lineup.entries)
        out += row(lineup_cells(lineup, e));
    return out;
}

} // namespace rlda::core::run
