// Leave one model out, learn on the rest, judge on the one left out.
#include "core/run/transfer_protocol.h"

#include "core/agent/reinforce.h"
#include "core/sim/agent_eval.h"
#include "core/sim/learn.h"
#include "core/train/setup.h"
#include "core/sim/replicates.h"
#include "core/sim/table_meta.h"
#include "core/util/csv.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/line_appender.h"
#include "core/util/output_folder.h"
#include "core/util/statistics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cctype>
#include <charconv>
#include <map>

namespace rlda::core::run {

using namespace sim;

namespace {

namespace fs = std::filesystem;

constexpr const char* kFoldsHeader =
    "model,sequences,random_rank,random_mean_low,random_mean_high,no_adaptation_rank,best_fixed,best_fixed_rank,tables,"
    "training_tables\n";
constexpr const char* kRanksHeader = "model,seed,table,scenario,table_seed,rank,sequences,greedy,accuracy,optimal,"
                                     "no_adaptation_rank,best_fixed_rank\n";

constexpr const char* kReferencesHeader =
    "model,table,scenario,agent,rank,rank_low,rank_high,p_best,among_best,sequence\n";

std::string reference_line(const TransferReference& r)
{
    return fmt::format("{},{},{},{},{},{},{},{},{},{}\n", r.model, r.table, r.scenario, r.agent, r.rank, r.rank_low,
                       r.rank_high, r.p_best, r.among_best ? 1 : 0, sequence_string(r.sequence));
}

std::string fold_line(const TransferFold& f)
{
    return fmt::format("{},{},{},{},{},{},{},{},{},{}\n", f.model, f.sequences, f.random_rank, f.random_mean_low,
                       f.random_mean_high, f.no_adaptation_rank, sequence_string(f.best_fixed), f.best_fixed_rank, fmt::join(f.tables, ";"),
                       fmt::join(f.training_tables, ";"));
}

std::string rank_line(const TransferRank& r)
{
    const auto& e = r.evaluation;
    return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", r.model, r.seed, r.table, r.scenario, r.table_seed,
                       e.rank, e.sequences, sequence_string(e.greedy), e.accuracy, e.optimal, r.no_adaptation_rank,
                       r.best_fixed_rank);
}

// A model name as a folder name: letters, digits, '-' and '_' kept, anything else '_'.
std::string folder_name(const std::string& model)
{
    std::string s = model;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
            c = '_';
    return s;
}

template <class T> T field(const CsvTable& csv, std::size_t row, const std::string& column)
{
    const std::string& text = csv.rows[row][csv.column(column)];
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        throw Error(fmt::format("{}:{}: {}: not a number: {}", csv.source, csv.row_lines[row], column, excerpt(text)));
    return value;
}

// "a;b;c" -> a, b, c (table files, which may hold spaces).
std::vector<std::string> words(const std::string& text)
{
    std::vector<std::string> out;
    std::string word;
    for (char c : text + ';') {
        if (c != ';') {
            word += c;
        } else if (!word.empty()) {
            out.push_back(word);
            word.clear();
        }
    }
    return out;
}

// The training tables in the order learn_tables plays them: as given, or, balanced, a round per
// table of the model with the most, each round one table of every model (models in the order they
// first appear, a model's tables in turn).
std::vector<const OpenedTable*> training_schedule(const std::vector<const OpenedTable*>& tables, bool balanced)
{
    if (!balanced)
        return tables;
    std::vector<std::vector<const OpenedTable*>> by_model;
    std::vector<std::string> models;
    for (const auto* t : tables) {
        const auto it = std::find(models.begin(), models.end(), t->meta.model);
        if (it == models.end()) {
            models.push_back(t->meta.model);
            by_model.push_back({t});
        } else {
            by_model[static_cast<std::size_t>(it - models.begin())].push_back(t);
        }
    }
    std::size_t rounds = 0;
    for (const auto& m : by_model)
        rounds = std::max(rounds, m.size());
    std::vector<const OpenedTable*> out;
    for (std::size_t r = 0; r < rounds; ++r)
        for (const auto& m : by_model)
            out.push_back(m[r % m.size()]);
    return out;
}

} // namespace

