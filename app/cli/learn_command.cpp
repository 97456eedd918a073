// `rlda learn`: simulation-driven learning (Algorithm 4) against one table or a curriculum, and
// `rlda evaluate`: a policy's greedy sequence, or a growth heuristic's, against a table, with the
// paper's baselines.
#include "app/cli/commands.h"
#include "app/cli/interrupts.h"
#include "app/cli/learn_progress.h"
#include "app/cli/learner_flags.h"
#include "app/cli/numbers.h"
#include "app/cli/warning.h"

#include "core/agent/from_config.h"
#include "core/config/experiment_io.h"
#include "core/config/schema.h"
#include "core/config/value_limits.h"
#include "core/io/run_reader.h"
#include "core/model/zoo.h"
#include "core/run/evaluate_policy.h"
#include "core/run/learn_run.h"
#include "core/table/agent_eval.h"
#include "core/table/judge.h"
#include "core/table/open_table.h"
#include "core/table/table.h"
#include "core/table/table_checks.h"
#include "core/transfer/lineup.h"
#include "core/util/error.h"
#include "core/util/rolling_mean.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <unistd.h>

namespace rlda::app {
namespace {

// --model, --input and --classes only override what a table's metadata says (and must agree).
struct TableOptions {
    std::string model;
    std::string input;
    std::int64_t classes = 0;

