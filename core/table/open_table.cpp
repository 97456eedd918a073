// Opening a table: its metadata or what to assume, its model, actions and features, checked.
#include "core/table/open_table.h"

#include "core/model/toml_model.h"
#include "core/model/zoo.h"
#include "core/table/table_status.h"
#include "core/util/error.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace rlda::core::sim {
namespace {

namespace fs = std::filesystem;

// Two specs describe the same starting model when they print the same layers with the same blocks.
bool same_model(const model::ModelSpec& a, const model::ModelSpec& b)
{
    const auto sa = model::summarize(a);
    const auto sb = model::summarize(b);
    return sa.leaf_layers == sb.leaf_layers && sa.original_blocks == sb.original_blocks &&
           sa.parameters == sb.parameters;
}

// The command that finishes an interrupted build of a table folder.
std::string resume_hint(const fs::path& csv)
{
    const fs::path folder = csv.parent_path().empty() ? fs::path(".") : csv.parent_path();
    if (fs::exists(folder / "config.toml"))
        return fmt::format("rlda simulate {} --out {}", (folder / "config.toml").string(), folder.string());
    return "rlda simulate CONFIG --out " + folder.string();
}

} // namespace

fs::path table_file(const fs::path& folder_or_csv)
{
    std::error_code ec;
    if (fs::is_directory(folder_or_csv, ec))
        return folder_or_csv / "table.csv";
    return folder_or_csv;
}

OpenedTable open_table(const fs::path& folder_or_csv, const TableOverrides& asked, bool allow_incomplete)
{
    OpenedTable t;
    t.file = table_file(folder_or_csv);
    std::error_code ec;
    const auto status = fs::status(t.file, ec);
    if (status.type() == fs::file_type::not_found)
        throw Error(fs::is_directory(folder_or_csv, ec)
                        ? fmt::format("{}: no table.csv in this folder", folder_or_csv.string())
                        : fmt::format("{}: no such table", t.file.string()));
    require_regular_file(t.file); // a folder without permission, a FIFO: named as such
    const std::string name = t.file.string();
    const auto meta = find_table_meta(t.file);
    // Fallbacks give way to metadata; overrides must agree with it.
    const TableOverrides o = meta && asked.only_without_metadata ? TableOverrides{} : asked;

    t.described = meta.has_value();
    if (meta) {
        t.meta = *meta;
        if (o.input && *o.input != t.meta.input)
            throw Error(fmt::format("--input {} does not match table {}, which was built for {}",
                                    model::shape_string(*o.input), name, model::shape_string(t.meta.input)));
        if (o.classes && *o.classes != t.meta.classes)
            throw Error(fmt::format("--classes {} does not match table {}, which was built for {} classes",
                                    *o.classes, name, t.meta.classes));
        t.model = table_model(t.meta);
        if (!o.model.empty()) {
            const auto given = model::load_model(o.model, t.meta.input, t.meta.classes, t.meta.output_head());
            if (!same_model(given, t.model))
                throw Error(fmt::format("{} {} does not match table {}, which was built from {}", o.what,
                                        o.model, name, t.meta.model));
        }
    } else {
        t.meta.model = o.model.empty() ? "ConvNet2" : o.model;
        t.meta.input = o.input.value_or(model::kCifar10Input);
        t.meta.classes = o.classes.value_or(model::kCifar10Classes);
        t.model = model::load_model(t.meta.model, t.meta.input, t.meta.classes);
        t.meta.actions = model::original_block_count(t.model) + 1;
        t.meta.scenario = t.file.stem().string();
    }
    t.actions = table_actions(t.meta, t.model);
    if (t.actions.size() != t.meta.actions)
        throw Error(fmt::format("{}: its metadata ({}) says {} actions per decision, but {} has {} for the "
                                "operations {}",
                                name, t.meta.source, t.meta.actions, t.meta.model, t.actions.size(),
                                fmt::join(t.meta.operations, ", ")));
    // The action count comes from the metadata (or the model), so that a partial table loads.
    t.table = SimulationTable::load(name, t.meta.actions);
    if (!meta) {
        t.meta.decisions = t.table.decisions();
        t.meta.rows = t.table.sequences();
    } else if (t.table.decisions() != t.meta.decisions) {
        throw Error(fmt::format("{}: {} decisions, but its metadata ({}) says {}", name, t.table.decisions(),
                                t.meta.source, t.meta.decisions));
    } else if ((t.table.replicated() || t.meta.seeds.size() > 1) && t.table.seeds() != t.meta.seeds) {
        throw Error(fmt::format("{}: columns of the seeds {}, but its metadata ({}) lists {}", name,
                                fmt::join(t.table.seeds(), ", "), t.meta.source,
                                t.meta.seeds.empty() ? std::string("none")
                                                     : fmt::format("{}", fmt::join(t.meta.seeds, ", "))));
    }
    if (!allow_incomplete && static_cast<std::int64_t>(t.table.rows().size()) < t.meta.rows)
        // The rows a sweep's parts hold count too: the same command collects them.
        throw Error(fmt::format("table {} is incomplete: {} of {} rows; run {} again to finish it", name,
                                std::max<std::int64_t>(table_status(t.file).rows,
                                                       static_cast<std::int64_t>(t.table.rows().size())),
                                t.meta.rows, resume_hint(t.file)));
    // Its decision features, where its build recorded them (features.csv); none is no error.
    const fs::path features = features_file_for(t.file);
    t.features = load_table_features(features, t.table.decisions(), model::original_block_count(t.model));
    const std::vector<std::uint64_t> seeds =
        t.meta.seeds.empty() ? std::vector<std::uint64_t>{t.meta.seed} : t.meta.seeds;
    for (const auto& [key, f] : t.features.nodes()) {
        if (meta && std::ranges::find(seeds, key.first) == seeds.end())
            throw Error(fmt::format("{}: decision features of seed {}, which table {} was not built with",
                                    features.string(), key.first, name));
        for (const int a : key.second)
            if (a >= t.meta.actions)
                throw Error(fmt::format("{}: node [{}]: action {} is out of range for table {} ({} actions)",
                                        features.string(), fmt::join(key.second, " "), a, name,
                                        t.meta.actions));
    }
    return t;
}

