// run_fields: config keys through the schema's bindings, results from the events the run wrote.
#include "core/io/run_fields.h"

#include "core/config/experiment_io.h"
#include "core/config/schema.h"
#include "core/util/error_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <variant>

namespace rlda::core::io {
using nlohmann::json;

const std::vector<ResultField>& result_fields()
{
    static const std::vector<ResultField> f{
        {"final_accuracy", "final accuracy"}, {"epochs", "epochs"},   {"steps", "steps"},
        {"parameters", "parameters"},         {"episodes", "episodes"}, {"rank", "rank"},
        {"regret", "regret"},                 {"rows", "rows"},
    };
    return f;
}

namespace {

RunField number(double v, int digits = 6)
{
    return {fmt::format("{:.{}g}", v, digits), v};
}

RunField count(std::int64_t v) { return {std::to_string(v), double(v)}; }

void config_fields(const RunData& run, RunFields& out)
{
    if (run.config_text.empty())
        return;
    config::ExperimentConfig c;
    try {
        c = config::parse_experiment(run.config_text, (run.path / "config.toml").string());
    } catch (const std::exception& e) {
        out.config_error = error_line(e);
        return;
    }
    for (const auto& key : config::experiment_schema().keys) {
        RunField f;
        if (const auto* s = std::get_if<config::Binding<std::string>>(&key.value))
            f.text = s->get(c);
        else
            f.text = config::toml_value(key, c);
        if (key.type == config::Type::Integer || key.type == config::Type::Number) {
            double v = 0;
            const auto [end, ec] = std::from_chars(f.text.data(), f.text.data() + f.text.size(), v);
            if (ec == std::errc() && end == f.text.data() + f.text.size())
                f.number = v;
        }
        out.values[key.name] = std::move(f);
    }
    out.config = std::move(c);
}

// A learning run's settings (its model) and evaluation (rank, accuracy, regret) events.
void learning_fields(const RunData& run, RunFields& out)
{
    if (const auto settings = learn_settings(run); settings && !settings->model.empty() && !out.values.count("job.model"))
        out.values["job.model"] = {settings->model, std::nullopt};
    std::optional<int> rank;
    for (const auto& line : run.other_events) {
        const json j = json::parse(line, nullptr, false);
        if (!j.is_object())
            continue;
        const std::string type = j.value("type", std::string{});
        try {
            if (type == "greedy" && j.contains("rank"))
                rank = j.at("rank").get<int>();
            else if (type == "evaluation" && j.contains("evaluation")) {
                const json& e = j.at("evaluation");
                rank = e.value("rank", rank.value_or(0));
                out.values["final_accuracy"] = number(e.value("accuracy", 0.0), 4);
                out.values["regret"] = number(e.value("regret", 0.0), 4);
            }
        } catch (const std::exception&) {
            // A field of the wrong type: the column stays empty, read_run() reported nothing worse.
        }
    }
    if (rank)
        out.values["rank"] = count(*rank);
    if (!run.episodes.empty())
        out.values["episodes"] = count(std::int64_t(run.episodes.size()));
}

} // namespace

RunFields run_fields(const RunData& run, const sim::TableStatus* table)
{
    RunFields out;
    config_fields(run, out);
    if (run.kind == RunKind::Learning) {
        learning_fields(run, out);
    } else if (table) {
        out.values["rows"] = count(table->rows);
        if (table->best)
            out.values["final_accuracy"] = number(table->best->accuracy, 4);
        if (table->meta && !out.values.count("job.model"))
            out.values["job.model"] = {table->meta->model, std::nullopt};
    } else {
        if (const auto acc = final_accuracy(run))
            out.values["final_accuracy"] = number(*acc, 4);
        if (run.finished) {
            out.values["epochs"] = count(run.finished->epochs);
            out.values["steps"] = count(run.finished->steps);
        }
        std::int64_t params = 0;
        if (run.final_model)
            params = run.final_model->parameters;
        else if (run.finished)
            params = run.finished->final_model.parameters;
        else if (!run.adaptations.empty())
            params = run.adaptations.back().after.parameters;
        if (params > 0)
            out.values["parameters"] = count(params);
    }
    return out;
}

} // namespace rlda::core::io
