// Learning runs: tables checked first, then stage by stage in chunks, so that checkpoints, greedy
// reports and stop requests fall between episodes.
#include "core/run/learn_run.h"

#include "core/agent/vocabulary.h"
#include "core/config/value_limits.h"
#include "core/io/run_folder.h"
#include "core/model/zoo.h"
#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/open_table.h"
#include "core/table/table.h"
#include "core/table/table_checks.h"
#include "core/util/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

namespace rlda::core::run {

using namespace sim;

namespace {

using nlohmann::json;

// A model whose layers the encoder reads as <unk> (issue 43, item 6): the original encoder knows the
// layers of the paper's zoo alone, so on a user's own model it cannot tell one block from another.
std::string unreadable_model_warning(config::PolicyEncoder encoder, const model::ModelSummary& m,
                                     const std::vector<std::string>& unknown)
{
    std::string advice =
        "learn with --encoder structural (any model's layers) or state (that and the training "
        "state); docs/agent.md";
    if (encoder != config::PolicyEncoder::Original)
        advice = "its choices cannot depend on those layers";
    return fmt::format("the {} encoder reads {} of the {} layers of {} as <unk> ({}, ...): {}",
                       config::to_string(encoder), unknown.size(), m.leaf_layers.size(), m.name,
                       unknown.front(), advice);
}

json evaluation_json(const Evaluation& e)
{
    return {{"greedy", e.greedy},
            {"probabilities", e.probabilities},
            {"rank", e.rank},
            {"sequences", e.sequences},
            {"accuracy", e.accuracy},
            {"regret", e.regret},
            {"optimal_sequence", e.optimal_sequence},
            {"optimal", e.optimal},
            {"no_adaptation", e.no_adaptation},
            {"random_mean", e.random_mean},
            {"random_expected", e.random_expected}};
}

std::string probabilities_text(const std::vector<std::vector<double>>& decisions)
{
    std::string text;
    for (const auto& decision : decisions) {
        text += text.empty() ? "" : " | ";
        for (std::size_t i = 0; i < decision.size(); ++i)
            text += fmt::format("{}{:.4g}", i ? " " : "", decision[i]);
    }
    return text;
}

// Writes each episode's row and passes it on.
class EpisodeRows final : public LearnObserver {
public:
    EpisodeRows(io::RunFolder& folder, LearnObserver* next) : folder_(folder), next_(next) {}

