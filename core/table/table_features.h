// A table's decision features: the training state (core/agent/decision_features.h) at every
// decision node its build visited, keyed by the actions taken before the node, for each seed of a
// replicated table. Stored beside the table as features.csv; its format is declared once, in
// table_features.cpp. A table without the file (the paper's, or one built before features) has none,
// and everything that does not need them works as before.
#pragma once

#include "core/agent/decision_features.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rlda::core::sim {

class TableFeatures {
public:
    // The features at the node reached by `prefix` (fewer actions than the table's decisions) under
    // `seed` (the job's seed for a single-seed table, one of TableMeta::seeds for a replicated one);
    // null when none were recorded there.
    const agent::DecisionFeatures* at(const std::vector<int>& prefix, std::uint64_t seed) const;
    // Records a node. The same node recorded again (another part of a sweep visited it) must carry
    // equal features: Error naming the node otherwise.
    void add(std::uint64_t seed, std::vector<int> prefix, agent::DecisionFeatures features);
    bool empty() const { return nodes_.empty(); }
    std::size_t size() const { return nodes_.size(); }
    // The seeds that have at least one node, ascending.
    std::vector<std::uint64_t> seeds() const;
    // Every node in (seed, prefix) order.
    const std::map<std::pair<std::uint64_t, std::vector<int>>, agent::DecisionFeatures>& nodes() const
    {
        return nodes_;
    }
    bool operator==(const TableFeatures&) const = default;

private:
    std::map<std::pair<std::uint64_t, std::vector<int>>, agent::DecisionFeatures> nodes_;
};

// features.csv in the table's folder (beside its table.csv); `folder_or_csv` as table_file() takes it.
std::filesystem::path features_file_for(const std::filesystem::path& folder_or_csv);

// The file's header line and one node's line (no line end), for appending while a table builds.
std::string features_header();
std::string features_line(std::uint64_t seed, const std::vector<int>& prefix, const agent::DecisionFeatures& f);

// Reads a features file; an absent file is an empty TableFeatures. Error "file:line: reason" for
// anything malformed (a size is checked against `blocks` and `decisions` before it is trusted); a
// last line cut short by a killed build is dropped, as the table's own reader does.
TableFeatures load_table_features(const std::filesystem::path& file, int decisions, int blocks);
// Writes every node atomically (core/util/atomic_file.h).
void save_table_features(const std::filesystem::path& file, const TableFeatures& features);

} // namespace rlda::core::sim
