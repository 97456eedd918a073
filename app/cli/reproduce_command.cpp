// `rlda reproduce`: the paper's evaluation on its shipped tables (six agents learned from scratch,
// one curriculum judged on all ten tables), its ranks beside the published ones, and figs. 7-12.
#include "app/cli/commands.h"
#include "app/cli/interrupts.h"
#include "app/cli/learn_progress.h"
#include "app/cli/learner_flags.h"
#include "app/cli/numbers.h"

#include "core/run/reproduce.h"
#include "core/table/open_table.h"
#include "core/util/error.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <unistd.h>

#ifdef RLDA_WITH_FIGURES
#include "widgets/figures/figure_job.h"
#endif

namespace rlda::app {
namespace {

struct ReproduceOptions {
    std::string out = "runs/reproduce";
    std::string tables;
    std::int64_t episodes = core::run::ReproduceSettings{}.episodes;
    std::int64_t stage_episodes = core::run::ReproduceSettings{}.stage_episodes;
    std::uint64_t seed = core::run::ReproduceSettings{}.seed;
    LearnerFlags learner;
    bool force = false;
    bool figures = true;
    std::string format = "png";
};

// "run 3/7: scratch-convnet3_early (convnet3_early.csv)" before each run, then rlda learn's lines.
class ReproduceProgress final : public core::run::ReproduceObserver {
public:
    explicit ReproduceProgress(bool tty) : line_(core::kPaperRollingWindow, tty) {}

    void on_run(int index, int count, const core::run::ReproduceRun& run) override
    {
        line_.end_line();
        std::string tables;
        for (const auto& t : run.tables)
            tables += (tables.empty() ? "" : " -> ") + std::filesystem::path(t).filename().string();
        fmt::print("run {}/{}: {} ({})\n", index + 1, count, run.name, tables);
    }
    void on_rank(const core::run::ReproducedRank& r) override
    {
        line_.end_line();
        fmt::print("rank {} {} ({}): {}/{}, paper {}, greedy {}\n", r.model, r.scenario, r.trained_on,
                   r.evaluation.rank, r.evaluation.sequences, r.paper_rank > 0 ? std::to_string(r.paper_rank) : "-",
                   core::sim::sequence_string(r.evaluation.greedy));
    }
    void on_stage(const core::run::StageStart& s) override { line_.on_stage(s); }
    void on_episode(const core::sim::EpisodeRecord& r) override { line_.on_episode(r); }
    void on_greedy(std::int64_t e, const core::sim::Evaluation& v) override { line_.on_greedy(e, v); }
    void on_message(const std::string& text) override { line_.on_message(text); }
    void end_line() { line_.end_line(); }

private:
    LearnProgress line_;
};

void print_ranks(const core::run::ReproduceResult& r)
{
    fmt::print("\n{:<11} {:<9} {:<12} {:>6} {:>6}  {}\n", "trained on", "model", "scenario", "rank", "paper",
               "greedy");
    for (const auto& x : r.ranks)
        fmt::print("{:<11} {:<9} {:<12} {:>6} {:>6}  {}\n", x.trained_on, x.model, x.scenario,
                   fmt::format("{}/{}", x.evaluation.rank, x.evaluation.sequences),
                   x.paper_rank > 0 ? std::to_string(x.paper_rank) : "-",
                   core::sim::sequence_string(x.evaluation.greedy));
}

#ifdef RLDA_WITH_FIGURES
void write_figures(const core::run::ReproduceResult& r, const std::string& out, const std::string& format)
{
    widgets::FigureJob job;
    job.out_dir = (std::filesystem::path(out) / "figures").string();
    job.formats.clear();
    for (std::size_t start = 0; start <= format.size();) {
        const auto end = std::min(format.find(',', start), format.size());
        if (end > start)
            job.formats.push_back(format.substr(start, end - start));
        start = end + 1;
    }
    for (const auto& run : r.runs)
        if (std::filesystem::exists(run.folder / "metrics" / "episodes.csv"))
            job.runs.push_back(run.folder.string());
    // Figs. 10-12 as the paper drew them: the curriculum agent on ConvNet2's tables, then ConvNet3's.
    for (const auto& x : r.ranks)
        if (x.trained_on == "curriculum")
        {
            const auto t = core::sim::open_table(x.table).table;
            job.tables.push_back({x.model, x.scenario, x.run, t.rows(), x.evaluation, t.no_adaptation_sequence()});
        }
    for (const auto& f : widgets::renderFigureJob(job))
        fmt::print("wrote {}\n", f);
}
#endif

int run_reproduce(const ReproduceOptions& o)
{
    core::run::ReproduceSettings s;
    s.tables = o.tables;
    s.episodes = o.episodes;
    s.stage_episodes = o.stage_episodes;
    s.seed = o.seed;
    s.learner = o.learner.options();
    s.reward = o.learner.reward_draw();
    ReproduceProgress progress(isatty(STDOUT_FILENO) != 0);
    const Interrupts interrupts;
    const auto result = core::run::reproduce_paper(s, o.out, o.force, &progress, interrupts.token());
    progress.end_line();
    print_ranks(result);
    fmt::print("ranks: {}\n", (std::filesystem::path(o.out) / "ranks.csv").string());
    if (result.cancelled) {
        fmt::print(stderr, "rlda: reproduce: interrupted; the runs and ranks so far are kept in {}\n", o.out);
        return 130;
    }
#ifdef RLDA_WITH_FIGURES
    if (o.figures)
        write_figures(result, o.out, o.format);
#else
    if (o.figures)
        fmt::print(stderr, "rlda: warning: this rlda was built without Qt: no figures (rlda figures needs the GUI "
                           "build)\n");
#endif
    return 0;
}

} // namespace

std::function<int()> add_reproduce_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("reproduce", "The paper's evaluation on its shipped tables: learn each from "
                                                "scratch and one curriculum, ranks beside the paper's, figs. 7-12");
    auto o = std::make_shared<ReproduceOptions>();
    cmd->add_option("--out", o->out, "Folder for the runs, ranks.csv and figures/")->capture_default_str();
    cmd->add_option("--episodes", o->episodes, "Episodes of each from-scratch run (lower it for a quick look)")
        ->capture_default_str()
        ->check(whole_number(1, kMaxEpisodes));
    cmd->add_option("--stage-episodes", o->stage_episodes,
                    "Episodes of each further curriculum stage; default episodes x 2/15 (10,000 at 75,000)")
        ->check(whole_number(1, kMaxEpisodes));
    cmd->add_option("--seed", o->seed, "Seed of every new policy")->capture_default_str()->check(whole_number(0, kMaxSeed));
    add_learner_flags(cmd, o->learner);
    cmd->add_option("--tables", o->tables, "The paper's tables (a folder with index.csv); default: the shipped ones");
    cmd->add_flag("--force", o->force, "Replace a --out that rlda made (an earlier reproduction) first");
    cmd->add_flag("!--no-figures", o->figures, "Skip figs. 7-12");
    cmd->add_option("--format", o->format, "Figure formats, comma-separated: png, pdf, svg")
        ->capture_default_str()
        ->check([](const std::string& v) {
            for (std::size_t start = 0; start <= v.size();) {
                const auto end = std::min(v.find(',', start), v.size());
                const std::string f = v.substr(start, end - start);
                if (f != "png" && f != "pdf" && f != "svg")
                    return "unknown format '" + f + "' (use png, pdf, svg)";
                start = end + 1;
            }
            return std::string();
        });
    return [cmd, o]() -> int { return cmd->parsed() ? run_reproduce(*o) : -1; };
}

} // namespace rlda::app
