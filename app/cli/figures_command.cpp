// `rlda figures`: the paper's figures 7-12 as files, from simulation tables, learning runs and policies.
#include "app/cli/commands.h"
#include "app/cli/decimal.h"
#include "app/cli/warning.h"
#include "app/cli/numbers.h"

#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/output_folder.h"
#include "core/util/rolling_mean.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <string>
#include <vector>

#ifdef RLDA_WITH_FIGURES
#include "core/io/run_reader.h"
#include "core/model/zoo.h"
#include "core/run/evaluate_policy.h"
#include "core/table/judge.h"
#include "core/table/open_table.h"
#include "core/table/table.h"
#include "widgets/figures/figure_job.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#endif

namespace rlda::app {
namespace {

struct FiguresOptions {
    std::vector<std::string> tables;
    std::vector<std::string> runs;
    std::vector<std::string> policies;
    std::string model;
    std::string input;
    std::int64_t classes = 0;
    std::string out;
    bool force = false;
    std::string format = "png";
    std::string size = "1200x700";
    int dpi = 150;
    int window = core::kPaperRollingWindow;
    std::uint64_t seed = 0;
};

#ifdef RLDA_WITH_FIGURES

namespace fs = std::filesystem;

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    while (true) {
        const auto end = text.find(sep, start);
        std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!part.empty())
            parts.push_back(part);
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

// --tables: every table named, with its metadata (model, scenario) and its model.
std::vector<core::sim::OpenedTable> load_tables(const std::vector<std::string>& args,
                                                const core::sim::TableOverrides& overrides)
{
    std::vector<core::sim::OpenedTable> tables;
    for (const auto& file : core::sim::expand_tables(args)) {
        tables.push_back(core::sim::open_table(file, overrides));
        const auto& t = tables.back();
        if (!t.described)
            print_warning(t.assumption());
    }
    return tables;
}

// Which index entries a --run's table list names: "all", a table file (name, stem or path), a
// model (all its tables) or a scenario (of --model, or of the one model that has it).
std::vector<std::size_t> select_tables(const std::string& spec, const std::string& what,
                                       const std::vector<core::sim::OpenedTable>& index, const std::string& model)
{
    std::vector<std::size_t> chosen;
    auto add = [&](std::size_t i) {
        if (std::find(chosen.begin(), chosen.end(), i) == chosen.end())
            chosen.push_back(i);
    };
    for (const auto& item : split(spec, ',')) {
        const std::string key = lower(item);
        std::vector<std::size_t> hits;
        std::error_code ec;
        const auto canonical = fs::weakly_canonical(item, ec);
        for (std::size_t i = 0; i < index.size(); ++i) {
            const fs::path& file = index[i].file;
            // A table folder's table.csv is named by its folder too.
            const std::string folder = file.filename() == "table.csv" ? lower(file.parent_path().filename().string()) : "";
            if (key == "all" || lower(file.filename().string()) == key || lower(file.stem().string()) == key ||
                (!folder.empty() && folder == key) || (!ec && fs::weakly_canonical(file, ec) == canonical) ||
                (!ec && fs::weakly_canonical(file.parent_path(), ec) == canonical) || lower(index[i].meta.model) == key)
                hits.push_back(i);
        }
        if (hits.empty()) {
            std::vector<std::string> models;
            for (std::size_t i = 0; i < index.size(); ++i)
                if (lower(index[i].meta.scenario) == key && (model.empty() || lower(index[i].meta.model) == lower(model))) {
                    hits.push_back(i);
                    if (std::find(models.begin(), models.end(), index[i].meta.model) == models.end())
                        models.push_back(index[i].meta.model);
                }
            if (models.size() > 1)
                throw core::Error(fmt::format("{}: scenario '{}' is in the tables of {} models ({}); name the table "
                                              "file or give --model",
                                              what, item, models.size(), fmt::join(models, ", ")));
        }
        if (hits.empty())
            throw core::Error(fmt::format("{}: '{}' names none of the --tables (give a table file or folder, a "
                                          "scenario, a model or 'all')",
                                          what, item));
        for (auto i : hits)
            add(i);
    }
    return chosen;
}

struct Source {
    std::string agent;  // the name in titles and legends
    std::string policy; // policy.pt
    std::vector<std::size_t> tables;
};

// For a --run without :TABLES, the tables its policy is ranked on: those of `index` it learned from
// (its settings event; a relative path as from here), else the one table given; empty, with a
// warning that says why and what to give, when neither.
std::vector<std::size_t> implied_tables(const std::string& dir, const std::vector<core::sim::OpenedTable>& index)
{
    std::vector<std::size_t> chosen;
    std::vector<std::string> learned;
    try {
        if (const auto settings = core::io::learn_settings(core::io::read_run(dir)))
            learned = settings->tables;
    } catch (const core::Error&) {
        // Not readable as a run: no tables of its own; the run's curves report what is wrong.
    }
    std::error_code ec;
    for (const auto& t : learned) {
        const auto canonical = fs::weakly_canonical(t, ec);
        if (ec)
            continue;
        for (std::size_t i = 0; i < index.size(); ++i) {
            const fs::path& file = index[i].file;
            if ((fs::weakly_canonical(file, ec) == canonical || fs::weakly_canonical(file.parent_path(), ec) == canonical) &&
                std::find(chosen.begin(), chosen.end(), i) == chosen.end())
                chosen.push_back(i);
        }
    }
    if (chosen.empty() && index.size() == 1)
        chosen.push_back(0);
    if (chosen.empty())
        print_warning(fmt::format(
            "--run {}: no rank figures (figs. 10-12) for its policy: it learned from none of the {} --tables; name "
            "them as --run {}:TABLES (table files, scenarios, models or 'all')",
            dir, index.size(), dir));
    return chosen;
}

int run_figures(const FiguresOptions& o)
{
    // Everything a user can get wrong is checked before a policy is loaded or a file written.
    core::sim::TableOverrides overrides;
    if (!o.input.empty())
        overrides.input = core::model::parse_shape(o.input);
    if (o.classes > 0)
        overrides.classes = o.classes;
    overrides.what = "--model";
    const auto index = load_tables(o.tables, overrides);
    if (o.out.empty())
        throw core::Error("figures: --out DIR is required");
    core::InputPaths inputs(o.runs.begin(), o.runs.end());
    inputs.insert(inputs.end(), o.policies.begin(), o.policies.end());
    inputs.insert(inputs.end(), o.tables.begin(), o.tables.end());
    core::check_output_folder(o.out, o.force, inputs); // the rule of every output folder
    widgets::FigureJob job;
    job.formats.clear();
    for (const auto& f : split(o.format, ',')) {
        job.formats.push_back(lower(f));
        if (job.formats.back() != "png" && job.formats.back() != "pdf" && job.formats.back() != "svg")
            throw ArgumentError(
                fmt::format("--format '{}': unknown format '{}' (use png, pdf, svg)", o.format, f));
    }
    if (job.formats.empty())
        throw ArgumentError(
            fmt::format("--format '{}': give png, pdf and/or svg, comma-separated", o.format));
    const auto wh = split(lower(o.size), 'x');
    try {
        std::size_t u1 = 0, u2 = 0;
        if (wh.size() != 2)
            throw std::invalid_argument("size");
        job.width = std::stoi(wh[0], &u1);
        job.height = std::stoi(wh[1], &u2);
        if (u1 != wh[0].size() || u2 != wh[1].size() || job.width < 200 || job.height < 150 || job.width > 10000 ||
            job.height > 10000)
            throw std::invalid_argument("size");
    } catch (const std::exception&) {
        throw ArgumentError(
            fmt::format("--size '{}': expected WIDTHxHEIGHT in pixels, 200x150 to 10000x10000", o.size));
    }
    if (o.window < 1)
        throw core::Error(fmt::format("--window {}: expected a positive number of episodes", o.window));

    job.dpi = o.dpi;
    job.window = o.window;
    std::vector<Source> sources;
    for (const auto& spec : o.runs) {
        // RUN_DIR or RUN_DIR:TABLES; a folder whose own name holds ':' still works as a whole.
        std::string dir = spec, tables;
        std::error_code ec;
        if (!fs::is_directory(spec, ec))
            if (const auto colon = spec.rfind(':'); colon != std::string::npos) {
                dir = spec.substr(0, colon);
                tables = spec.substr(colon + 1);
            }
        if (!fs::is_directory(dir, ec))
            throw core::Error(fmt::format("--run {}: {} is not a folder", spec, dir));
        if (!fs::is_regular_file(fs::path(dir) / "metrics" / "episodes.csv", ec))
            throw core::Error(fmt::format("--run {}: {} is not a learning run (no metrics/episodes.csv)", spec, dir));
        job.runs.push_back(dir);
        Source s;
        // The name the learning curve carries too: the folder's.
        const auto folder = fs::absolute(dir, ec).lexically_normal();
        s.agent =
            core::printable((folder.has_filename() ? folder : folder.parent_path()).filename().string());
        s.policy = (fs::path(dir) / "policy.pt").string();
        if (!tables.empty()) {
            if (!fs::is_regular_file(s.policy, ec))
                throw core::Error(fmt::format("--run {}: {} not found", spec, s.policy));
            s.tables = select_tables(tables, "--run " + spec, index, o.model);
        } else if (!fs::is_regular_file(s.policy, ec)) {
            print_warning(fmt::format("--run {}: no rank figures (figs. 10-12): {} not found", spec, s.policy));
        } else {
            s.tables = implied_tables(dir, index);
        }
        if (!s.tables.empty())
            sources.push_back(std::move(s));
    }
    for (const auto& policy : o.policies) {
        std::error_code ec;
        if (!fs::is_regular_file(policy, ec))
            throw core::Error(fmt::format("--policy {}: no such file", policy));
        Source s;
        const fs::path p = fs::absolute(policy, ec);
        s.agent = core::printable(p.filename() == "policy.pt" && p.has_parent_path()
                                      ? p.parent_path().filename().string()
                                      : p.stem().string());
        s.policy = policy;
        s.tables = select_tables(o.model.empty() ? "all" : o.model, "--policy " + policy + " --model", index, o.model);
        // The same policy given as a --run too is drawn once, on the tables of both.
        const auto same = std::find_if(sources.begin(), sources.end(), [&](const Source& other) {
            std::error_code e;
            return fs::equivalent(other.policy, s.policy, e);
        });
        if (same == sources.end()) {
            sources.push_back(std::move(s));
        } else {
            for (auto i : s.tables)
                if (std::find(same->tables.begin(), same->tables.end(), i) == same->tables.end())
                    same->tables.push_back(i);
        }
    }
    if (job.runs.empty() && sources.empty())
        throw core::Error("figures: nothing to draw: give --run RUN_DIR[:TABLES] and/or --policy POLICY");

    // Evaluations, in --tables order and, for one table, in the order the sources were given.
    std::vector<std::pair<std::size_t, widgets::FigureJob::Table>> ranked;
    for (const auto& s : sources) {
        std::vector<const core::sim::OpenedTable*> tables;
        for (auto i : s.tables)
            tables.push_back(&index[i]);
        const auto evaluations = core::run::evaluate_policy(s.policy, tables, o.seed, print_warning);
        for (std::size_t k = 0; k < s.tables.size(); ++k) {
            const auto i = s.tables[k];
            const auto& t = index[i];
            const auto& e = evaluations[k];
            fmt::print("{} {} ({}): greedy {} rank {}/{} accuracy {} optimal {} no_adaptation {} random_mean {}\n",
                       t.meta.model, t.meta.scenario, s.agent, core::sim::sequence_string(e.greedy), e.rank,
                       e.sequences, decimal(e.accuracy), decimal(e.optimal), decimal(e.no_adaptation),
                       decimal(e.random_mean));
            ranked.emplace_back(i, widgets::FigureJob::Table{t.meta.model, t.meta.scenario, s.agent, t.table.rows(), e,
                                                                     t.table.no_adaptation_sequence()});
        }
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& r : ranked)
        job.tables.push_back(std::move(r.second));

    const auto lock = core::prepare_output_folder(o.out, o.force, inputs);
    job.out_dir = lock.path(o.out).string();
    for (const auto& f : widgets::renderFigureJob(job))
        fmt::print("wrote {}\n", f);
    return 0;
}

#else

int run_figures(const FiguresOptions&)
{
    throw core::Error("figures: this rlda was built without Qt; `rlda figures` needs the GUI build "
                      "(configure with -DRLDA_BUILD_GUI=ON)");
}

#endif

} // namespace

std::function<int()> add_figures_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("figures", "The paper's figures 7-12 (learning curves, rank charts, accuracy "
                                              "bars) as PNG, PDF or SVG files");
    auto o = std::make_shared<FiguresOptions>();
    cmd->add_option("--tables", o->tables,
                    "Simulation tables, repeatable, mixed: table folders (rlda simulate's), table files, or indexes "
                    "(index.csv, or a folder holding one)")
        ->required();
    cmd->add_option("--run", o->runs,
                    "Learning run RUN_DIR[:TABLES], repeatable: its curves (metrics/episodes.csv), and its "
                    "policy.pt evaluated on TABLES, a comma-separated list of table files, scenarios, models or "
                    "'all'; without TABLES, on those of --tables it learned from, else on the one table given");
    cmd->add_option("--policy", o->policies,
                    "A policy evaluated on every table of --model (all tables without it), repeatable");
    cmd->add_option("--model", o->model, "Model whose tables --policy is evaluated on; picks the model of a bare "
                                         "scenario in --run");
    cmd->add_option("--input", o->input, "Input shape of the tables' jobs; default: each table's metadata")
        ->check(input_shape());
    cmd->add_option("--classes", o->classes, "Classes of the tables' jobs; default: each table's metadata")
        ->check(whole_number(1, kMaxClasses));
    cmd->add_option("--out", o->out, "A new folder for the figure files")->required();
    cmd->add_flag("--force", o->force, "Replace a --out that rlda made first");
    cmd->add_option("--format", o->format, "Formats, comma-separated: png, pdf, svg")->capture_default_str();
    cmd->add_option("--size", o->size, "Figure size WIDTHxHEIGHT: the PNG's pixels exactly (PDF: points)")
        ->capture_default_str();
    cmd->add_option("--dpi", o->dpi, "Resolution written into the PNG and SVG: how large they print (their pixels are --size)")
        ->capture_default_str()
        ->check(whole_number(24, 1200));
    cmd->add_option("--window", o->window, "Rolling mean of the learning curves, in episodes")
        ->capture_default_str()
        ->check(whole_number(1, kMaxWindow));
    cmd->add_option("--seed", o->seed, "Seed of the 10 random sequences of the baseline")
        ->capture_default_str()
        ->check(whole_number(0, kMaxSeed));
    return [cmd, o]() -> int { return cmd->parsed() ? run_figures(*o) : -1; };
}

} // namespace rlda::app
