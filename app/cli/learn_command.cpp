// `rlda learn`: simulation-driven learning (Algorithm 4) against one table or a curriculum, and
// `rlda evaluate`: a policy's greedy sequence against a table, with the paper's baselines.
#include "app/cli/commands.h"

#include "core/agent/reinforce.h"
#include "core/config/experiment_io.h"
#include "core/io/run_folder.h"
#include "core/model/zoo.h"
#include "core/sim/learn.h"
#include "core/sim/table.h"
#include "core/util/error.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <deque>
#include <memory>
#include <unistd.h>

namespace rlda::app {
namespace {

using Clock = std::chrono::steady_clock;

struct Stage {
    std::string table;
    std::int64_t episodes = 0;
    double temperature = 0.0; // 0 = keep the policy's
};

struct LearnOptions {
    std::string table;
    std::string model = "ConvNet2";
    std::string input = "3x32x32";
    std::int64_t classes = 10;
    std::int64_t episodes = 75000;
    std::uint64_t seed = 42;
    std::string from;
    std::string config; // an experiment file whose [policy] section sizes a new policy
    double temperature = 0.0;
    double temperature_decay = 0.9;
    double baseline = 0.0;
    std::vector<std::string> stages;
    std::string out;
    bool force = false;
    std::int64_t checkpoint_every = 5000;
    std::size_t window = 75; // rolling mean, as the paper's figures
};

Stage parse_stage(const std::string& text)
{
    // TABLE:EPISODES[:TEMPERATURE]; the table path may itself hold no ':'.
    const auto first = text.find(':');
    if (first == std::string::npos)
        throw core::Error(fmt::format("--stage \"{}\": expected TABLE:EPISODES[:TEMPERATURE]", text));
    Stage s;
    s.table = text.substr(0, first);
    const auto rest = text.substr(first + 1);
    const auto second = rest.find(':');
    try {
        std::size_t used = 0;
        s.episodes = std::stoll(rest.substr(0, second), &used);
        if (used != rest.substr(0, second).size() || s.episodes < 1)
            throw std::invalid_argument("episodes");
        if (second != std::string::npos) {
            s.temperature = std::stod(rest.substr(second + 1), &used);
            if (used != rest.substr(second + 1).size() || !(s.temperature > 0))
                throw std::invalid_argument("temperature");
        }
    } catch (const std::exception&) {
        throw core::Error(fmt::format("--stage \"{}\": expected TABLE:EPISODES[:TEMPERATURE] with a positive "
                                      "episode count and temperature",
                                      text));
    }
    return s;
}

// Per-episode rows (metrics/episodes.csv) and a progress line.
class EpisodeLog final : public core::sim::LearnObserver {
public:
    EpisodeLog(core::io::RunFolder& folder, core::agent::PolicyLearner& learner, const core::sim::SimulationTable& table,
               const core::model::ModelSpec& base, std::int64_t total, std::size_t window, bool tty)
        : folder_(folder), learner_(learner), table_(table), base_(base), total_(total), window_(window), tty_(tty),
          start_(Clock::now()), last_print_(start_)
    {
    }

    void on_episode(const core::sim::EpisodeRecord& r) override
    {
        ++done_;
        sum_ += r.objective;
        recent_.push_back(r.objective);
        if (recent_.size() > window_) {
            sum_ -= recent_.front();
            recent_.pop_front();
        }
        std::string probs;
        for (const auto& decision : r.probabilities) {
            probs += probs.empty() ? "" : " | ";
            for (std::size_t i = 0; i < decision.size(); ++i)
                probs += fmt::format("{}{:.4g}", i ? " " : "", decision[i]);
        }
        const double t = seconds();
        folder_.series_row("episodes", "episode,time,objective,accuracy,reward,lr,temperature,actions,probabilities",
                           fmt::format("{},{},{},{},{},{},{},{},{}", r.episode, t, r.objective, r.accuracy, r.reward,
                                       r.lr, r.temperature, core::sim::sequence_string(r.actions), probs));
        const auto now = Clock::now();
        if (now - last_print_ > (tty_ ? std::chrono::milliseconds(250) : std::chrono::seconds(10)) || done_ == total_) {
            last_print_ = now;
            print(r);
        }
    }