    core::sim::TableOverrides overrides() const
    {
        core::sim::TableOverrides o;
        o.model = model;
        if (!input.empty())
            o.input = core::model::parse_shape(input);
        if (classes > 0)
            o.classes = classes;
        return o;
    }
};

void add_table_options(CLI::App* cmd, TableOptions& o)
{
    cmd->add_option("--model", o.model,
                    "The table's starting model (zoo name or TOML file); default: the table's metadata");
    cmd->add_option("--input", o.input, "Input shape CxHxW of the table's job; default: the table's metadata")
        ->check(input_shape());
    cmd->add_option("--classes", o.classes, "Classes of the table's job; default: the table's metadata")
        ->check(whole_number(1, kMaxClasses));
}

struct LearnOptions : TableOptions {
    std::string table;
    // The defaults of a learning run, read from its settings (core/run/learn_run.h).
    std::int64_t episodes = core::run::kPaperEpisodes;
    std::uint64_t seed = core::run::LearnRunSettings{}.seed;
    std::string from;
    std::string config; // an experiment file whose [policy] section sizes a new policy
    std::string encoder; // "" = the config's
    double temperature = 0.0;
    double temperature_decay = core::run::LearnRunSettings{}.temperature_decay;
    std::int64_t temperature_every = 0;
    LearnerFlags learner;
    std::vector<std::string> stages;
    std::string out;
    bool force = false;
    std::int64_t checkpoint_every = core::run::LearnRunSettings{}.checkpoint_every;
    std::size_t window = core::kPaperRollingWindow; // rolling mean, as the paper's figures
};

// The original's sizes and rates, or those of [policy] in an experiment file.
core::config::PolicyConfig policy_sizes(const std::string& config)
{
    return config.empty() ? core::config::PolicyConfig{} : core::config::load_experiment(config).policy;
}

// Said before an evaluation on a table the policy learned on, which is no result by itself.
void print_in_sample()
{
    fmt::print("in_sample: yes (the policy learned on this table; its rank on tables it never saw: rlda "
               "transfer)\n");
}

int run_learn(const LearnOptions& o)
{
    core::run::LearnRunSettings settings;
    for (const auto& s : o.stages) {
        try {
            settings.stages.push_back(core::run::parse_stage(s));
        } catch (const core::Error& e) {
            throw ArgumentError(e.what());
        }
    }
    if (settings.stages.empty()) {
        if (o.table.empty())
            throw core::Error("learn: give --table (or one or more --stage TABLE:EPISODES[:T])");
        settings.stages.push_back({o.table, o.episodes, o.temperature});
    }
    const auto overrides = o.overrides();
    settings.model = overrides.model;
    settings.input = overrides.input;
    settings.classes = overrides.classes;
    settings.seed = o.seed;
    settings.from = o.from;
    settings.policy = policy_sizes(o.config);
    if (!o.config.empty())
        settings.also_read.push_back(o.config);
    if (!o.encoder.empty())
        settings.policy.encoder = *core::config::from_string<core::config::PolicyEncoder>(o.encoder);
    settings.temperature_decay = o.temperature_decay;
    settings.temperature_every = o.temperature_every;
    settings.learner = o.learner.options();
    settings.checkpoint_every = o.checkpoint_every;
    settings.reward = o.learner.reward_draw();

    LearnProgress progress(o.window, isatty(STDOUT_FILENO) != 0);
    // Ctrl-C or SIGTERM ends the run between episodes, its policy saved whole (never a .tmp left).
    const Interrupts interrupts;
    const auto result = core::run::run_learning(settings, o.out, o.force, &progress, interrupts.token());
    progress.end_line();
    fmt::print("policy: {}\n", result.policy_file.string());
    if (result.cancelled) {
        fmt::print(stderr, "rlda: learn: interrupted; the policy so far is kept in {}\n",
                   core::printable(result.policy_file.string()));
        return 130;
    }
    print_in_sample(); // the last stage's table: the rank says how well the policy fits it
    print_evaluation(result.evaluation);
    return 0;
}

// `--agent all`: every agent on the table side by side (core/transfer/lineup.h).
constexpr const char* kEveryAgent = "all";

struct EvaluateOptions : TableOptions {
    std::string policy;
    std::string agent;                   // a growth heuristic's kind, instead of a policy; or kEveryAgent
    std::string format = "text";         // of --agent all: text, csv or markdown
    core::config::AgentConfig heuristic; // its threshold
    std::string table;
    std::uint64_t seed = 0;
};

// The kinds `--agent` takes: the growth heuristics, in the schema's order.
std::vector<std::string> heuristic_names()
{
    std::vector<std::string> out;
    for (const auto& [kind, name] : core::config::name_table<core::config::AgentKind>())
        if (core::agent::is_heuristic(kind))
            out.push_back(name);
    return out;
}

// Every agent on the table, the policy among them when --policy names one.
int run_lineup(const EvaluateOptions& o, const core::sim::OpenedTable& t)
{
    std::optional<core::sim::Evaluation> policy;
    bool in_sample = false;
    if (!o.policy.empty()) {
        policy = core::run::evaluate_policy(o.policy, {&t}, o.seed, print_warning).front();
        in_sample = core::io::learned_on(o.policy, o.table);
    }
    const auto lineup =
        core::run::judge_lineup(core::sim::learn_task(t), policy, in_sample, o.seed, o.heuristic);
    if (o.format == "csv")
        fmt::print("{}", core::run::lineup_csv(lineup));
    else if (o.format == "markdown")
        fmt::print("{}", core::run::lineup_markdown(lineup));
    else
        fmt::print("{}", core::run::lineup_text(lineup));
    return 0;
}

int run_evaluate(const EvaluateOptions& o)
{
    const auto t = core::sim::open_table(o.table, o.overrides());
    if (!t.described)
        print_warning(t.assumption());
    if (const auto flat = core::sim::unrankable_table_warning(t.table, o.table))
        print_warning(*flat);
    if (o.agent == kEveryAgent)
        return run_lineup(o, t);
    if (!o.agent.empty()) {
        core::config::AgentConfig agent = o.heuristic;
        agent.kind = *core::config::from_string<core::config::AgentKind>(o.agent);
        const auto e = core::sim::evaluate_agent(agent, core::sim::learn_task(t), o.seed);
        fmt::print("agent: {}\n", o.agent);
        print_evaluation(e, &t.actions, Chooser::Heuristic);
        return 0;
    }
    const auto e = core::run::evaluate_policy(o.policy, {&t}, o.seed, print_warning).front();
    if (core::io::learned_on(o.policy, o.table))
        print_in_sample();
    print_evaluation(e, &t.actions);
    return 0;
}

} // namespace

std::function<int()> add_learn_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("learn", "Simulation-driven learning of a policy against tables (Algorithm 4)");
    auto o = std::make_shared<LearnOptions>();
    cmd->add_option("--table", o->table, "Simulation table: a table folder (its table.csv) or a CSV file");
    add_table_options(cmd, *o);
    cmd->add_option("--episodes", o->episodes)->capture_default_str()->check(whole_number(1, kMaxEpisodes));
    cmd->add_option("--seed", o->seed)->capture_default_str()->check(whole_number(0, kMaxSeed));
    cmd->add_option("--from", o->from, "Continue a saved policy (curricula, transfer)");
    cmd->add_option("--config", o->config,
                    "Experiment file whose [policy] section sizes a new policy (and its encoder)");
    cmd->add_option("--encoder", o->encoder, "A new policy's encoder: original (the paper's), structural (any "
                                             "model) or state (structural plus the training state; tables with "
                                             "decision features); default: --config's, else original")
        ->check(CLI::IsMember(core::config::names<core::config::PolicyEncoder>()));
    cmd->add_option("--temperature", o->temperature, "Starting softmax temperature (default: the policy's, 1 if new)")
        ->check(real_number({core::config::kMinTemperature, true}, {core::config::kMaxSquarable, true}));
    cmd->add_option("--temperature-decay", o->temperature_decay, "Temperature x this every --temperature-every episodes")
        ->capture_default_str()
        ->check(real_number({0.0, false}, {1.0, true}));
    cmd->add_option("--temperature-every", o->temperature_every,
                    "Episodes between temperature decays; 0 = decay_freq (500, as the paper says; the original code used 1)")
        ->capture_default_str()
        ->check(whole_number(0, kMaxEpisodes));
    add_learner_flags(cmd, o->learner);
    cmd->add_option("--stage", o->stages, "Curriculum stage TABLE:EPISODES[:TEMPERATURE], repeatable, in order");
    cmd->add_option("--out", o->out, "Run folder: policy.pt, metrics/episodes.csv")->required();
    cmd->add_flag("--force", o->force, "Empty an existing run folder first");
    cmd->add_option("--checkpoint-every", o->checkpoint_every, "Save policy.pt every N episodes")
        ->capture_default_str()
        ->check(whole_number(1, kMaxEpisodes));
    cmd->add_option("--window", o->window, "Rolling-mean window of the progress line")
        ->capture_default_str()
        ->check(whole_number(1, kMaxWindow));
    return [cmd, o]() -> int { return cmd->parsed() ? run_learn(*o) : -1; };
}

