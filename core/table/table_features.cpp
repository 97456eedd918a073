// features.csv: a table's decision features, one line per (seed, decision node), its format declared
// here once; read with every size checked, written whole (atomically) or appended line by line.
#include "core/table/table_features.h"

#include "core/util/atomic_file.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/read_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

namespace rlda::core::sim {
namespace fs = std::filesystem;

// The format (version 1), identified by its header line, which must be exactly kHeader:
//   seed        the seed the node was trained under (the job's; a replicated table's one of its seeds)
//   prefix      the actions taken before the node, space-separated; empty for the first decision
//   train_loss ... time_budget
//               DecisionFeatures' run-wide fields, in that struct's order
//   parameters ... loss_drop
//               BlockFeatures' fields, each one column holding one value per original block,
//               space-separated, in action order
// One line per node, so that a node is one write(2) and a killed build leaves whole nodes and at
// most one torn last line. Reals are written in the shortest text that reads back to the same
// double ("nan" and "inf" as such), so a file read and written again is the same bytes.
namespace {

constexpr std::string_view kHeader =
    "seed,prefix,train_loss,train_loss_slope,test_accuracy,test_accuracy_change,epoch,time_left,time_budget,"
    "parameters,weight_norm,grad_sq_mean,activation_mean,activation_var,loss_drop";
constexpr std::size_t kFields = 15;
// An action a prefix may hold: far above any table's action count, far below overflow.
constexpr std::int64_t kMaxAction = 1 << 20;
// Bytes of a features file read at most: a million nodes of a hundred blocks fit.
constexpr std::uint64_t kMaxFeaturesBytes = std::uint64_t{1} << 31;

[[noreturn]] void fail(const fs::path& file, std::size_t line, const std::string& reason)
{
    throw Error(fmt::format("{}:{}: {}", file.string(), line, reason));
}

std::vector<std::string_view> split(std::string_view text, char sep)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const auto end = text.find(sep, start);
        out.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return out;
        start = end + 1;
    }
}

std::vector<std::string_view> words(std::string_view text)
{
    std::vector<std::string_view> out;
    for (const auto w : split(text, ' '))
        if (!w.empty())
            out.push_back(w);
    return out;
}

template <class Int>
bool parse_int(std::string_view s, Int& v)
{
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc{} && end == s.data() + s.size() && !s.empty();
}

bool parse_real(std::string_view s, double& v)
{
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc{} && end == s.data() + s.size() && !s.empty();
}

std::string real(double v) { return fmt::format("{}", v); }

template <class Get>
std::string block_column(const agent::DecisionFeatures& f, Get get)
{
    std::string out;
    for (const auto& b : f.blocks) {
        if (!out.empty())
            out += ' ';
        out += get(b);
    }
    return out;
}

// One line's node, every field checked; `where` names the line for errors.
std::pair<std::uint64_t, std::vector<int>> parse_line(std::string_view text, int decisions, int blocks,
                                                      const fs::path& file, std::size_t line,
                                                      agent::DecisionFeatures& f)
{
    const auto fields = split(text, ',');
    if (fields.size() != kFields)
        fail(file, line, fmt::format("{} fields, not {}", fields.size(), kFields));
    std::uint64_t seed = 0;
    if (!parse_int(fields[0], seed))
        fail(file, line, fmt::format("seed {} is not a whole number", excerpt(fields[0])));
    std::vector<int> prefix;
    const auto actions = words(fields[1]);
    if (static_cast<std::int64_t>(actions.size()) >= decisions)
        fail(file, line, fmt::format("a prefix of {} actions, but the table has {} decisions", actions.size(), decisions));
    for (const auto a : actions) {
        int v = -1;
        if (!parse_int(a, v) || v < 0 || v > kMaxAction)
            fail(file, line, fmt::format("prefix action {} is not an action", excerpt(a)));
        prefix.push_back(v);
    }
    static constexpr std::array<const char*, 7> kGlobals = {"train_loss",  "train_loss_slope", "test_accuracy",
                                                            "test_accuracy_change", "epoch", "time_left",
                                                            "time_budget"};
    std::array<double*, 7> globals = {&f.train_loss,  &f.train_loss_slope, &f.test_accuracy, &f.test_accuracy_change,
                                      &f.epoch, &f.time_left, &f.time_budget};
    for (std::size_t i = 0; i < globals.size(); ++i)
        if (!parse_real(fields[2 + i], *globals[i]))
            fail(file, line, fmt::format("{} {} is not a number", kGlobals[i], excerpt(fields[2 + i])));
    if (!(f.epoch >= 0.0) || !(f.time_left >= 0.0) || !(f.time_budget >= 0.0))
        fail(file, line, "epoch, time_left and time_budget must be >= 0");
    f.blocks.assign(static_cast<std::size_t>(blocks), {});
    static constexpr std::array<const char*, 6> kBlockColumns = {"parameters",      "weight_norm",    "grad_sq_mean",
                                                                 "activation_mean", "activation_var", "loss_drop"};
    for (std::size_t c = 0; c < kBlockColumns.size(); ++c) {
        const auto values = words(fields[9 + c]);
        if (values.size() != static_cast<std::size_t>(blocks))
            fail(file, line, fmt::format("{}: {} values, but the table's model has {} blocks", kBlockColumns[c],
                                         values.size(), blocks));
        for (std::size_t b = 0; b < values.size(); ++b) {
            agent::BlockFeatures& bf = f.blocks[b];
            bool ok = true;
            switch (c) {
            case 0:
                ok = parse_int(values[b], bf.parameters) && bf.parameters >= 0;
                break;
            case 1:
                ok = parse_real(values[b], bf.weight_norm) && !(bf.weight_norm < 0.0);
                break;
            case 2:
                ok = parse_real(values[b], bf.grad_sq_mean) && !(bf.grad_sq_mean < 0.0);
                break;
            case 3:
                ok = parse_real(values[b], bf.activation_mean);
                break;
            case 4:
                ok = parse_real(values[b], bf.activation_var) && !(bf.activation_var < 0.0);
                break;
            default:
                ok = parse_real(values[b], bf.loss_drop) && !(bf.loss_drop < 0.0);
                break;
            }
            if (!ok)
                fail(file, line, fmt::format("{} of block {}: {} is not {}", kBlockColumns[c], b, excerpt(values[b]),
                                             c == 0 ? "a count" : c == 3 ? "a number" : "a number >= 0"));
        }
    }
    return {seed, std::move(prefix)};
}

} // namespace

