// `rlda train CONFIG.toml [--out DIR] [--force] [--set section.key=value]… [--compare none [--seeds S…]]`:
// Algorithm 1 as configured, with a live progress line on a terminal and plain lines otherwise.
#include "app/cli/commands.h"
#include "app/cli/numbers.h"
#include "app/cli/warning.h"

#include "core/config/experiment_io.h"
#include "core/config/schema.h"
#include "core/run/experiment_run.h"
#include "core/util/output_folder.h"
#include "core/util/error.h"
#include "core/util/read_file.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <unistd.h>

namespace rlda::app {
namespace {

struct TrainOptions {
    std::string config;
    std::string out;
    bool force = false;
    std::vector<std::string> overrides;
    std::string dataset;
    std::string compare; // "none": also run without adaptation
    std::vector<std::uint64_t> seeds; // with --compare: the comparison at each seed, paired
};

// Progress on stdout: one rewritten line on a terminal (at most ~10 updates a second), epoch
// lines and events always.
class ProgressPrinter final : public core::train::TrainObserver {
public:
    explicit ProgressPrinter(bool tty) : tty_(tty) {}

    // Names each run as it starts: several runs print one after the other (--compare none --seeds).
    void announce_runs() { announce_ = true; }

    void on_start(const core::train::RunStart& s) override
    {
        if (!announce_)
            return;
        close_line();
        fmt::print("run: {}\n", s.run_dir);
        whole_steps_ = 0;
        std::fflush(stdout);
    }

    void on_progress(const core::train::BatchProgress& p) override
    {
        batches_ = p.batches;
        if (!tty_)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::milliseconds(100) && p.batch != p.batches)
            return;
        last_ = now;
        const int width = 24;
        const int filled = static_cast<int>(width * p.batch / std::max<std::int64_t>(1, p.batches));
        fmt::print("\r\033[Kepoch {:>3} [{}{}] {:>4}/{:<4} time left {:>7.1f} s  test acc {:.4f}  params {}",
                   p.epoch, std::string(static_cast<std::size_t>(filled), '#'),
                   std::string(static_cast<std::size_t>(width - filled), '.'), p.batch, p.batches, p.time_left,
                   test_acc_, params_);
        std::fflush(stdout);
        line_open_ = true;
    }

    void on_epoch(const core::train::EpochMetrics& m) override
    {
        test_acc_ = m.test_acc;
        params_ = m.parameters;
        close_line();
        // An allocation change starts its epoch over, and the budget may end one midway: their steps
        // count in `steps`, not in `epoch`, and the line says so, so that the numbers add up.
        if (m.final && !m.tested)
            fmt::print(
                "final: not tested again after the cancel ({}), {} steps in all, {} parameters\n",
                std::isfinite(m.test_acc)
                    ? fmt::format("the last test, after epoch {}: test_acc {:.4f}", m.epoch, m.test_acc)
                    : std::string("no test was made"),
                m.steps, m.parameters);
        else if (m.final && m.steps > whole_steps_)
            fmt::print("final: test_acc {:.4f} after {} whole epochs ({} steps) and {} steps of epochs cut "
                       "short, {} "
                       "steps in all, {} parameters\n",
                       m.test_acc, m.epoch, whole_steps_, m.steps - whole_steps_, m.steps, m.parameters);
        else if (m.final)
            fmt::print("final: test_acc {:.4f} after {} epochs, {} steps, {} parameters\n", m.test_acc, m.epoch,
                       m.steps, m.parameters);
        else
            fmt::print("epoch {:>3}  time {:>8.1f} s  loss {:.4f}  train_acc {:.4f}  test_acc {:.4f}  lr {:.3g}  "
                       "params {}\n",
                       m.epoch, m.time, m.train_loss, m.train_acc, m.test_acc, m.lr, m.parameters);
        if (!m.final)
            whole_steps_ += batches_;
        std::fflush(stdout);
    }

    void on_allocation(const core::train::AllocationRecord& r) override
    {
        close_line();
        fmt::print("allocation {} at {:.1f} s: {}\n", core::train::to_string(r.change), r.time, r.effect);
        std::fflush(stdout); // events show when they happen, also through a pipe
    }

    void on_adaptation(const core::train::AdaptationEvent& e) override
    {
        close_line();
        params_ = e.after.parameters;
        fmt::print("decision {} at {:.1f} s ({}): action {}{} -> {} parameters{}\n", e.decision, e.time, e.agent,
                   e.action, e.did_nothing ? " (do nothing)" : "", e.after.parameters,
                   e.max_abs_diff >= 0 ? fmt::format(", max_abs_diff {:.3g}", e.max_abs_diff) : "");
        std::fflush(stdout);
    }

    void on_message(const std::string& text) override
    {
        close_line();
        print_warning(text);
    }

private:
    void close_line()
    {
        if (line_open_)
            fmt::print("\r\033[K");
        line_open_ = false;
    }

    bool tty_;
    bool announce_ = false;
    bool line_open_ = false;
    double test_acc_ = 0.0;
    std::int64_t params_ = 0;
    std::int64_t batches_ = 0;     // the steps of an epoch, as the last progress said
    std::int64_t whole_steps_ = 0; // the steps of the epochs completed
    std::chrono::steady_clock::time_point last_{};
};

std::string default_out(const std::string& name)
{
    const std::time_t t = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&t));
    return fmt::format("runs/{}-{}", name, stamp);
}

// "0.7512", or "none" for a run cancelled before its first test.
std::string accuracy_text(double accuracy)
{
    return std::isfinite(accuracy) ? fmt::format("{:.4f}", accuracy) : "none";
}