std::function<int()> add_evaluate_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("evaluate", "A policy's greedy sequence, or a growth heuristic's, on a table: its "
                                               "rank and the baselines");
    auto o = std::make_shared<EvaluateOptions>();
    auto* policy = cmd->add_option("--policy", o->policy, "Policy file (policy.pt)");
    auto agents = heuristic_names();
    agents.emplace_back(kEveryAgent);
    auto* agent =
        cmd->add_option("--agent", o->agent,
                        "Instead of a policy, a growth heuristic walked down the table with the decision "
                        "features recorded at each node (gradient, loss-drop, grow-while-improving need "
                        "them; first, last do not); or all: every heuristic, no adaptation, the optimal "
                        "and a random sequence side by side (with --policy's, when given), each with its "
                        "rank interval and a verdict against the best")
            ->check(CLI::IsMember(agents));
    auto* format =
        cmd->add_option("--format", o->format, "How --agent all prints its table: text, csv or markdown")
            ->capture_default_str()
            ->check(CLI::IsMember({"text", "csv", "markdown"}))
            ->needs(agent);
    const auto& threshold = core::config::experiment_schema().find("agent.threshold")->range;
    cmd->add_option("--threshold", o->heuristic.threshold,
                    "grow-while-improving: the least gain in test accuracy (a fraction) an epoch needs to grow")
        ->capture_default_str()
        ->check(real_number({threshold.min, !threshold.min_open}, {threshold.max, !threshold.max_open}))
        ->needs(agent);
    // One of the two, or a policy among every agent (--agent all).
    cmd->callback([policy, agent, format, o] {
        if (policy->count() + agent->count() == 0)
            throw CLI::RequiredError("--policy or --agent");
        if (policy->count() > 0 && agent->count() > 0 && o->agent != kEveryAgent)
            throw CLI::ExcludesError("--policy", "--agent " + o->agent);
        if (format->count() > 0 && o->agent != kEveryAgent)
            throw CLI::ValidationError("--format", "prints the table of --agent all; give --agent all");
    });
    cmd->add_option("--table", o->table, "Simulation table: a table folder (its table.csv) or a CSV file")->required();
    add_table_options(cmd, *o);
    cmd->add_option("--seed", o->seed, "Seed of the 10 random sequences")
        ->capture_default_str()
        ->check(whole_number(0, kMaxSeed));
    return [cmd, o]() -> int { return cmd->parsed() ? run_evaluate(*o) : -1; };
}

} // namespace rlda::app