const agent::DecisionFeatures* TableFeatures::at(const std::vector<int>& prefix, std::uint64_t seed) const
{
    const auto it = nodes_.find({seed, prefix});
    return it == nodes_.end() ? nullptr : &it->second;
}

void TableFeatures::add(std::uint64_t seed, std::vector<int> prefix, agent::DecisionFeatures features)
{
    const auto it = nodes_.find({seed, prefix});
    if (it == nodes_.end()) {
        nodes_.emplace(std::pair{seed, std::move(prefix)}, std::move(features));
        return;
    }
    // Compared as written: the same bits, NaN included, are the same features.
    if (features_line(seed, prefix, it->second) != features_line(seed, prefix, features))
        throw Error(fmt::format("decision features at node [{}] of seed {} differ between two builds of it",
                                fmt::join(prefix, " "), seed));
}

std::vector<std::uint64_t> TableFeatures::seeds() const
{
    std::vector<std::uint64_t> out;
    for (const auto& [key, f] : nodes_)
        if (out.empty() || out.back() != key.first)
            out.push_back(key.first); // the map is ordered by seed first
    return out;
}

fs::path features_file_for(const fs::path& folder_or_csv)
{
    std::error_code ec;
    if (fs::is_directory(folder_or_csv, ec))
        return folder_or_csv / "features.csv";
    if (folder_or_csv.filename() == "table.csv")
        return folder_or_csv.parent_path() / "features.csv";
    // X.csv beside other tables in one folder: X.features.csv, its own.
    return folder_or_csv.parent_path() / (folder_or_csv.stem().string() + ".features.csv");
}

std::string features_header() { return std::string(kHeader); }

std::string features_line(std::uint64_t seed, const std::vector<int>& prefix, const agent::DecisionFeatures& f)
{
    return fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", seed, fmt::join(prefix, " "), real(f.train_loss),
        real(f.train_loss_slope), real(f.test_accuracy), real(f.test_accuracy_change), real(f.epoch),
        real(f.time_left), real(f.time_budget),
        block_column(f, [](const agent::BlockFeatures& b) { return std::to_string(b.parameters); }),
        block_column(f, [](const agent::BlockFeatures& b) { return real(b.weight_norm); }),
        block_column(f, [](const agent::BlockFeatures& b) { return real(b.grad_sq_mean); }),
        block_column(f, [](const agent::BlockFeatures& b) { return real(b.activation_mean); }),
        block_column(f, [](const agent::BlockFeatures& b) { return real(b.activation_var); }),
        block_column(f, [](const agent::BlockFeatures& b) { return real(b.loss_drop); }));
}

TableFeatures load_table_features(const fs::path& file, int decisions, int blocks)
{
    TableFeatures out;
    std::error_code ec;
    if (!fs::exists(file, ec))
        return out;
    if (decisions < 1 || blocks < 1)
        throw Error(fmt::format("{}: features of a table of {} decisions over {} blocks", file.string(), decisions,
                                blocks));
    const std::string text = read_text_file(file, kMaxFeaturesBytes);
    // Whole lines only: a build killed mid-write leaves its last line without its end.
    const auto whole = text.rfind('\n');
    if (whole == std::string::npos)
        return out; // not even the header is whole: a build killed before its first node
    const auto lines = split(std::string_view(text).substr(0, whole), '\n');
    const auto strip = [](std::string_view l) { return !l.empty() && l.back() == '\r' ? l.substr(0, l.size() - 1) : l; };
    if (strip(lines.front()) != kHeader)
        fail(file, 1, fmt::format("not a features file of this version: the header is {}", excerpt(lines.front())));
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto line = strip(lines[i]);
        if (line.empty())
            continue;
        agent::DecisionFeatures f;
        auto [seed, prefix] = parse_line(line, decisions, blocks, file, i + 1, f);
        try {
            out.add(seed, std::move(prefix), std::move(f));
        } catch (const Error& e) {
            fail(file, i + 1, e.what());
        }
    }
    return out;
}

void save_table_features(const fs::path& file, const TableFeatures& features)
{
    std::string text = features_header() + '\n';
    for (const auto& [key, f] : features.nodes())
        text += features_line(key.first, key.second, f) + '\n';
    write_text_atomically(file, text);
}

} // namespace rlda::core::sim
