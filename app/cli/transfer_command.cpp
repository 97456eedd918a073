// `rlda transfer`: leave one model out, learn one policy on every other model's tables, judge it
// greedily on the held-out model's tables, beside random, no adaptation and the best fixed sequence.
#include "app/cli/commands.h"
#include "app/cli/interrupts.h"
#include "app/cli/learn_progress.h"
#include "app/cli/learner_flags.h"
#include "app/cli/numbers.h"

#include "core/config/experiment_io.h"
#include "core/run/transfer.h"
#include "core/sim/table_meta.h"
#include "core/util/error.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <unistd.h>

namespace rlda::app {
namespace {

namespace fs = std::filesystem;
using core::run::TransferFold;
using core::run::TransferRank;

struct TransferOptions {
    std::vector<std::string> tables;
    std::vector<std::string> held_out;
    std::int64_t episodes = 75000;
    std::vector<std::uint64_t> seeds{42};
    std::string config;
    std::string encoder = "structural";
    LearnerFlags learner;
    std::string out;
    bool force = false;
};

class TransferProgress final : public core::run::TransferObserver {
public:
    explicit TransferProgress(std::int64_t episodes, bool tty) : line_(75, tty), episodes_(episodes) {}

    void on_fold(const TransferFold& f) override
    {
        line_.end_line();
        fmt::print("held out {}: {} table(s); learning on {} table(s) of the other models\n", f.model,
                   f.tables.size(), f.training_tables.size());
    }
    void on_seed(const TransferFold& f, std::uint64_t seed) override
    {
        line_.end_line();
        fmt::print("  seed {}\n", seed);
        core::run::StageStart s;
        s.count = 1;
        s.stage = {"without " + f.model, episodes_, 0.0};
        s.temperature = 1.0; // a new policy's
        line_.on_stage(s);
    }
    void on_episode(const core::sim::EpisodeRecord& r) override { line_.on_episode(r); }
    void on_rank(const TransferRank& r) override
    {
        line_.end_line();
        fmt::print("  rank {} {}: {}/{}, greedy {}\n", r.model, r.scenario, r.evaluation.rank, r.evaluation.sequences,
                   core::sim::sequence_string(r.evaluation.greedy));
    }
    void end_line() { line_.end_line(); }

private:
    LearnProgress line_;
    std::int64_t episodes_;
};

// Per held-out model: a row per table (its rank for each seed, their mean and worst, and the
// references on that table), then the mean over the tables for each seed.
void print_summary(const core::run::TransferResult& r)
{
    for (const TransferFold& f : r.folds) {
        std::vector<std::uint64_t> seeds;
        for (const auto& x : r.ranks)
            if (x.model == f.model && std::find(seeds.begin(), seeds.end(), x.seed) == seeds.end())
                seeds.push_back(x.seed);
        fmt::print("\nheld out {} ({} sequences a table)\n", f.model, f.sequences);
        std::string head = fmt::format("{:<28}", "table");
        for (auto s : seeds)
            head += fmt::format(" {:>7}", fmt::format("s{}", s));
        fmt::print("{} {:>7} {:>6} {:>9} {:>10}\n", head, "mean", "worst", "no-adapt", "best-fixed");
        std::map<std::uint64_t, std::pair<double, int>> per_seed; // sum, count
        double all = 0.0;
        int count = 0;
        for (const auto& table : f.tables) {
            std::string line = fmt::format("{:<28}", fs::path(table).filename().string());
            double sum = 0.0;
            int n = 0, worst = 0, no_adaptation = 0, best_fixed = 0;
            for (auto s : seeds) {
                const auto it = std::find_if(r.ranks.begin(), r.ranks.end(), [&](const TransferRank& x) {
                    return x.model == f.model && x.seed == s && x.table == table;
                });
                if (it == r.ranks.end()) {
                    line += fmt::format(" {:>7}", "-");
                    continue;
                }
                line += fmt::format(" {:>7}", it->evaluation.rank);
                sum += it->evaluation.rank;
                ++n;
                worst = std::max(worst, it->evaluation.rank);
                no_adaptation = it->no_adaptation_rank;
                best_fixed = it->best_fixed_rank;
                per_seed[s].first += it->evaluation.rank;
                per_seed[s].second += 1;
            }
            all += sum;
            count += n;
            fmt::print("{} {:>7} {:>6} {:>9} {:>10}\n", line, n ? fmt::format("{:.1f}", sum / n) : "-",
                       n ? std::to_string(worst) : "-", n ? std::to_string(no_adaptation) : "-",
                       n ? std::to_string(best_fixed) : "-");
        }
        std::string line = fmt::format("{:<28}", "mean over tables");
        double worst_mean = 0.0;
        for (auto s : seeds) {
            const auto& [sum, n] = per_seed[s];
            const double mean = n ? sum / n : 0.0;
            worst_mean = std::max(worst_mean, mean);
            line += fmt::format(" {:>7.1f}", mean);
        }
        fmt::print("{} {:>7} {:>6} {:>9.1f} {:>10.1f}\n", line, count ? fmt::format("{:.1f}", all / count) : "-",
                   count ? fmt::format("{:.1f}", worst_mean) : "-", f.no_adaptation_rank, f.best_fixed_rank);
        fmt::print("references: random {:.1f}, no adaptation {:.1f}, best fixed sequence in hindsight ({}) {:.1f}\n",
                   f.random_rank, f.no_adaptation_rank, core::sim::sequence_string(f.best_fixed),
                   f.best_fixed_rank);
    }
}

int run_transfer(const TransferOptions& o)
{
    core::run::TransferSettings s;
    for (const auto& t : core::sim::expand_tables(o.tables))
        s.tables.push_back(t);
    s.held_out = o.held_out;
    s.episodes = o.episodes;
    s.seeds = o.seeds;
    if (!o.config.empty())
        s.policy = core::config::load_experiment(o.config).policy;
    s.policy.encoder = *core::config::from_string<core::config::PolicyEncoder>(o.encoder);
    s.learner = o.learner.options();
    TransferProgress progress(o.episodes, isatty(STDOUT_FILENO) != 0);
    const Interrupts interrupts;
    const auto result = core::run::run_transfer(s, o.out, o.force, &progress, interrupts.token());
    progress.end_line();
    print_summary(result);
    fmt::print("ranks: {}\n", (fs::path(o.out) / "ranks.csv").string());
    if (result.cancelled) {
        fmt::print(stderr, "rlda: transfer: interrupted; the ranks so far are kept in {}\n", o.out);
        return 130;
    }
    return 0;
}

} // namespace

std::function<int()> add_transfer_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("transfer", "Leave one model out: learn on the other models' tables, "
                                               "judge greedily on the held-out model's, beside the references");
    auto o = std::make_shared<TransferOptions>();
    o->learner.preset = "robust";
    cmd->add_option("--tables", o->tables, "Tables of every model: table files, table folders or indexes (index.csv)")
        ->required();
    cmd->add_option("--hold-out", o->held_out, "A model to leave out, repeatable; default: each model in turn");
    cmd->add_option("--episodes", o->episodes, "Episodes of each policy, over its training tables in turn")
        ->capture_default_str()
        ->check(whole_number(1, kMaxEpisodes));
    cmd->add_option("--seeds", o->seeds, "Seeds of the policies, one policy each")
        ->capture_default_str()
        ->check(whole_number(0, kMaxSeed));
    cmd->add_option("--config", o->config, "Experiment file whose [policy] section sizes the policies");
    cmd->add_option("--encoder", o->encoder, "original (one block count only) or structural")
        ->capture_default_str()
        ->check(CLI::IsMember(core::config::names<core::config::PolicyEncoder>()));
    add_learner_flags(cmd, o->learner);
    cmd->add_option("--out", o->out, "Folder: folds.csv, ranks.csv, <model>-seed<N>/policy.pt")->required();
    cmd->add_flag("--force", o->force, "Replace a --out that rlda made first");
    return [cmd, o]() -> int { return cmd->parsed() ? run_transfer(*o) : -1; };
}

} // namespace rlda::app