std::string actions_text(const core::train::RunResult& r)
{
    std::string actions;
    for (int a : r.actions)
        actions += (actions.empty() ? "" : " ") + std::to_string(a);
    return actions;
}

} // namespace

void apply_command_line(core::config::ExperimentConfig& config, const std::string& dataset,
                        const std::vector<std::string>& overrides)
{
    // All overrides first, then one validation: their order does not matter.
    std::vector<std::string> assignments;
    if (!dataset.empty())
        assignments.push_back(fmt::format("dataset.kind=\"{}\"", dataset));
    assignments.insert(assignments.end(), overrides.begin(), overrides.end());
    core::config::apply_overrides(config, assignments);
}

namespace {

// A policy agent decides with a learned policy. A learning run's file (the original tool's
// *_learn.toml: agent "Agent", a [simulation] table, no policy file) validates, since `rlda learn`
// may start from scratch, but cannot train a job: refused before anything is loaded or written,
// naming the file and the key.
void check_policy_file(const core::config::ExperimentConfig& config)
{
    if (config.agent.kind != core::config::AgentKind::Policy)
        return;
    if (config.agent.policy.empty())
        throw core::ConfigError(fmt::format(
            "{}: agent.policy: no policy file given; agent.kind \"policy\" trains with a learned policy{}",
            config.source,
            config.simulation.table.empty() ? ""
                                            : " (the [simulation] table is for `rlda learn --table`, which learns one)"));
    try {
        core::require_regular_file(config.agent.policy);
    } catch (const core::Error& e) {
        throw core::ConfigError(fmt::format("{}: agent.policy: {}", config.source, e.what()));
    }
}

int run_train(const TrainOptions& o)
{
    auto config = core::config::load_experiment(experiment_file(o.config));
    apply_command_line(config, o.dataset, o.overrides);
    check_policy_file(config);
    if (!o.compare.empty() && config.agent.kind == core::config::AgentKind::None)
        throw core::Error("--compare none: the configured run does not adapt either (agent.kind \"none\")");
    const std::string out = o.out.empty() ? default_out(config.name) : o.out;
    ProgressPrinter printer(isatty(STDOUT_FILENO) != 0);
    if (o.compare.empty()) {
        const auto inputs = core::config::input_paths(config);
        // Refused before the dataset is loaded.
        core::check_output_folder(out, o.force, core::InputPaths(inputs.begin(), inputs.end()));
        fmt::print("run folder: {}\n", out);
        std::fflush(stdout);
        const auto result = core::run::run_experiment(config, out, o.force, &printer);
        fmt::print("actions: [{}]\nfinal_test_acc: {}\n", actions_text(result),
                   accuracy_text(result.final_test_acc));
        return result.cancelled ? 130 : 0;
    }

    if (!o.seeds.empty()) {
        core::run::check_seed_comparisons(config, out, o.seeds, o.force); // before the first line
        fmt::print("run folders: {} (seed-S and seed-S-none for each of {} seeds)\n", out, o.seeds.size());
        std::fflush(stdout);
        printer.announce_runs();
        const auto c = core::run::run_seed_comparisons(config, out, o.seeds, o.force, &printer);
        for (const auto& line : core::run::seed_comparison_lines(c))
            fmt::print("{}\n", line);
        return c.cancelled ? 130 : 0;
    }
    fmt::print("run folder: {}\nrun folder without adaptation: {}\n", out,
               core::run::baseline_folder(out).string());
    std::fflush(stdout);
    const auto c = core::run::run_comparison(config, out, o.force, &printer);
    fmt::print("actions: [{}]\nfinal_test_acc: {}\n", actions_text(c.adapted),
               accuracy_text(c.adapted.final_test_acc));
    if (!c.baseline_ran || c.baseline.cancelled)
        return 130;
    fmt::print("{}\n", core::run::comparison_line(c));
    return 0;
}

} // namespace

std::function<int()> add_train_command(CLI::App& app)
{
    auto* train = app.add_subcommand("train", "Train a job under its scheduler, adapting the model (Algorithm 1)");
    auto o = std::make_shared<TrainOptions>();
    train->add_option("CONFIG", o->config, "Experiment config (TOML; the original tool's schema works too), or the name of a shipped example "
                      "(rlda config examples)")
        ->required();
    train->add_option("--out", o->out, "Run folder (default runs/<name>-<date>)");
    train->add_flag("--force", o->force, "Empty an existing run folder first");
    train->add_option("--set", o->overrides, "Override a setting: section.key=value (TOML value), repeatable; "
                                             "all are applied, then checked together, in any order");
    train->add_option("--dataset", o->dataset, "Shorthand for --set dataset.kind=\"KIND\"");
    auto* compare =
        train
            ->add_option("--compare", o->compare,
                         "none: after the run, train the same job without adaptation (agent.kind \"none\") "
                         "into OUT-none beside the run folder and print both final test accuracies and "
                         "their difference")
            ->check(CLI::IsMember({"none"}));
    train
        ->add_option(
            "--seeds", o->seeds,
            "With --compare none: the comparison at each of these seeds (job.seed), paired, into "
            "OUT/seed-S and OUT/seed-S-none; prints each seed's difference and their mean with a 95 % "
            "interval (paired t), and says what it shows")
        ->check(whole_number(0, kMaxSeed))
        ->needs(compare);
    return [train, o]() -> int {
        if (!train->parsed())
            return -1;
        return run_train(*o);
    };
}

} // namespace rlda::app
