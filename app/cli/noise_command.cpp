// `rlda noise`: how much of a simulation table is noise, from replicate tables (the same table
// built again at other seeds; core/sim/replicates.h).
#include "app/cli/commands.h"

#include "core/sim/replicates.h"
#include "core/sim/results.h"
#include "core/sim/table_meta.h"
#include "core/util/error.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

namespace rlda::app {
namespace {

int run_noise(const std::vector<std::string>& args)
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
    int shown = 0;
    for (const auto& group : core::sim::replicate_groups(metas)) {
        if (group.size() < 2)
            continue;
        if (shown++ == 0)
            fmt::print("{:<18} {:<12} {:>10} {:>9} {:>10} {:>10} {:>10} {:>6} {:>9}  {}\n", "model", "scenario",
                       "replicates", "sequences", "sd within", "(centred)", "sd across", "ratio", "rank corr",
                       "best on average (best in)");
        std::vector<const core::sim::SimulationTable*> group_tables;
        std::vector<std::uint64_t> seeds;
        for (const auto i : group) {
            group_tables.push_back(&tables[i].table);
            seeds.push_back(metas[i].seed);
        }
        const auto n = core::sim::replicate_noise(group_tables);
        const auto& m = metas[group.front()];
        fmt::print("{:<18} {:<12} {:>10} {:>9} {:>10.4f} {:>10.4f} {:>10.4f} {:>6.2f} {:>9.2f}  ({}) ({} of {})\n",
                   m.model, m.scenario, n.replicates, n.sequences, n.within_sd, n.centred_sd, n.across_sd, n.ratio(),
                   n.rank_correlation, core::sim::sequence_string(n.best), n.best_agrees, n.replicates);
        fmt::print("{:<18} seeds {}\n", "", fmt::join(seeds, " "));
    }
    if (shown == 0)
        throw core::Error("noise: no two of the tables given are replicates (the same table built at two seeds)");
    fmt::print("sd within: of one sequence's accuracy between replicates ((centred): after taking out each "
               "replicate's mean); sd across: of the sequences' mean accuracy; ratio: sd within / sd across; "
               "rank corr: Spearman's, between two replicates, averaged over the pairs\n");
    return 0;
}

} // namespace

std::function<int()> add_noise_command(CLI::App& app)
{
    auto* cmd = app.add_subcommand("noise", "How much of a table is noise: one sequence's spread over replicate "
                                            "tables (built at other seeds) against the spread across sequences");
    auto tables = std::make_shared<std::vector<std::string>>();
    cmd->add_option("TABLES", *tables, "Table files, table folders or indexes (index.csv); replicates are grouped "
                                       "by their metadata")
        ->required();
    return [cmd, tables]() -> int { return cmd->parsed() ? run_noise(*tables) : -1; };
}

} // namespace rlda::app