std::vector<TransferReference> judge_references(const LearnTask& task, const std::vector<int>& best_fixed)
{
    const SimulationTable& table = *task.table;
    const bool has_features = task.features != nullptr && !task.features->empty();
    std::vector<TransferReference> out;
    const auto judged = [&](const std::string& name, const config::AgentConfig& agent) {
        const Evaluation e = evaluate_agent(agent, task);
        TransferReference r;
        r.agent = name;
        r.rank = e.rank;
        r.rank_low = e.greedy_spread.low;
        r.rank_high = e.greedy_spread.high;
        r.p_best = e.greedy_spread.best_share;
        r.among_best = e.greedy_among_best;
        r.sequence = e.greedy;
        out.push_back(std::move(r));
    };
    for (const auto& [kind, name] : config::name_table<config::AgentKind>()) {
        if (!train::is_heuristic(kind))
            continue;
        config::AgentConfig agent;
        agent.kind = kind;
        if (!has_features && train::make_agent(agent)->reads_features())
            continue; // a feature reader cannot walk a table without features
        judged(name, agent);
    }
    config::AgentConfig none;
    none.kind = config::AgentKind::None;
    judged(kNoAdaptationReference, none);
    config::AgentConfig fixed;
    fixed.kind = config::AgentKind::Fixed;
    fixed.sequence = best_fixed;
    judged(kBestFixedReference, fixed);
    // A uniformly random sequence: its expected rank, and where 95 % of its ranks fall.
    const std::vector<int> ranks = sequence_ranks(table);
    TransferReference random;
    random.agent = kRandomReference;
    random.rank = (static_cast<double>(ranks.size()) + 1.0) / 2.0;
    const auto quantile = [&](double q) {
        return ranks[static_cast<std::size_t>(std::floor(q * static_cast<double>(ranks.size() - 1) + 0.5))];
    };
    random.rank_low = quantile(0.025);
    random.rank_high = quantile(0.975);
    out.push_back(std::move(random));
    for (auto& r : out)
        r.table = table.source();
    return out;
}