std::vector<fs::path> expand_tables(const std::vector<std::string>& args)
{
    std::vector<fs::path> out;
    std::vector<fs::path> seen;
    const auto add = [&](const fs::path& p) {
        std::error_code ec;
        const auto key = fs::weakly_canonical(p, ec);
        if (std::find(seen.begin(), seen.end(), ec ? p : key) != seen.end())
            return;
        seen.push_back(ec ? p : key);
        out.push_back(p);
    };
    const auto add_index = [&](const fs::path& index) {
        const auto entries = load_table_index(index.string());
        if (entries.empty())
            throw Error(fmt::format("{}: lists no tables", index.string()));
        for (const auto& e : entries)
            add(e.file);
    };
    for (const auto& arg : args) {
        const fs::path p(arg);
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            if (holds_table(p))
                add(table_file(p));
            else if (fs::is_regular_file(p / "index.csv", ec))
                add_index(p / "index.csv");
            else
                throw Error(fmt::format(
                    "{}: holds neither a table (table.csv) nor an index of tables (index.csv)", arg));
        } else if (fs::is_regular_file(p, ec)) {
            const auto header = read_table_header(p);
            if (!header.empty() && header.front() == "file")
                add_index(p);
            else
                add(p);
        } else {
            throw Error(fmt::format("{}: no such table, table folder or index", arg));
        }
    }
    return out;
}

std::string OpenedTable::assumption() const
{
    if (described)
        return {};
    return fmt::format("{}: no metadata ({}): assuming model {}, input {}, {} classes", file.string(),
                       meta_file_for(file).filename().string(), meta.model, model::shape_string(meta.input),
                       meta.classes);
}

} // namespace rlda::core::sim
