// Transfer runs side by side, per held-out model.
#include "core/transfer/study.h"

#include "core/transfer/files.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>

namespace rlda::core::run {

std::vector<StudyRow> compare_transfers(const std::vector<StudyRun>& runs)
{
    std::vector<StudyRow> rows;
    std::vector<const TransferSummary*> first; // per row: the summary its references come from
    std::vector<std::string> first_label;
    for (const auto& run : runs)
        for (const auto& s : run.summaries) {
            const auto it = std::find_if(rows.begin(), rows.end(), [&](const StudyRow& r) { return r.model == s.fold.model; });
            if (it == rows.end()) {
                StudyRow row;
                row.model = s.fold.model;
                row.sequences = s.fold.sequences;
                row.tables = static_cast<int>(s.fold.tables.size());
                row.random = s.fold.random_rank;
                row.random_low = s.fold.random_mean_low;
                row.random_high = s.fold.random_mean_high;
                row.no_adaptation = s.fold.no_adaptation_rank;
                row.best_fixed = s.fold.best_fixed_rank;
                row.heuristic = best_heuristic(s);
                rows.push_back(std::move(row));
                first.push_back(&s);
                first_label.push_back(run.label);
                continue;
            }
            const auto i = static_cast<std::size_t>(it - rows.begin());
            if (first[i]->fold.tables != s.fold.tables)
                throw Error(fmt::format("transfer runs {} and {} judged {} on different tables: their ranks are not "
                                        "comparable",
                                        first_label[i], run.label, s.fold.model));
        }
    for (auto& row : rows)
        for (const auto& run : runs) {
            const auto it = std::find_if(run.summaries.begin(), run.summaries.end(),
                                         [&](const TransferSummary& s) { return s.fold.model == row.model; });
            row.means.push_back(it == run.summaries.end() ? std::nullopt : it->mean);
        }
    return rows;
}

std::vector<StudyAverage> study_averages(const std::vector<StudyRun>& runs, const std::vector<StudyRow>& rows)
{
    std::vector<StudyAverage> out;
    const auto add = [&](const std::string& agent, bool run, double fraction) {
        auto it = std::find_if(out.begin(), out.end(), [&](const StudyAverage& a) { return a.agent == agent && a.run == run; });
        if (it == out.end()) {
            out.push_back({agent, run, 0.0, 0});
            it = out.end() - 1;
        }
        it->fraction += fraction;
        ++it->models;
    };
    for (std::size_t r = 0; r < runs.size(); ++r)
        for (const auto& row : rows)
            if (r < row.means.size() && row.means[r] && row.sequences > 0)
                add(runs[r].label, true, *row.means[r] / row.sequences);
    for (const auto& row : rows) {
        const TransferSummary* summary = nullptr;
        for (const auto& run : runs)
            for (const auto& s : run.summaries)
                if (summary == nullptr && s.fold.model == row.model)
                    summary = &s;
        if (summary == nullptr || row.sequences <= 0)
            continue;
        for (const auto& agent : reference_agents(*summary))
            if (const auto mean = reference_mean(*summary, agent))
                add(agent, false, *mean / row.sequences);
    }
    for (auto& a : out)
        a.fraction /= a.models;
    return out;
}

StudyRun read_study_run(const std::filesystem::path& folder, std::string label)
{
    StudyRun run;
    run.summaries = summarize_transfer(read_transfer(folder));
    if (label.empty()) {
        const std::filesystem::path normal = folder.lexically_normal();
        label = (normal.has_filename() ? normal : normal.parent_path()).filename().string();
    }
    run.label = label.empty() ? folder.string() : std::move(label);
    return run;
}

bool has_random_interval(const StudyRow& row) { return row.random_high > 0.0; }

bool beats_random(const StudyRow& row, double mean)
{
    return has_random_interval(row) && mean < row.random_low;
}

} // namespace rlda::core::run
