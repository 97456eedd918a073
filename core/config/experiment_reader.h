// Internal to experiment_reader.cpp and experiment_overrides.cpp, nothing else: the reader of one
// TOML text (a file, or one --set) into an ExperimentConfig, every key read as the schema declares
// it and every message pointing at the position at fault. Not part of core's API.
#pragma once

#include "core/config/experiment.h"
#include "core/config/schema.h"
#include "core/config/validate.h"

#include <toml++/toml.h>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rlda::core::config::detail {

// A key as written: its value and its dotted name in the file's own spelling.
struct Field {
    const toml::node& node;
    std::string name;
};

// Where a setting was written, so that a bad value found later can still be pointed at.
struct Spot {
    std::string name;
    toml::source_region at;
};

class Reader {
public:
    // `assignment` non-empty: reading a --set, whose text has no useful positions.
    Reader(const Schema& schema, std::string source, std::string assignment, std::filesystem::path base);

    // Warnings in file order (sections are visited in key order).
    std::vector<std::string> take_warnings();

    void read(const toml::table& root, ExperimentConfig& c);

    // Paths written relative to the config file mean "next to it" when such a file exists there.
    void resolve_paths(ExperimentConfig& c) const;

    // Reports the first bad value in file order; values this text did not set come after.
    void check(const ExperimentConfig& c) const;

    // How closely this text set what `p` is about: 3 the key itself, 2 the setting it depends
    // on, 1 an enclosing key or section, 0 not at all.
    int closeness(const Problem& p) const;

    // Throws `p` as this text's error, at the position of what it set.
    [[noreturn]] void blame(const Problem& p) const;

    // A value the config cannot hold (a choice's unknown name) is this text's own error.
    void fail_pending() const;

private:
    const Schema* schema_;
    std::vector<Problem> pending_; // values refused while reading, reported with the checks in file order
    std::string source_;
    std::string assignment_;
    std::filesystem::path base_;
    std::map<std::string, Spot> spots_; // canonical key -> where this text set it
    std::vector<std::pair<toml::source_position, std::string>> warnings_;

    std::string prefix(const toml::source_region& at) const;
    [[noreturn]] void fail(const toml::source_region& at, const std::string& key,
                           const std::string& why) const;
    [[noreturn]] void fail(const toml::node& at, const std::string& key, const std::string& why) const;
    [[noreturn]] void fail_type(const toml::node& n, const std::string& key, std::string_view expected) const;
    void warn(const Field& f, std::string_view why);

    // The exact key, else the setting it depends on, else the nearest enclosing key or section.
    const Spot* spot_for(const Problem& p) const;

    // Records where `canonical` was set; two spellings of one setting (budget and running_time)
    // would silently shadow each other, so the later one is an error.
    void claim(const Field& f, const std::string& canonical);

    // --- typed values --------------------------------------------------------------------------

    std::string text(const Field& f, const std::string& canonical);
    template <class T> T as_integer(const toml::node& n, const std::string& name) const;
    template <class T> T integer(const Field& f, const std::string& canonical);
    double as_number(const toml::node& n, const std::string& name) const;
    double number(const Field& f, const std::string& canonical);
    bool flag(const Field& f, const std::string& canonical);
    template <class T> std::vector<T> integers(const Field& f, const std::string& canonical);

    // An integer N is the original's GPU index; strings are checked with the other values.
    std::string device(const Field& f, const std::string& canonical);

    std::vector<AllocationEventConfig> events(const Field& f, const std::string& canonical);
    AllocationEventConfig event(const toml::table& t, const std::string& name, const std::string& key);

    // --- sections ------------------------------------------------------------------------------

    void section(const toml::table& t, const std::string& name, ExperimentConfig& c);

    // "; NOTE: set KEY" for a word of another tool's settings (Schema::hints), else "".
    std::string hint_text(std::string_view word) const;

    // The key that `section`.`name`, which names none, most likely meant (nearest_name.h): one of
    // its own section, else one of another section whose name is the same or one letter away
    // (job.budget is scheduler.budget; sweep.nodes is not job.model); "" when none is that near.
    std::string nearest_key(const std::string& section, const std::string& name) const;

    // Reads `f` as `k`, into the setting `k` names; `canonical` is where it is recorded.
    void read_key(const Key& k, const Field& f, ExperimentConfig& c, const std::string& canonical);
    void read_alias(const Alias& a, const Field& f, ExperimentConfig& c);
    std::vector<std::string> texts(const Field& f, const std::string& canonical);
};

} // namespace rlda::core::config::detail
