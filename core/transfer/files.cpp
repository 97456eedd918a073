// A transfer folder's files: their columns, written line by line, and read back.
#include "core/transfer/files.h"

#include "core/model/actions.h"
#include "core/model/spec.h"
#include "core/util/csv.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>

namespace rlda::core::run {

using namespace sim;

namespace {

namespace fs = std::filesystem;

constexpr const char* kFoldsHeader = "model,sequences,random_rank,random_mean_low,random_mean_high,no_"
                                     "adaptation_rank,best_fixed,best_fixed_rank,tables,"
                                     "training_tables\n";
constexpr const char* kRanksHeader =
    "model,seed,table,scenario,table_seed,rank,sequences,greedy,accuracy,optimal,"
    "no_adaptation_rank,best_fixed_rank\n";

constexpr const char* kReferencesHeader =
    "model,table,scenario,agent,rank,rank_low,rank_high,p_best,among_best,sequence\n";

std::string reference_line(const TransferReference& r)
{
    return fmt::format("{},{},{},{},{},{},{},{},{},{}\n", r.model, r.table, r.scenario, r.agent, r.rank,
                       r.rank_low, r.rank_high, r.p_best, r.among_best ? 1 : 0, sequence_string(r.sequence));
}

std::string fold_line(const TransferFold& f)
{
    return fmt::format("{},{},{},{},{},{},{},{},{},{}\n", f.model, f.sequences, f.random_rank,
                       f.random_mean_low, f.random_mean_high, f.no_adaptation_rank,
                       sequence_string(f.best_fixed), f.best_fixed_rank, fmt::join(f.tables, ";"),
                       fmt::join(f.training_tables, ";"));
}

std::string rank_line(const TransferRank& r)
{
    const auto& e = r.evaluation;
    return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", r.model, r.seed, r.table, r.scenario,
                       r.table_seed, e.rank, e.sequences, sequence_string(e.greedy), e.accuracy, e.optimal,
                       r.no_adaptation_rank, r.best_fixed_rank);
}

template <class T> T field(const CsvTable& csv, std::size_t row, const std::string& column)
{
    const std::string& text = csv.rows[row][csv.column(column)];
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        throw Error(fmt::format("{}:{}: {}: not a number: {}", csv.source, csv.row_lines[row], column,
                                excerpt(text)));
    return value;
}

// field(), and finite and from `low` to `high` (what the writer can have written: a rank of 1 to the
// table's sequences, say): "FILE:LINE: COLUMN: VALUE is outside LOW..HIGH".
template <class T>
T field_in(const CsvTable& csv, std::size_t row, const std::string& column, double low, double high)
{
    const T value = field<T>(csv, row, column);
    const auto v = static_cast<double>(value);
    if (!std::isfinite(v) || v < low || v > high)
        throw Error(fmt::format("{}:{}: {}: {} is outside {}..{}", csv.source, csv.row_lines[row], column,
                                excerpt(csv.rows[row][csv.column(column)]), low, high));
    return value;
}

constexpr double kMaxInt = std::numeric_limits<int>::max();

// "a;b;c" -> a, b, c (table files, which may hold spaces).
std::vector<std::string> words(const std::string& text)
{
    std::vector<std::string> out;
    std::string word;
    for (char c : text + ';') {
        if (c != ';') {
            word += c;
        } else if (!word.empty()) {
            out.push_back(word);
            word.clear();
        }
    }
    return out;
}

} // namespace

TransferFiles::TransferFiles(const fs::path& folder)
    : folds_(folder / "folds.csv", kFoldsHeader), references_(folder / "references.csv", kReferencesHeader),
      ranks_(folder / "ranks.csv", kRanksHeader)
{
}

void TransferFiles::add_folds(const std::vector<TransferFold>& folds)
{
    for (const auto& f : folds)
        folds_.append(fold_line(f));
}

void TransferFiles::add_reference(const TransferReference& reference)
{
    references_.append(reference_line(reference));
}

void TransferFiles::add_rank(const TransferRank& rank)
{
    ranks_.append(rank_line(rank));
}