    void finish() const
    {
        if (tty_)
            fmt::print("\n");
    }

private:
    double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

    void print(const core::sim::EpisodeRecord& r)
    {
        const auto greedy = core::sim::evaluate(learner_, table_, base_).greedy;
        const std::string line =
            fmt::format("episode {:>6}/{} {:>7.0f} eps/s  objective(mean of {}) {:>9.2f}  T {:.3g}  greedy [{}]",
                        done_, total_, static_cast<double>(done_) / seconds(), recent_.size(),
                        sum_ / static_cast<double>(recent_.size()), r.temperature, core::sim::sequence_string(greedy));
        if (tty_)
            fmt::print("\r\033[K{}", line);
        else
            fmt::print("{}\n", line);
        std::fflush(stdout);
    }

    core::io::RunFolder& folder_;
    core::agent::PolicyLearner& learner_;
    const core::sim::SimulationTable& table_;
    const core::model::ModelSpec& base_;
    std::int64_t total_;
    std::size_t window_;
    bool tty_;
    Clock::time_point start_, last_print_;
    std::int64_t done_ = 0;
    std::deque<double> recent_;
    double sum_ = 0.0;
};

void print_evaluation(const core::sim::Evaluation& e)
{
    fmt::print("greedy: {}\nrank: {}/{}\naccuracy: {}\nregret: {}\noptimal: {} ({})\nno_adaptation: {}\n"
               "random_mean: {}\nrandom_expected: {}\n",
               core::sim::sequence_string(e.greedy), e.rank, e.sequences, e.accuracy, e.regret, e.optimal,
               core::sim::sequence_string(e.optimal_sequence), e.no_adaptation, e.random_mean, e.random_expected);
}

// The original's sizes and rates, or those of [policy] in an experiment file.
core::config::PolicyConfig policy_sizes(const std::string& config)
{
    return config.empty() ? core::config::PolicyConfig{} : core::config::load_experiment(config).policy;
}

int run_learn(const LearnOptions& o)
{
    namespace m = core::model;
    std::vector<Stage> stages;
    for (const auto& s : o.stages)
        stages.push_back(parse_stage(s));
    if (stages.empty()) {
        if (o.table.empty())
            throw core::Error("learn: give --table (or one or more --stage TABLE:EPISODES[:T])");
        stages.push_back({o.table, o.episodes, o.temperature});
    }
    if (o.out.empty())
        throw core::Error("learn: --out DIR is required");
    const m::ModelSpec base = m::load_model(o.model, m::parse_shape(o.input), o.classes);
    // Tables first: a bad file fails before anything is written.
    std::vector<core::sim::SimulationTable> tables;
    for (const auto& s : stages)
        tables.push_back(core::sim::SimulationTable::load(s.table));

    auto learner = o.from.empty()
                       ? core::agent::PolicyLearner(core::agent::Vocabulary::from_zoo(3, base.input, base.classes),
                                                    policy_sizes(o.config), m::original_block_count(base) + 1,
                                                    o.seed)
                       : core::agent::PolicyLearner::load(o.from);
    learner.set_temperature_decay(o.temperature_decay);
    if (o.baseline > 0.0)
        learner.set_reward_baseline(o.baseline);

    core::io::RunFolder folder(o.out, o.force);
    const bool tty = isatty(STDOUT_FILENO) != 0;
    for (std::size_t i = 0; i < stages.size(); ++i) {
        if (stages[i].temperature > 0)
            learner.set_temperature(stages[i].temperature);
        fmt::print("stage {}/{}: {} for {} episodes from episode {}, temperature {}\n", i + 1, stages.size(),
                   stages[i].table, stages[i].episodes, learner.episode(), learner.temperature());
        EpisodeLog log(folder, learner, tables[i], base, stages[i].episodes, o.window, tty);
        for (std::int64_t done = 0; done < stages[i].episodes;) {
            const auto chunk = std::min(o.checkpoint_every, stages[i].episodes - done);
            done += core::sim::learn(learner, tables[i], base, chunk, &log);
            learner.save(folder.file("policy.pt").string()); // a kill loses at most one chunk
        }
        log.finish();
    }
    fmt::print("policy: {}\n", folder.file("policy.pt").string());
    const auto e = core::sim::evaluate(learner, tables.back(), base);
    print_evaluation(e);
    return 0;
}

struct EvaluateOptions {
    std::string policy;
    std::string table;
    std::string model = "ConvNet2";
    std::string input = "3x32x32";
    std::int64_t classes = 10;
    std::uint64_t seed = 0;
};

int run_evaluate(const EvaluateOptions& o)
{
    namespace m = core::model;
    const m::ModelSpec base = m::load_model(o.model, m::parse_shape(o.input), o.classes);
    const auto table = core::sim::SimulationTable::load(o.table);
    auto learner = core::agent::PolicyLearner::load(o.policy);
    print_evaluation(core::sim::evaluate(learner, table, base, o.seed));
    return 0;
}

} // namespace

std::function<int()> add_learn_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("learn", "Simulation-driven learning of a policy against tables (Algorithm 4)");
    auto o = std::make_shared<LearnOptions>();
    cmd->add_option("--table", o->table, "Simulation table (CSV)");
    cmd->add_option("--model", o->model, "The table's starting model (zoo name or TOML file)")->capture_default_str();
    cmd->add_option("--input", o->input, "Input shape of the table's job")->capture_default_str();
    cmd->add_option("--classes", o->classes)->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--episodes", o->episodes)->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--seed", o->seed)->capture_default_str();
    cmd->add_option("--from", o->from, "Continue a saved policy (curricula, transfer)");
    cmd->add_option("--config", o->config, "Experiment file whose [policy] section sizes a new policy");
    cmd->add_option("--temperature", o->temperature, "Starting softmax temperature (default: the policy's, 1 if new)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--temperature-decay", o->temperature_decay, "Temperature x this every decay_freq episodes")
        ->capture_default_str();
    cmd->add_option("--baseline", o->baseline,
                    "Option, not the original: learn from reward - moving average (decay, e.g. 0.99)")
        ->check(CLI::Range(0.0, 0.999999));
    cmd->add_option("--stage", o->stages, "Curriculum stage TABLE:EPISODES[:TEMPERATURE], repeatable, in order");
    cmd->add_option("--out", o->out, "Run folder: policy.pt, metrics/episodes.csv")->required();
    cmd->add_flag("--force", o->force, "Empty an existing run folder first");
    cmd->add_option("--checkpoint-every", o->checkpoint_every, "Save policy.pt every N episodes")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    cmd->add_option("--window", o->window, "Rolling-mean window of the progress line")->capture_default_str();
    return [cmd, o]() -> int { return cmd->parsed() ? run_learn(*o) : -1; };
}

std::function<int()> add_evaluate_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("evaluate", "A policy's greedy sequence on a table, its rank and the baselines");
    auto o = std::make_shared<EvaluateOptions>();
    cmd->add_option("--policy", o->policy, "Policy file (policy.pt)")->required();
    cmd->add_option("--table", o->table, "Simulation table (CSV)")->required();
    cmd->add_option("--model", o->model, "The table's starting model")->capture_default_str();
    cmd->add_option("--input", o->input)->capture_default_str();
    cmd->add_option("--classes", o->classes)->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--seed", o->seed, "Seed of the 10 random sequences")->capture_default_str();
    return [cmd, o]() -> int { return cmd->parsed() ? run_evaluate(*o) : -1; };
}

} // namespace rlda::app
