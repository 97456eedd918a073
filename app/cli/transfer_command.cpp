// `rlda transfer`: leave one model out, learn one policy on every other model's tables, judge it
// greedily on the held-out model's tables, beside random, no adaptation and the best fixed sequence.
#include "app/cli/commands.h"
#include "app/cli/interrupts.h"
#include "app/cli/learn_progress.h"
#include "app/cli/learner_flags.h"
#include "app/cli/numbers.h"

#include "core/config/experiment_io.h"
#include "core/run/transfer_protocol.h"
#include "core/table/open_table.h"
#include "core/transfer/study.h"
#include "core/util/error.h"
#include "core/util/output_folder.h"

#ifdef RLDA_WITH_FIGURES
#include "widgets/figures/figure_job.h"
#endif

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <unistd.h>

namespace rlda::app {
namespace {

namespace fs = std::filesystem;
using core::run::TransferFold;
using core::run::TransferRank;

struct TransferOptions {
    std::vector<std::string> tables;
    std::vector<std::string> replicates;
    std::vector<std::string> held_out;
    std::int64_t episodes = core::run::TransferSettings{}.episodes;
    std::vector<std::uint64_t> seeds = core::run::TransferSettings{}.seeds;
    std::string config;
    std::string encoder = "structural";
    LearnerFlags learner;
    std::string out;
    bool force = false;
    bool figures = true;
    bool balance_models = false;
};

class TransferProgress final : public core::run::TransferObserver {
public:
    explicit TransferProgress(std::int64_t episodes, bool tty) : line_(core::kPaperRollingWindow, tty), episodes_(episodes) {}

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

std::string cell(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "-"; }
std::string cell(const std::optional<int>& v) { return v ? std::to_string(*v) : "-"; }

// Each held-out table's references: rank [interval over the seeds], * where in the confidence set for the
// best.
void print_references(const core::run::TransferSummary& s)
{
    const auto agents = core::run::reference_agents(s);
    if (agents.empty())
        return;
    std::string head = fmt::format("{:<28}", "references");
    for (const auto& a : agents)
        head += fmt::format(" {:>14}", a.substr(0, 14));
    fmt::print("{}\n", head);
    for (const auto& row : s.rows) {
        std::string line = fmt::format("{:<28}", fs::path(row.table).filename().string());
        for (const auto& a : agents) {
            const auto it = std::find_if(row.references.begin(), row.references.end(),
                                         [&](const auto& r) { return r.agent == a; });
            std::string text = "-";
            if (it != row.references.end()) {
                text = fmt::format("{:g}", it->rank);
                if (it->rank_high > 0)
                    text += fmt::format(" [{}-{}]", it->rank_low, it->rank_high);
                if (it->among_best)
                    text += "*";
            }
            line += fmt::format(" {:>14}", text);
        }
        fmt::print("{}\n", line);
    }
    fmt::print("(rank [marginal 95 % interval, the table's seeds]; * in the 95 % confidence set for the "
               "best; random: where 95 % "
               "of its ranks fall)\n");
    if (const auto best = core::run::best_heuristic(s))
        fmt::print("best heuristic: {}, mean rank {:.1f}\n", best->agent, best->mean_rank);
}

// The figures a widgets::FigureJob that `fill` completes draws, into `out_dir`, each file named as
// it is written; a build without Qt draws none and says so. `fill` takes the job as auto&, so that
// it compiles in a build without the type.
template <class Fill> void write_figures(const std::string& out_dir, Fill&& fill)
{
#ifdef RLDA_WITH_FIGURES
    widgets::FigureJob job;
    job.out_dir = out_dir;
    fill(job);
    for (const auto& f : widgets::renderFigureJob(job))
        fmt::print("wrote {}\n", f);
#else
    (void)out_dir;
    (void)fill;
    fmt::print(stderr, "rlda: warning: this rlda was built without Qt: no figure (it needs the GUI build)\n");
#endif
}

// core::run::summarize_transfer as text: per held-out model a row per table, then the means.
void print_summary(const core::run::TransferResult& r)
{
    for (const auto& s : core::run::summarize_transfer(r)) {
        fmt::print("\nheld out {} ({} sequences a table)\n", s.fold.model, s.fold.sequences);
        std::string head = fmt::format("{:<28}", "table");
        for (auto seed : s.seeds)
            head += fmt::format(" {:>7}", fmt::format("s{}", seed));
        fmt::print("{} {:>7} {:>6} {:>9} {:>10}\n", head, "mean", "worst", "no-adapt", "best-fixed");
        for (const auto& row : s.rows) {
            std::string line = fmt::format("{:<28}", fs::path(row.table).filename().string());
            for (const auto& rank : row.ranks)
                line += fmt::format(" {:>7}", cell(rank));
            fmt::print("{} {:>7} {:>6} {:>9} {:>10}\n", line, cell(row.mean), cell(row.worst), row.no_adaptation_rank,
                       row.best_fixed_rank);
        }
        std::string line = fmt::format("{:<28}", "mean over tables");
        for (const auto& m : s.seed_means)
            line += fmt::format(" {:>7}", cell(m));
        fmt::print("{} {:>7} {:>6} {:>9.1f} {:>10.1f}\n", line, cell(s.mean), cell(s.worst_seed_mean),
                   s.fold.no_adaptation_rank, s.fold.best_fixed_rank);
        fmt::print("references: random {:.1f} (a random agent judged as often: 95 % within {:.1f}-{:.1f}), no "
                   "adaptation {:.1f}, best fixed sequence in hindsight ({}) {:.1f}\n",
                   s.fold.random_rank, s.fold.random_mean_low, s.fold.random_mean_high, s.fold.no_adaptation_rank,
                   core::sim::sequence_string(s.fold.best_fixed), s.fold.best_fixed_rank);
        for (const auto& sp : s.replicates)
            fmt::print("replicates: {} on {} tables (other seeds): rank {:.1f} +- {:.1f} (sd across tables), best {}, "
                       "worst {}\n",
                       sp.scenario, sp.tables, sp.mean, sp.sd, sp.best, sp.worst);
        print_references(s);
    }
}

int run_transfer(const TransferOptions& o)
{
    core::run::TransferSettings s;
    for (const auto& t : core::sim::expand_tables(o.tables))
        s.tables.push_back(t);
    if (!o.replicates.empty())
        for (const auto& t : core::sim::expand_tables(o.replicates))
            s.replicates.push_back(t);
    s.held_out = o.held_out;
    s.episodes = o.episodes;
    s.seeds = o.seeds;
    if (!o.config.empty())
        s.policy = core::config::load_experiment(o.config).policy;
    s.policy.encoder = *core::config::from_string<core::config::PolicyEncoder>(o.encoder);
    s.learner = o.learner.options();
    s.reward = o.learner.reward_draw();
    s.balance_models = o.balance_models;
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
    if (o.figures)
        write_figures((fs::path(o.out) / "figures").string(),
                      [&](auto& job) { job.transfers = core::run::summarize_transfer(result); });
    return 0;
}

struct CompareOptions {
    std::vector<std::string> runs;
    std::vector<std::string> labels;
    std::string out;
    bool force = false;
    bool markdown = false;
};

std::string fixed1(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "-"; }

// core::run::compare_transfers as text: a row per held-out model, a column per run, then the
// references; a run's mean below random's interval is marked <.
int run_compare(const CompareOptions& o)
{
    if (!o.labels.empty() && o.labels.size() != o.runs.size())
        throw core::Error(fmt::format("transfer-compare: {} labels for {} runs", o.labels.size(), o.runs.size()));
    const core::InputPaths inputs(o.runs.begin(), o.runs.end());
    if (!o.out.empty()) // the same rule as every output folder, checked before anything is read
        core::check_output_folder(o.out, o.force, inputs);
    std::vector<core::run::StudyRun> runs;
    for (std::size_t i = 0; i < o.runs.size(); ++i)
        runs.push_back(core::run::read_study_run(o.runs[i], o.labels.empty() ? std::string() : o.labels[i]));
    const auto rows = core::run::compare_transfers(runs);
    const auto tests = core::run::test_study(runs, rows, core::run::read_study_tables(rows));
    std::vector<std::string> head{"held out", "sequences"};
    for (const auto& r : runs)
        head.push_back(r.label);
    for (const char* h : {"best heuristic", "random [95 %]", "no adaptation", "best fixed"})
        head.emplace_back(h);
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : rows) {
        std::vector<std::string> line{row.model, std::to_string(row.sequences)};
        for (std::size_t r = 0; r < row.means.size(); ++r) {
            const auto& m = row.means[r];
            line.push_back(fixed1(m) +
                           (m && core::run::beats_chance(tests, row, runs[r].label, *m) ? " <" : ""));
        }
        line.push_back(row.heuristic ? fmt::format("{:.1f} ({})", row.heuristic->mean_rank, row.heuristic->agent) : "-");
        line.push_back(core::run::has_random_interval(row)
                           ? fmt::format("{:.1f} [{:.1f}-{:.1f}]", row.random, row.random_low, row.random_high)
                           : fmt::format("{:.1f}", row.random));
        line.push_back(fmt::format("{:.1f}", row.no_adaptation));
        line.push_back(fmt::format("{:.1f}", row.best_fixed));
        cells.push_back(std::move(line));
    }
    if (o.markdown) {
        fmt::print("| {} |\n|{}|\n", fmt::join(head, " | "), fmt::join(std::vector<std::string>(head.size(), "---"), "|"));
        for (const auto& line : cells)
            fmt::print("| {} |\n", fmt::join(line, " | "));
    } else {
        std::vector<std::size_t> width(head.size(), 0);
        for (std::size_t c = 0; c < head.size(); ++c) {
            width[c] = head[c].size();
            for (const auto& line : cells)
                width[c] = std::max(width[c], line[c].size());
        }
        const auto print_line = [&](const std::vector<std::string>& line) {
            std::string text;
            for (std::size_t c = 0; c < line.size(); ++c)
                text += c == 0 ? fmt::format("{:<{}}", line[c], width[c]) : fmt::format("  {:>{}}", line[c], width[c]);
            fmt::print("{}\n", text);
        };
        print_line(head);
        for (const auto& line : cells)
            print_line(line);
    }
    fmt::print(
        "(mean rank over the seeds and the held-out model's tables, lower is better; < better than a random "
        "agent judged as often, p < {:.2f}, below; random [95 %]: where a random agent's mean falls, judged "
        "once "
        "per seed)\n",
        core::run::kStudyLevel);
    std::vector<std::string> averages;
    for (const auto& a : core::run::study_averages(runs, rows))
        averages.push_back(fmt::format("{} {:.2f}{}", a.agent, a.fraction,
                                       a.models == static_cast<int>(rows.size()) ? "" : fmt::format(" ({} models)", a.models)));
    fmt::print("mean rank ÷ sequences over the held-out models: {}\n", fmt::join(averages, ", "));
    for (std::size_t r = 0; r < runs.size(); ++r) {
        int judged = 0, heuristic = 0;
        for (const auto& row : rows) {
            if (!row.means[r])
                continue;
            ++judged;
            heuristic += !row.heuristic || *row.means[r] <= row.heuristic->mean_rank ? 1 : 0;
        }
        fmt::print(
            "{}: no worse than the best heuristic, chosen per model in hindsight, on {} of {} models\n",
            runs[r].label, heuristic, judged);
    }
    fmt::print("\n");
    for (const auto& line : core::run::study_test_lines(rows, tests))
        fmt::print("{}\n", line);
    if (!o.out.empty()) {
        const auto lock = core::prepare_output_folder(o.out, o.force, inputs);
        write_figures(lock.path(o.out).string(), [&](auto& job) {
            job.study = rows;
            for (const auto& r : runs)
                job.study_labels.push_back(r.label);
        });
    }
    return 0;
}

} // namespace

std::function<int()> add_transfer_compare_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("transfer-compare", "Transfer runs side by side: each held-out model's mean rank "
                                                       "per run, beside the best heuristic, random and the baselines");
    auto o = std::make_shared<CompareOptions>();
    cmd->add_option("runs", o->runs, "Folders of rlda transfer runs that left the same models out (one per encoder, say)")
        ->required()
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--labels", o->labels, "A name per run, in order (default: each folder's name)");
    cmd->add_option("--out", o->out, "A new folder to write the figure to: transfer_study.png");
    cmd->add_flag("--force", o->force, "Replace a --out that rlda made first");
    cmd->add_flag("--markdown", o->markdown, "Print the table as Markdown");
    return [cmd, o]() -> int { return cmd->parsed() ? run_compare(*o) : -1; };
}

std::function<int()> add_transfer_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("transfer", "Leave one model out: learn on the other models' tables, "
                                               "judge greedily on the held-out model's, beside the references");
    auto o = std::make_shared<TransferOptions>();
    o->learner.preset = "robust";
    cmd->add_option("--tables", o->tables, "Tables of every model: table files, table folders or indexes (index.csv)")
        ->required();
    cmd->add_option("--replicates", o->replicates,
                    "Replicates of some of those tables (the same table at another seed): judged with their model, "
                    "for the rank's spread, never learned from");
    cmd->add_option("--hold-out", o->held_out, "A model to leave out, repeatable; default: each model in turn");
    cmd->add_option("--episodes", o->episodes, "Episodes of each policy, over its training tables in turn")
        ->capture_default_str()
        ->check(whole_number(1, kMaxEpisodes));
    cmd->add_option("--seeds", o->seeds, "Seeds of the policies, one policy each")
        ->capture_default_str()
        ->check(whole_number(0, kMaxSeed));
    cmd->add_option("--config", o->config, "Experiment file whose [policy] section sizes the policies");
    cmd->add_option("--encoder", o->encoder, "original (one block count only), structural, or state (structural plus "
                                          "the training state; tables with decision features)")
        ->capture_default_str()
        ->check(CLI::IsMember(core::config::names<core::config::PolicyEncoder>()));
    add_learner_flags(cmd, o->learner);
    cmd->add_flag("--balance-models", o->balance_models,
                  "Weigh each training model the same: episodes over the models in turn, each model's tables in turn "
                  "(default: over the tables in turn)");
    cmd->add_option("--out", o->out, "Folder: folds.csv, ranks.csv, <model>-seed<N>/policy.pt")->required();
    cmd->add_flag("--force", o->force, "Replace a --out that rlda made first");
    cmd->add_flag("!--no-figures", o->figures, "Skip figures/transfer_<model>.png");
    return [cmd, o]() -> int { return cmd->parsed() ? run_transfer(*o) : -1; };
}

} // namespace rlda::app
