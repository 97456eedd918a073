// Leave one model out, learn on the rest, judge on the one left out.
#include "core/run/transfer_protocol.h"

#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/judge.h"
#include "core/table/open_table.h"
#include "core/table/replicates.h"
#include "core/transfer/files.h"
#include "core/transfer/references.h"
#include "core/util/error.h"
#include "core/util/output_folder.h"
#include "core/util/statistics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

namespace rlda::core::run {

using namespace sim;

namespace {

namespace fs = std::filesystem;

// A model name as a folder name: letters, digits, '-' and '_' kept, anything else '_'.
std::string folder_name(const std::string& model)
{
    std::string s = model;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_')
            c = '_';
    return s;
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

TransferResult run_transfer(const TransferSettings& s, const fs::path& out, bool force, TransferObserver* observer,
                            const std::stop_token& stop)
{
    if (s.tables.empty())
        throw Error("transfer: no tables given");
    if (s.seeds.empty())
        throw Error("transfer: no seeds given");
    for (auto it = s.seeds.begin(); it != s.seeds.end(); ++it)
        if (std::find(s.seeds.begin(), it, *it) != it)
            throw Error(fmt::format("--seeds: the seed {} is given twice; each seed learns one policy", *it));
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
        std::vector<std::vector<int>> ranks;
        ranks.reserve(test.size());
        for (const auto* t : test) {
            ranks.push_back(sequence_ranks(t->table));
            fold.random_rank += expected_random_rank(ranks.back()) / static_cast<double>(test.size());
        }
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
    const fs::path dir = lock.path(out);
    TransferFiles files(dir);
    files.add_folds(result.folds);
    for (std::size_t f = 0; f < result.folds.size() && !stop.stop_requested(); ++f)
        for (const auto* t : test_of[f])
            for (auto& r : judge_references(learn_task(*t), result.folds[f].best_fixed)) {
                r.model = result.folds[f].model;
                r.table = t->file.string();
                r.scenario = t->meta.scenario;
                files.add_reference(r);
                result.references.push_back(std::move(r));
            }
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
            const fs::path folder = dir / fmt::format("{}-seed{}", folder_name(fold.model), seed);
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
                files.add_rank(r);
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

} // namespace rlda::core::run
