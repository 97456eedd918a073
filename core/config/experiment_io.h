// Experiment files: reading (ours and the original tool's schema), writing, --set overrides.
#pragma once

#include "core/config/experiment.h"
#include "core/config/schema.h"
#include "core/config/validate.h"

#include <filesystem>
#include <string>
#include <vector>

namespace rlda::core::config {

// Reads and validates an experiment file. Missing keys keep the struct defaults; relative model,
// policy, table and data paths that exist next to the file are made relative to its folder.
// Throws ConfigError "file:line:col: section.key: reason" (one line) for a syntax error, an
// unknown section or key, a wrong type or a bad value. Keys of the original schema that have no
// meaning here end up in `warnings` instead. The keys, their types and per-key checks are
// `schema`'s (core/config/schema.h).
ExperimentConfig load_experiment(const std::string& path, const Schema& schema = experiment_schema());

// Same, from text; `source` names it in messages and its folder anchors relative paths.
ExperimentConfig parse_experiment(const std::string& text, const std::string& source,
                                  const Schema& schema = experiment_schema());

// Our schema, every key of `schema` written (defaults too), commented with its help;
// parse_experiment() of the result gives the same settings back, doubles bit for bit.
std::string to_toml(const ExperimentConfig& c, const Schema& schema = experiment_schema());

// to_toml() of `c` as written into `file`: each relative path (every Path key but a suggestion such
// as a zoo model's name) made relative to `file`'s folder, which is how the reader anchors it, so
// that the file reads the same from any working directory (a run folder re-run from elsewhere).
// Absolute paths stay absolute.
std::string to_toml_at(const ExperimentConfig& c, const std::filesystem::path& file,
                       const Schema& schema = experiment_schema());

// `c` with each relative path made absolute (against the working directory): two configs read from
// files in different folders compare equal when they name the same files.
ExperimentConfig with_absolute_paths(const ExperimentConfig& c, const Schema& schema = experiment_schema());

// Applies "section.key=value" (value in TOML syntax: `dataset.kind="synthetic"`,
// `scheduler.budget=60`, `agent.sequence=[0,1]`, `name="run"`) with the file reader's checks.
// Leaves `c` unchanged and throws ConfigError "--set ASSIGNMENT: section.key: reason" on error.
void apply_override(ExperimentConfig& c, const std::string& assignment, const Schema& schema = experiment_schema());

// Applies every assignment (later ones win where two set the same key), then validates once, so
// their order never matters: `agent.kind="policy"` before `agent.policy=P` is as good as after.
// A value of the wrong type or a bad key fails at its own assignment; a value that only the
// checks of the whole config reject (a range, a missing policy file) names the assignment that
// set the key at fault, or the one it depends on. Leaves `c` unchanged on error; throws
// ConfigError "--set ASSIGNMENT: section.key: reason".
void apply_overrides(ExperimentConfig& c, const std::vector<std::string>& assignments,
                     const Schema& schema = experiment_schema());

// Equal settings: `source` and `warnings` are not compared.
bool same_settings(const ExperimentConfig& a, const ExperimentConfig& b);

} // namespace rlda::core::config