TransferResult read_transfer(const fs::path& folder)
{
    TransferResult result;
    const CsvTable folds = read_csv((folder / "folds.csv").string());
    for (std::size_t i = 0; i < folds.rows.size(); ++i) {
        TransferFold f;
        f.model = folds.rows[i][folds.column("model")];
        f.sequences = field_in<int>(folds, i, "sequences", 1, kMaxInt);
        const double n = f.sequences;
        f.random_rank = field_in<double>(folds, i, "random_rank", 1, n);
        // Recorded since the study of docs/agent.md; a run written before has neither column.
        const auto& head = folds.header;
        if (std::find(head.begin(), head.end(), "random_mean_low") != head.end()) {
            f.random_mean_low = field_in<double>(folds, i, "random_mean_low", 0, n);
            f.random_mean_high = field_in<double>(folds, i, "random_mean_high", 0, n);
        }
        f.no_adaptation_rank = field_in<double>(folds, i, "no_adaptation_rank", 1, n);
        try {
            f.best_fixed = model::parse_actions(folds.rows[i][folds.column("best_fixed")]);
        } catch (const Error& e) {
            throw Error(fmt::format("{}:{}: best_fixed: {}", folds.source, folds.row_lines[i], e.what()));
        }
        f.best_fixed_rank = field_in<double>(folds, i, "best_fixed_rank", 1, n);
        f.tables = words(folds.rows[i][folds.column("tables")]);
        f.training_tables = words(folds.rows[i][folds.column("training_tables")]);
        result.folds.push_back(std::move(f));
    }
    std::set<std::string> models; // each row's model looked up once, not among every fold
    for (const auto& f : result.folds)
        models.insert(f.model);
    const CsvTable ranks = read_csv((folder / "ranks.csv").string());
    for (std::size_t i = 0; i < ranks.rows.size(); ++i) {
        TransferRank r;
        const auto& row = ranks.rows[i];
        r.model = row[ranks.column("model")];
        r.seed = field<std::uint64_t>(ranks, i, "seed");
        r.table = row[ranks.column("table")];
        r.scenario = row[ranks.column("scenario")];
        r.table_seed = field<std::uint64_t>(ranks, i, "table_seed");
        r.evaluation.sequences = field_in<int>(ranks, i, "sequences", 1, kMaxInt);
        const double n = r.evaluation.sequences;
        r.evaluation.rank = field_in<int>(ranks, i, "rank", 1, n);
        try {
            r.evaluation.greedy = model::parse_actions(row[ranks.column("greedy")]);
        } catch (const Error& e) {
            throw Error(fmt::format("{}:{}: greedy: {}", ranks.source, ranks.row_lines[i], e.what()));
        }
        r.evaluation.accuracy = field_in<double>(ranks, i, "accuracy", 0, 1);
        r.evaluation.optimal = field_in<double>(ranks, i, "optimal", 0, 1);
        r.no_adaptation_rank = field_in<int>(ranks, i, "no_adaptation_rank", 1, n);
        r.best_fixed_rank = field_in<int>(ranks, i, "best_fixed_rank", 1, n);
        if (!models.contains(r.model))
            throw Error(fmt::format("{}:{}: model {} is not in folds.csv", ranks.source, ranks.row_lines[i],
                                    r.model));
        result.ranks.push_back(std::move(r));
    }
    if (!fs::exists(folder / "references.csv"))
        return result; // written before references were judged
    const CsvTable refs = read_csv((folder / "references.csv").string());
    for (std::size_t i = 0; i < refs.rows.size(); ++i) {
        TransferReference r;
        const auto& row = refs.rows[i];
        r.model = row[refs.column("model")];
        r.table = row[refs.column("table")];
        r.scenario = row[refs.column("scenario")];
        r.agent = row[refs.column("agent")];
        r.rank = field_in<double>(refs, i, "rank", 1, kMaxInt);
        r.rank_low = field_in<int>(refs, i, "rank_low", 0, kMaxInt);
        r.rank_high = field_in<int>(refs, i, "rank_high", 0, kMaxInt);
        r.p_best = field_in<double>(refs, i, "p_best", 0, 1);
        r.among_best = field<int>(refs, i, "among_best") != 0;
        const std::string& sequence = row[refs.column("sequence")];
        try {
            if (!sequence.empty())
                r.sequence = model::parse_actions(sequence);
        } catch (const Error& e) {
            throw Error(fmt::format("{}:{}: sequence: {}", refs.source, refs.row_lines[i], e.what()));
        }
        if (!models.contains(r.model))
            throw Error(
                fmt::format("{}:{}: model {} is not in folds.csv", refs.source, refs.row_lines[i], r.model));
        result.references.push_back(std::move(r));
    }
    return result;
}

} // namespace rlda::core::run