std::vector<int> sequence_ranks(const SimulationTable& table)
{
    std::vector<int> ranks;
    for (const TableRow& row : table.rows())
        ranks.push_back(table.rank(row.actions));
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

RankInterval random_mean_interval(const std::vector<std::vector<int>>& ranks, int draws)
{
    // The distribution of the sum of every draw, one list convolved in per draw.
    std::vector<double> sum{1.0};
    int count = 0;
    for (const auto& list : ranks) {
        if (list.empty())
            continue;
        const int top = *std::max_element(list.begin(), list.end());
        const double p = 1.0 / static_cast<double>(list.size());
        for (int d = 0; d < draws; ++d) {
            std::vector<double> next(sum.size() + static_cast<std::size_t>(top), 0.0);
            for (std::size_t s = 0; s < sum.size(); ++s)
                if (sum[s] > 0.0)
                    for (const int r : list)
                        next[s + static_cast<std::size_t>(r)] += sum[s] * p;
            sum = std::move(next);
            ++count;
        }
    }
    if (count == 0)
        return {};
    const auto quantile = [&](double q) {
        double cdf = 0.0;
        for (std::size_t s = 0; s < sum.size(); ++s) {
            cdf += sum[s];
            if (cdf >= q - 1e-12)
                return static_cast<double>(s) / count;
        }
        return static_cast<double>(sum.size() - 1) / count;
    };
    return {quantile(0.025), quantile(0.975)};
}

TransferResult run_transfer(const TransferSettings& s, const fs::path& out, bool force, TransferObserver* observer,
                            const std::stop_token& stop)
{
    if (s.tables.empty())
        throw Error("transfer: no tables given");
    if (s.seeds.empty())
        throw Error("transfer: no seeds given");
    if (s.episodes < 1)
        throw Error("transfer: episodes must be >= 1");
    // Every table and replicate before anything is written; each must say which model it is of.
    const auto open_described = [](const fs::path& file) {
        OpenedTable t = open_table(file);
        if (!t.described)
            throw Error(fmt::format("{}: no metadata ({}): transfer needs each table's model", file.string(),
                                    meta_file_for(table_file(file)).string()));
        return t;
    };
    std::vector<OpenedTable> tables;
    for (const auto& file : s.tables)
        tables.push_back(open_described(file));
    std::vector<OpenedTable> replicates;
    for (const auto& file : s.replicates) {
        const auto& r = replicates.emplace_back(open_described(file));
        if (std::none_of(tables.begin(), tables.end(),
                         [&](const OpenedTable& t) { return replicates_of(t.meta, r.meta) && t.meta.seed != r.meta.seed; }))
            throw Error(fmt::format("{}: a replicate of none of the tables given (the same metadata at another seed)",
                                    file.string()));
    }
    std::vector<std::string> models;
    for (const auto& t : tables)
        if (std::find(models.begin(), models.end(), t.meta.model) == models.end())
            models.push_back(t.meta.model);
    const std::vector<std::string> held_out = s.held_out.empty() ? models : s.held_out;
    for (const auto& m : held_out)
        if (std::find(models.begin(), models.end(), m) == models.end())
            throw Error(fmt::format("transfer: no table of model {} (the tables' models: {})", m, fmt::join(models, ", ")));
    if (s.policy.encoder == config::PolicyEncoder::Original) {
        for (const auto& t : tables)
            if (t.table.num_actions() != tables.front().table.num_actions())
                throw Error(fmt::format("transfer: the original encoder chooses among a fixed number of actions, but "
                                        "{} has {} and {} has {}; use the structural encoder",
                                        t.file.string(), t.table.num_actions(), tables.front().file.string(),
                                        tables.front().table.num_actions()));
    }
    if (config::reads_state(s.policy.encoder))
        for (const auto& t : tables)
            (void)feature_seeds(learn_task(t)); // each is learned from, or judged on

    TransferResult result;
    std::vector<std::vector<const OpenedTable*>> test_of, train_of;
    for (const auto& m : held_out) {
        TransferFold fold;
        fold.model = m;
        std::vector<const OpenedTable*> test, train;
        for (const auto& t : tables)
            (t.meta.model == m ? test : train).push_back(&t);
        for (const auto& t : replicates)
            if (t.meta.model == m)
                test.push_back(&t);
        // Each table's replicates right after it: rows, ranks and figures keep a scenario together.
        std::vector<std::string> scenario_order;
        for (const auto* t : test)
            if (std::find(scenario_order.begin(), scenario_order.end(), t->meta.scenario) == scenario_order.end())
                scenario_order.push_back(t->meta.scenario);
        const auto order = [&](const OpenedTable* t) {
            return std::find(scenario_order.begin(), scenario_order.end(), t->meta.scenario) - scenario_order.begin();
        };
        std::stable_sort(test.begin(), test.end(),
                         [&](const OpenedTable* a, const OpenedTable* b) { return order(a) < order(b); });
        if (train.empty())
            throw Error(fmt::format("transfer: leaving out {} leaves no table to learn from", m));
        std::vector<const SimulationTable*> judged;
        double no_adaptation = 0.0;
        for (const auto* t : test) {
            fold.tables.push_back(t->file.string());
            judged.push_back(&t->table);
            no_adaptation += t->table.rank(t->table.no_adaptation_sequence());
        }
        for (const auto* t : train)
            fold.training_tables.push_back(t->file.string());
        const FixedSequence best = best_fixed_sequence(judged); // also checks the tables agree
        fold.sequences = static_cast<int>(test.front()->table.sequences());
        fold.random_rank = (fold.sequences + 1) / 2.0;
        std::vector<std::vector<int>> ranks;
        ranks.reserve(test.size());
        for (const auto* t : test)
            ranks.push_back(sequence_ranks(t->table));
        const RankInterval chance = random_mean_interval(ranks, static_cast<int>(s.seeds.size()));
        fold.random_mean_low = chance.low;
        fold.random_mean_high = chance.high;
        fold.no_adaptation_rank = no_adaptation / static_cast<double>(test.size());
        fold.best_fixed = best.actions;
        fold.best_fixed_rank = best.mean_rank;
        result.folds.push_back(std::move(fold));
        test_of.push_back(std::move(test));
        train_of.push_back(std::move(train));
    }

    InputPaths inputs(s.tables.begin(), s.tables.end());
    inputs.insert(inputs.end(), s.replicates.begin(), s.replicates.end());
    const FolderLock lock = prepare_output_folder(out, force, inputs);
    {
        LineAppender folds(out / "folds.csv", kFoldsHeader);
        for (const auto& f : result.folds)
            folds.append(fold_line(f));
    }
    {
        LineAppender references(out / "references.csv", kReferencesHeader);
        for (std::size_t f = 0; f < result.folds.size() && !stop.stop_requested(); ++f)
            for (const auto* t : test_of[f])
                for (auto& r : judge_references(learn_task(*t), result.folds[f].best_fixed)) {
                    r.model = result.folds[f].model;
                    r.table = t->file.string();
                    r.scenario = t->meta.scenario;
                    references.append(reference_line(r));
                    result.references.push_back(std::move(r));
                }
    }
    LineAppender ranks(out / "ranks.csv", kRanksHeader);
    for (std::size_t f = 0; f < result.folds.size(); ++f) {
        const TransferFold& fold = result.folds[f];
        if (observer)
            observer->on_fold(fold);
        for (const std::uint64_t seed : s.seeds) {
            if (stop.stop_requested())
                break;
            std::vector<LearnTask> tasks;
            for (const auto* t : training_schedule(train_of[f], s.balance_models))
                tasks.push_back(learn_task(*t, s.reward, seed));
            if (observer)
                observer->on_seed(fold, seed);
            auto learner = agent::PolicyLearner::for_model(s.policy, *tasks.front().model, seed, tasks.front().actions);
            learner.set_options(s.learner);
            learn_tables(learner, tasks, s.episodes, /*standardise=*/true, observer, stop);
            if (stop.stop_requested()) {
                result.cancelled = true;
                break;
            }
            const fs::path folder = out / fmt::format("{}-seed{}", folder_name(fold.model), seed);
            fs::create_directories(folder);
            learner.save((folder / "policy.pt").string());
            for (const auto* t : test_of[f]) {
                TransferRank r;
                r.model = fold.model;
                r.seed = seed;
                r.table = t->file.string();
                r.scenario = t->meta.scenario;
                r.table_seed = t->meta.seed;
                r.evaluation = evaluate(learner, learn_task(*t));
                r.no_adaptation_rank = t->table.rank(t->table.no_adaptation_sequence());
                r.best_fixed_rank = t->table.rank(fold.best_fixed);
                ranks.append(rank_line(r));
                if (observer)
                    observer->on_rank(r);
                result.ranks.push_back(std::move(r));
            }
        }
        if (result.cancelled)
            break;
    }
    result.cancelled = result.cancelled || stop.stop_requested();
    return result;
}

namespace {

// Rows of one scenario are its replicates (the held-out model's tables differ there in the seed).
std::vector<TransferSpread> replicate_spread(const std::vector<TransferSummaryRow>& rows)
{
    std::vector<TransferSpread> out;
    std::vector<std::string> done;
    for (const auto& row : rows) {
        if (!row.mean || std::find(done.begin(), done.end(), row.scenario) != done.end())
            continue;
        done.push_back(row.scenario);
        TransferSpread sp;
        sp.scenario = row.scenario;
        std::vector<double> means;
        double sum = 0.0;
        int n = 0;
        for (const auto& other : rows) {
            if (other.scenario != row.scenario || !other.mean)
                continue;
            means.push_back(*other.mean);
            for (const auto& r : other.ranks)
                if (r) {
                    sum += *r;
                    ++n;
                    sp.best = sp.best == 0 ? *r : std::min(sp.best, *r);
                    sp.worst = std::max(sp.worst, *r);
                }
        }
        if (means.size() < 2)
            continue;
        sp.tables = static_cast<int>(means.size());
        sp.mean = sum / n;
        sp.sd = std::sqrt(variance_of(means, 1));
        out.push_back(std::move(sp));
    }
    return out;
}

} // namespace

std::vector<TransferSummary> summarize_transfer(const TransferResult& r)
{
    std::vector<TransferSummary> out;
    for (const TransferFold& f : r.folds) {
        TransferSummary s;
        s.fold = f;
        for (const auto& x : r.ranks)
            if (x.model == f.model && std::find(s.seeds.begin(), s.seeds.end(), x.seed) == s.seeds.end())
                s.seeds.push_back(x.seed);
        std::vector<double> seed_sum(s.seeds.size(), 0.0);
        std::vector<int> seed_count(s.seeds.size(), 0);
        double all = 0.0;
        int count = 0;
        for (const auto& table : f.tables) {
            TransferSummaryRow row;
            row.table = table;
            double sum = 0.0;
            int n = 0;
            for (std::size_t i = 0; i < s.seeds.size(); ++i) {
                const auto it = std::find_if(r.ranks.begin(), r.ranks.end(), [&](const TransferRank& x) {
                    return x.model == f.model && x.seed == s.seeds[i] && x.table == table;
                });
                if (it == r.ranks.end()) {
                    row.ranks.emplace_back(std::nullopt);
                    continue;
                }
                const int rank = it->evaluation.rank;
                row.ranks.emplace_back(rank);
                row.scenario = it->scenario;
                row.table_seed = it->table_seed;
                row.no_adaptation_rank = it->no_adaptation_rank;
                row.best_fixed_rank = it->best_fixed_rank;
                row.worst = std::max(row.worst.value_or(0), rank);
                sum += rank;
                ++n;
                seed_sum[i] += rank;
                ++seed_count[i];
            }
            if (n > 0)
                row.mean = sum / n;
            for (const auto& x : r.references)
                if (x.model == f.model && x.table == table)
                    row.references.push_back(x);
            all += sum;
            count += n;
            s.rows.push_back(std::move(row));
        }
        for (std::size_t i = 0; i < s.seeds.size(); ++i) {
            s.seed_means.push_back(seed_count[i] ? std::optional<double>(seed_sum[i] / seed_count[i]) : std::nullopt);
            if (s.seed_means.back())
                s.worst_seed_mean = std::max(s.worst_seed_mean.value_or(0.0), *s.seed_means.back());
        }
        if (count > 0)
            s.mean = all / count;
        s.replicates = replicate_spread(s.rows);
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<std::string> reference_agents(const TransferSummary& summary)
{
    std::vector<std::string> out;
    for (const auto& row : summary.rows)
        for (const auto& r : row.references)
            if (std::find(out.begin(), out.end(), r.agent) == out.end())
                out.push_back(r.agent);
    return out;
}

std::optional<double> reference_mean(const TransferSummary& summary, const std::string& agent)
{
    double sum = 0.0;
    int n = 0;
    for (const auto& row : summary.rows)
        for (const auto& r : row.references)
            if (r.agent == agent) {
                sum += r.rank;
                ++n;
            }
    return n > 0 ? std::optional<double>(sum / n) : std::nullopt;
}

std::optional<BestHeuristic> best_heuristic(const TransferSummary& summary)
{
    std::optional<BestHeuristic> best;
    for (const auto& [kind, name] : config::name_table<config::AgentKind>()) {
        if (!train::is_heuristic(kind))
            continue;
        const auto mean = reference_mean(summary, name);
        if (mean && (!best || *mean < best->mean_rank))
            best = BestHeuristic{name, *mean};
    }
    return best;
}

TransferResult read_transfer(const fs::path& folder)
{
    TransferResult result;
    const CsvTable folds = read_csv((folder / "folds.csv").string());
    for (std::size_t i = 0; i < folds.rows.size(); ++i) {
        TransferFold f;
        f.model = folds.rows[i][folds.column("model")];
        f.sequences = field<int>(folds, i, "sequences");
        f.random_rank = field<double>(folds, i, "random_rank");
        // Recorded since the study of docs/agent.md; a run written before has neither column.
        const auto& head = folds.header;
        if (std::find(head.begin(), head.end(), "random_mean_low") != head.end()) {
            f.random_mean_low = field<double>(folds, i, "random_mean_low");
            f.random_mean_high = field<double>(folds, i, "random_mean_high");
        }
        f.no_adaptation_rank = field<double>(folds, i, "no_adaptation_rank");
        try {
            f.best_fixed = model::parse_actions(folds.rows[i][folds.column("best_fixed")]);
        } catch (const Error& e) {
            throw Error(fmt::format("{}:{}: best_fixed: {}", folds.source, folds.row_lines[i], e.what()));
        }
        f.best_fixed_rank = field<double>(folds, i, "best_fixed_rank");
        f.tables = words(folds.rows[i][folds.column("tables")]);
        f.training_tables = words(folds.rows[i][folds.column("training_tables")]);
        result.folds.push_back(std::move(f));
    }
    const CsvTable ranks = read_csv((folder / "ranks.csv").string());
    for (std::size_t i = 0; i < ranks.rows.size(); ++i) {
        TransferRank r;
        const auto& row = ranks.rows[i];
        r.model = row[ranks.column("model")];
        r.seed = field<std::uint64_t>(ranks, i, "seed");
        r.table = row[ranks.column("table")];
        r.scenario = row[ranks.column("scenario")];
        r.table_seed = field<std::uint64_t>(ranks, i, "table_seed");
        r.evaluation.rank = field<int>(ranks, i, "rank");
        r.evaluation.sequences = field<int>(ranks, i, "sequences");
        try {
            r.evaluation.greedy = model::parse_actions(row[ranks.column("greedy")]);
        } catch (const Error& e) {
            throw Error(fmt::format("{}:{}: greedy: {}", ranks.source, ranks.row_lines[i], e.what()));
        }
        r.evaluation.accuracy = field<double>(ranks, i, "accuracy");
        r.evaluation.optimal = field<double>(ranks, i, "optimal");
        r.no_adaptation_rank = field<int>(ranks, i, "no_adaptation_rank");
        r.best_fixed_rank = field<int>(ranks, i, "best_fixed_rank");
        if (std::none_of(result.folds.begin(), result.folds.end(), [&](const auto& f) { return f.model == r.model; }))
            throw Error(fmt::format("{}:{}: model {} is not in folds.csv", ranks.source, ranks.row_lines[i], r.model));
        result.ranks.push_back(std::move(r));
    }
    if (!fs::exists(folder / "references.csv"))
        return result; // written before references were judged
    const CsvTable refs = read_csv((folder / "references.csv").string());
    for (std::size_t i = 0; i < refs.rows.size(); ++i) {
        TransferReference r;
        const auto& row = refs.rows[i];
        r.model = row[refs.column("model")];
        r.table = row[refs.column("table")];
        r.scenario = row[refs.column("scenario")];
        r.agent = row[refs.column("agent")];
        r.rank = field<double>(refs, i, "rank");
        r.rank_low = field<int>(refs, i, "rank_low");
        r.rank_high = field<int>(refs, i, "rank_high");
        r.p_best = field<double>(refs, i, "p_best");
        r.among_best = field<int>(refs, i, "among_best") != 0;
        const std::string& sequence = row[refs.column("sequence")];
        try {
            if (!sequence.empty())
                r.sequence = model::parse_actions(sequence);
        } catch (const Error& e) {
            throw Error(fmt::format("{}:{}: sequence: {}", refs.source, refs.row_lines[i], e.what()));
        }
        if (std::none_of(result.folds.begin(), result.folds.end(), [&](const auto& f) { return f.model == r.model; }))
            throw Error(fmt::format("{}:{}: model {} is not in folds.csv", refs.source, refs.row_lines[i], r.model));
        result.references.push_back(std::move(r));
    }
    return result;
}

} // namespace rlda::core::run
