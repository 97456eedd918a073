// The paper's evaluation, replayed on its shipped tables: six from-scratch runs and one curriculum.
#include "core/run/reproduce.h"

#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/open_table.h"
#include "core/util/csv.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/line_appender.h"
#include "core/util/output_folder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace rlda::core::run {

using namespace sim;

namespace {

namespace fs = std::filesystem;

// The tables the paper learned on from scratch, and its curriculum (ConvNet2: early, late, middle).
const std::vector<std::pair<std::string, std::string>> kScratch{
    {"ConvNet2", "early"}, {"ConvNet2", "middle"}, {"ConvNet2", "late"},
    {"ConvNet3", "early"}, {"ConvNet3", "middle"}, {"ConvNet3", "late"}};
const std::vector<std::string> kCurriculum{"early", "late", "middle"};
constexpr double kCurriculumTemperature = 10.0; // the late stage explores again, as the paper's did

fs::path tables_folder(const ReproduceSettings& s)
{
    return s.tables.empty() ? core::paper_tables_dir() : s.tables;
}

const TableIndexEntry& entry_of(const std::vector<TableIndexEntry>& index, const std::string& model,
                                const std::string& scenario, const fs::path& folder)
{
    const auto it = std::find_if(index.begin(), index.end(),
                                 [&](const auto& e) { return e.model == model && e.scenario == scenario; });
    if (it == index.end())
        throw Error(fmt::format("{}: no {} {} table (the paper's tables are needed to reproduce it)",
                                (folder / "index.csv").string(), model, scenario));
    return *it;
}

std::int64_t stage_episodes(const ReproduceSettings& s)
{
    return s.stage_episodes > 0 ? s.stage_episodes : std::max<std::int64_t>(1, s.episodes * 2 / 15);
}

std::string run_name(const std::string& prefix, const std::string& table)
{
    return prefix + "-" + fs::path(table).stem().string();
}

int paper_rank(const std::vector<PaperRank>& ranks, const std::string& trained_on, const std::string& model,
               const std::string& scenario)
{
    for (const auto& r : ranks)
        if (r.trained_on == trained_on && r.model == model && r.scenario == scenario)
            return r.rank;
    return 0;
}

// One line of out/ranks.csv.
std::string rank_line(const ReproducedRank& r)
{
    const auto& e = r.evaluation;
    return fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", r.trained_on, r.model, r.scenario,
                       fs::path(r.table).filename().string(), r.run, e.rank, r.paper_rank, e.sequences,
                       sequence_string(e.greedy), e.accuracy, e.optimal);
}

} // namespace

std::vector<PaperRank> load_paper_ranks(const fs::path& file)
{
    const CsvTable csv = read_csv(file.string());
    const auto trained = csv.column("trained_on"), model = csv.column("evaluated_on_model"),
               scenario = csv.column("scenario"), rank = csv.column("rank");
    std::vector<PaperRank> out;
    for (std::size_t i = 0; i < csv.rows.size(); ++i) {
        const auto& row = csv.rows[i];
        PaperRank r{row[trained], row[model], row[scenario], 0};
        try {
            std::size_t used = 0;
            r.rank = std::stoi(row[rank], &used);
            if (used != row[rank].size() || r.rank < 1)
                throw std::invalid_argument("rank");
        } catch (const std::exception&) {
            throw Error(fmt::format("{}:{}: rank: not a rank >= 1: {}", file.string(), csv.row_lines[i],
                                    excerpt(row[rank])));
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<ReproduceRun> reproduction_plan(const ReproduceSettings& s, const fs::path& out)
{
    const fs::path folder = tables_folder(s);
    const auto index = load_table_index((folder / "index.csv").string());
    std::vector<ReproduceRun> plan;
    for (const auto& [model, scenario] : kScratch) {
        const auto& e = entry_of(index, model, scenario, folder);
        const std::string name = run_name("scratch", e.file);
        plan.push_back({name, out / name, {e.file}});
    }
    ReproduceRun curriculum{"curriculum-convnet2", out / "curriculum-convnet2", {}};
    for (const auto& scenario : kCurriculum)
        curriculum.tables.push_back(entry_of(index, "ConvNet2", scenario, folder).file);
    plan.push_back(std::move(curriculum));
    return plan;
}

ReproduceResult reproduce_paper(const ReproduceSettings& s, const fs::path& out_as_given, bool force,
                                ReproduceObserver* observer, const std::stop_token& stop)
{
    if (s.episodes < 1)
        throw Error(fmt::format("reproduce: episodes must be at least 1, not {}", s.episodes));
    const fs::path folder = tables_folder(s);
    const auto paper = load_paper_ranks(core::paper_ranks_file());
    ReproduceResult result;
    // Every table opens (metadata, model, complete) before anything is written.
    const auto index = load_table_index((folder / "index.csv").string());
    std::vector<OpenedTable> all;
    all.reserve(index.size());
    for (const auto& e : index)
        all.push_back(open_table(e.file));

    const FolderLock lock = prepare_output_folder(out_as_given, force, {folder, core::paper_ranks_file()});
    const fs::path out = lock.path(out_as_given);
    result.runs = reproduction_plan(s, out);
    // One flushed line per rank, so that a killed reproduction keeps what it judged.
    LineAppender ranks(out / "ranks.csv",
                       "trained_on,model,scenario,table,run,rank,paper_rank,sequences,greedy,accuracy,optimal\n");
    const auto judged = [&](ReproducedRank r) {
        ranks.append(rank_line(r));
        if (observer)
            observer->on_rank(r);
        result.ranks.push_back(std::move(r));
    };

    const int count = static_cast<int>(result.runs.size());
    for (int i = 0; i < count && !stop.stop_requested(); ++i) {
        const ReproduceRun& run = result.runs[static_cast<std::size_t>(i)];
        if (observer)
            observer->on_run(i, count, run);
        LearnRunSettings learn;
        learn.seed = s.seed;
        learn.learner = s.learner;
        learn.reward = s.reward;
        const bool curriculum = run.tables.size() > 1;
        if (!curriculum) {
            learn.stages = {{run.tables.front(), s.episodes, 0.0}};
        } else {
            // The paper's curriculum goes on from the agent that learned ConvNet2 early from scratch.
            learn.from = (out / run_name("scratch", run.tables.front()) / "policy.pt").string();
            learn.stages = {{run.tables[1], stage_episodes(s), kCurriculumTemperature},
                            {run.tables[2], stage_episodes(s), 1.0}};
        }
        const LearnRunResult learned = run_learning(learn, run.folder, false, observer, stop);
        if (learned.cancelled)
            break;
        if (!curriculum) {
            const OpenedTable& t = *std::find_if(
                all.begin(), all.end(), [&](const OpenedTable& o) { return o.file == run.tables.front(); });
            judged({"scratch", t.meta.model, t.meta.scenario, t.file.string(), run.name,
                    paper_rank(paper, "scratch", t.meta.model, t.meta.scenario), learned.evaluation});
        } else {
            auto learner = agent::PolicyLearner::load(learned.policy_file.string());
            for (const auto& t : all)
                judged({"curriculum", t.meta.model, t.meta.scenario, t.file.string(), run.name,
                        paper_rank(paper, "curriculum", t.meta.model, t.meta.scenario),
                        evaluate(learner, learn_task(t))});
        }
    }
    result.cancelled = stop.stop_requested();
    return result;
}

} // namespace rlda::core::run
