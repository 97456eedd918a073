// `rlda noise`: how much of a simulation table is noise, from replicate tables (the same table
// built again at other seeds; core/table/replicates.h).
#include "app/cli/commands.h"

#include "core/table/open_table.h"
#include "core/table/reliability.h"
#include "core/table/replicates.h"
#include "core/table/results.h"
#include "core/table/variance_model.h"
#include "core/util/error.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <memory>

namespace rlda::app {
namespace {

// One group of replicates: the noise row, its seeds, its reliability and the sequences that cannot
// be told from the best.
void print_group(const core::sim::TableMeta& m, const core::sim::SimulationTable& first,
                 const core::sim::ReplicateAccuracies& r, bool header)
{
    if (header)
        fmt::print("{:<18} {:<12} {:>10} {:>9} {:>10} {:>10} {:>10} {:>6} {:>9}  {}\n", "model", "scenario",
                   "replicates", "sequences", "sd within", "(centred)", "sd across", "ratio", "rank corr",
                   "best on average (best in)");
    const auto n = core::sim::replicate_noise(r);
    const auto& best = first.rows()[static_cast<std::size_t>(n.best_code)].actions;
    // Sequences that all tie have no ratio: "-", not the quotient of a rounding error.
    const std::string ratio = n.sequences_differ() ? fmt::format("{:.2f}", n.ratio()) : std::string("-");
    fmt::print("{:<18} {:<12} {:>10} {:>9} {:>10.4f} {:>10.4f} {:>10.4f} {:>6} {:>9.2f}  ({}) ({} of {})\n",
               m.model, m.scenario, n.replicates, n.sequences, n.within_sd, n.centred_sd, n.across_sd, ratio,
               n.rank_correlation, core::sim::sequence_string(best), n.best_agrees, n.replicates);
    fmt::print("{:<18} seeds {}\n", "", fmt::join(r.seeds, " "));
    // What the seeds support: the global test first, then the components, the set and P(best).
    const auto model = core::sim::fit_variance_model(r);
    for (const auto& line : core::sim::variance_lines(model))
        fmt::print("{:<18} {}\n", "", line);
    fmt::print("{:<18} {}\n", "", core::sim::reliability_text(core::sim::rank_reliability(r, model)));
    const auto name = [&](std::int64_t code) {
        return fmt::format("({})",
                           core::sim::sequence_string(first.rows()[static_cast<std::size_t>(code)].actions));
    };
    const auto set = core::sim::best_set(r, model);
    std::vector<std::string> members;
    for (const auto code : set.members)
        members.push_back(name(code));
    if (set.all)
        fmt::print(
            "{:<18} 95 % confidence set for the best: all {} sequences (the test above does not separate "
            "them)\n",
            "", members.size());
    else
        fmt::print("{:<18} 95 % confidence set for the best: {} of {}: {}\n", "", members.size(),
                   r.sequences(), fmt::join(members, " "));
    const auto b = core::sim::bootstrap_ranks(r);
    std::vector<std::string> shares;
    for (const auto code : b.indistinguishable)
        shares.push_back(
            fmt::format("{} {:.0f} %", name(code), 100.0 * b.best_share[static_cast<std::size_t>(code)]));
    fmt::print("{:<18} P(best) over resamples of the seeds, descriptive (not a confidence set): {}\n", "",
               fmt::join(shares, ", "));
}

// --export-means FILE: the one replicated table given, as its means in the paper's columns, with its
// metadata beside it (FILE's .json, the seeds left out): a table the paper's tools read.
void export_means(const std::vector<core::sim::OpenedTable>& tables, const std::filesystem::path& out)
{
    const core::sim::OpenedTable* replicated = nullptr;
    for (const auto& t : tables)
        if (t.table.replicated()) {
            if (replicated)
                throw core::Error("--export-means: more than one replicated table given; give the one to export");
            replicated = &t;
        }
    if (!replicated)
        throw core::Error("--export-means: none of the tables given is replicated (it has no accuracy_seed<S> columns)");
    const auto meta_out = core::sim::meta_file_for(out);
    for (const auto& f : {out, meta_out})
        if (std::filesystem::exists(std::filesystem::symlink_status(f)))
            throw core::Error(fmt::format("--export-means: {} already exists; remove it or name another file", f.string()));
    replicated->table.save_means(out.string());
    if (replicated->described) {
        auto meta = replicated->meta;
        meta.seeds.clear();
        meta.source.clear();
        core::sim::save_table_meta(meta_out, meta);
    }
    fmt::print("wrote {} (the means of {} seeds){}\n", out.string(), replicated->table.seeds().size(),
               replicated->described ? fmt::format(" and {}", meta_out.string()) : std::string());
}

int run_noise(const std::vector<std::string>& args, const std::string& means)
{
    std::vector<core::sim::OpenedTable> tables;
    std::vector<core::sim::TableMeta> metas;
    for (const auto& file : core::sim::expand_tables(args)) {
        tables.push_back(core::sim::open_table(file));
        if (!tables.back().described)
            throw core::Error(fmt::format("{}: no metadata ({}), so its replicates cannot be told apart",
                                          file.string(), core::sim::meta_file_for(file).string()));
        metas.push_back(tables.back().meta);
    }
    if (!means.empty()) {
        export_means(tables, means);
        return 0;
    }
    int shown = 0;
    // A replicated table holds its own replicates.
    for (std::size_t i = 0; i < tables.size(); ++i)
        if (tables[i].table.replicated())
            print_group(metas[i], tables[i].table, core::sim::accuracies_by_seed(tables[i].table), shown++ == 0);
    // Single-seed tables of one description at several seeds are replicates of each other.
    std::vector<core::sim::TableMeta> single;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < tables.size(); ++i)
        if (!tables[i].table.replicated()) {
            single.push_back(metas[i]);
            index.push_back(i);
        }
    for (const auto& group : core::sim::replicate_groups(single)) {
        if (group.size() < 2)
            continue;
        std::vector<const core::sim::SimulationTable*> group_tables;
        std::vector<std::uint64_t> seeds;
        for (const auto g : group) {
            group_tables.push_back(&tables[index[g]].table);
            seeds.push_back(single[g].seed);
        }
        print_group(single[group.front()], *group_tables.front(), core::sim::accuracies_of(group_tables, seeds),
                    shown++ == 0);
    }
    if (shown == 0)
        throw core::Error("noise: no replicated table, and no two of the tables given are replicates (the same table "
                          "built at two seeds)");
    fmt::print("sd within: of one sequence's accuracy between replicates ((centred): after taking out each "
               "replicate's mean); sd across: of the sequences' mean accuracy; ratio: sd within / sd across; "
               "rank corr: Spearman's, between two replicates, averaged over the pairs; the test, the "
               "components, the "
               "reliability and the set: the seed-blocked model (docs/tables.md)\n");
    return 0;
}

} // namespace

std::function<int()> add_noise_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("noise", "How much of a table is noise: one sequence's spread over replicate "
                                            "tables (built at other seeds) against the spread across sequences");
    auto tables = std::make_shared<std::vector<std::string>>();
    auto means = std::make_shared<std::string>();
    cmd->add_option("TABLES", *tables, "Table files, table folders or indexes (index.csv); replicates are grouped "
                                       "by their metadata")
        ->required();
    cmd->add_option("--export-means", *means,
                    "Write the replicated table given as its means in the paper's columns (a1..ak, timeleft1..k, "
                    "totaltime, accuracy) to FILE, with FILE's .json metadata; never over an existing file")
        ->type_name("FILE");
    return [cmd, tables, means]() -> int { return cmd->parsed() ? run_noise(*tables, *means) : -1; };
}

} // namespace rlda::app