    void on_episode(const EpisodeRecord& r) override
    {
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        folder_.series_row("episodes", "episode,time,objective,accuracy,reward,lr,temperature,actions,probabilities",
                           fmt::format("{},{},{},{},{},{},{},{},{}", r.episode, t, r.objective, r.accuracy, r.reward,
                                       r.lr, r.temperature, sequence_string(r.actions),
                                       probabilities_text(r.probabilities)));
        if (next_)
            next_->on_episode(r);
    }

private:
    io::RunFolder& folder_;
    LearnObserver* next_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

} // namespace

LearnStage parse_stage(const std::string& text)
{
    // TABLE:EPISODES[:TEMPERATURE]; the table path itself may hold no ':'.
    const auto first = text.find(':');
    if (first == std::string::npos)
        throw Error(fmt::format("--stage \"{}\": expected TABLE:EPISODES[:TEMPERATURE]", text));
    LearnStage s;
    s.table = text.substr(0, first);
    const std::string rest = text.substr(first + 1);
    const auto second = rest.find(':');
    try {
        std::size_t used = 0;
        const std::string episodes = rest.substr(0, second);
        s.episodes = std::stoll(episodes, &used);
        if (used != episodes.size() || s.episodes < 1 || s.episodes > config::kMaxEpisodes)
            throw std::invalid_argument("episodes");
        if (second != std::string::npos) {
            const std::string temperature = rest.substr(second + 1);
            s.temperature = std::stod(temperature, &used);
            if (used != temperature.size() || !(s.temperature >= config::kMinTemperature) ||
                !(s.temperature <= config::kMaxSquarable))
                throw std::invalid_argument("temperature");
        }
    } catch (const std::exception&) {
        throw Error(
            fmt::format("--stage \"{}\": expected TABLE:EPISODES[:TEMPERATURE], 1 to {} episodes and a "
                        "temperature from {:g} to {:g}",
                        text, config::kMaxEpisodes, config::kMinTemperature, config::kMaxSquarable));
    }
    return s;
}

LearnRunResult run_learning(const LearnRunSettings& settings, const std::filesystem::path& out, bool force,
                            LearnRunObserver* observer, const std::stop_token& stop)
{
    if (settings.stages.empty())
        throw Error("learn: no stage to run (give a table, or one or more stages)");
    if (settings.checkpoint_every < 1 || settings.report_every < 1)
        throw Error("learn: checkpoint_every and report_every must be positive");
    // Every table before anything is written: a bad file fails without touching `out`.
    TableOverrides overrides{settings.model, settings.input, settings.classes};
    overrides.only_without_metadata = settings.model_is_fallback;
    std::vector<OpenedTable> tables;
    for (const auto& s : settings.stages) {
        if (s.episodes < 1)
            throw Error(fmt::format("{}: a stage needs at least one episode", s.table));
        tables.push_back(open_table(s.table, overrides));
        const auto& t = tables.back();
        if (!t.described && observer)
            observer->on_message(t.assumption());
        if (const auto flat = unrankable_table_warning(t.table, s.table); flat && observer)
            observer->on_message(*flat);
    }
    const model::ModelSpec& first = tables.front().model;
    auto learner = settings.from.empty()
                       ? agent::PolicyLearner::for_model(settings.policy, first, settings.seed,
                                                                         tables.front().actions)
                       : agent::PolicyLearner::load(settings.from, [&](const std::string& warning) {
                             if (observer)
                                 observer->on_message(warning);
                         });
    learner.set_temperature_decay(settings.temperature_decay);
    learner.set_temperature_every(settings.temperature_every);
    learner.set_options(settings.learner);
    // A table of another action count fails here, before the folder exists.
    for (const auto& t : tables)
        (void)evaluate(learner, learn_task(t));
    // A model the encoder cannot read (the original encoder knows the paper's zoo's layers alone):
    // said once per model, before the episodes, not found later in a training run's log.
    std::vector<std::string> warned;
    for (const auto& t : tables) {
        std::vector<std::string> unknown;
        const auto summary = model::summarize(t.model);
        (void)learner.input(summary, &unknown);
        if (unknown.empty() || std::find(warned.begin(), warned.end(), t.model.name) != warned.end())
            continue;
        warned.push_back(t.model.name);
        if (observer)
            observer->on_message(unreadable_model_warning(learner.encoder(), summary, unknown));
    }

    InputPaths inputs{settings.from, settings.model};
    for (const auto& t : tables)
        inputs.push_back(t.file);
    for (const auto& s : settings.stages)
        inputs.push_back(s.table);
    inputs.insert(inputs.end(), settings.also_read.begin(), settings.also_read.end());
    io::RunFolder folder(out, force, inputs);
    LearnRunResult result;
    result.policy_file = folder.file("policy.pt");
    json stage_list = json::array();
    for (const auto& s : settings.stages)
        stage_list.push_back({{"table", s.table}, {"episodes", s.episodes}, {"temperature", s.temperature}});
    folder.event(json{{"type", io::learning_event::kSettings},
                      {"model", tables.front().meta.model},
                      {"seed", settings.seed},
                      {"from", settings.from},
                      {"stages", stage_list},
                      {"temperature_decay", settings.temperature_decay},
                      {"temperature_every", settings.temperature_every},
                      {"encoder", config::to_string(learner.encoder())},
                      {"baseline", settings.learner.baseline},
                      {"normalise", settings.learner.normalise},
                      {"entropy_bonus", settings.learner.entropy_bonus},
                      {"episodes_per_update", settings.learner.episodes_per_update},
                      {"reward", reward_draw_name(settings.reward)}}
                     .dump());

    EpisodeRows rows(folder, observer);
    for (std::size_t i = 0; i < settings.stages.size() && !stop.stop_requested(); ++i) {
        const LearnStage& stage = settings.stages[i];
        if (stage.temperature > 0)
            learner.set_temperature(stage.temperature);
        const StageStart start{static_cast<int>(i), static_cast<int>(settings.stages.size()), stage,
                               learner.episode(), learner.temperature()};
        folder.event(json{{"type", io::learning_event::kStage},
                          {"index", start.index},
                          {"table", stage.table},
                          {"episodes", stage.episodes},
                          {"first_episode", start.first_episode},
                          {"temperature", start.temperature}}
                         .dump());
        if (observer)
            observer->on_stage(start);
        std::int64_t done = 0;
        while (done < stage.episodes && !stop.stop_requested()) {
            // Chunks end at the next report or checkpoint, whichever comes first.
            const std::int64_t to_report = settings.report_every - done % settings.report_every;
            const std::int64_t to_checkpoint = settings.checkpoint_every - done % settings.checkpoint_every;
            const std::int64_t chunk = std::min({to_report, to_checkpoint, stage.episodes - done});
            const std::int64_t ran = learn(learner, learn_task(tables[i], settings.reward, settings.seed), chunk, &rows, stop);
            done += ran;
            result.episodes += ran;
            const bool stage_over = done == stage.episodes || stop.stop_requested();
            if (done % settings.checkpoint_every == 0 || stage_over)
                learner.save(result.policy_file.string()); // a kill loses at most one checkpoint's work
            if (done % settings.report_every == 0 || stage_over) {
                const Evaluation e = evaluate(learner, learn_task(tables[i]));
                folder.event(json{
                    {"type", io::learning_event::kGreedy},
                    {"episode", learner.episode()},
                    {"greedy", e.greedy},
                    {"rank",
                     e.rank}}.dump());
                if (observer)
                    observer->on_greedy(learner.episode(), e);
            }
        }
    }
    learner.save(result.policy_file.string());
    result.cancelled = stop.stop_requested();
    result.evaluation = evaluate(learner, learn_task(tables.back()));
    add_seed_statistics(result.evaluation, tables.back().table);
    folder.event(json{{"type", io::learning_event::kEvaluation},
                      {"table", settings.stages.back().table},
                      {"evaluation", evaluation_json(result.evaluation)}}
                     .dump());
    folder.event(json{{"type", "finished"},
                      {"episodes", result.episodes},
                      {"policy_episode", learner.episode()},
                      {"cancelled", result.cancelled}}
                     .dump());
    return result;
}

} // namespace rlda::core::run
