// Checks on experiment values that hold however a config was made: file, --set, GUI or code.
#pragma once

#include "core/config/experiment.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::config {

// One bad value. `key` is the setting at fault in our schema's spelling ("job.lr",
// "scheduler.events[1].time"); when it depends on another setting that a user more likely wrote
// (a missing policy file for agent.kind "policy"), `related` names that one, for positions.
struct Problem {
    std::string key;
    std::string reason;
    std::string related;
    bool operator==(const Problem&) const = default;
};

class Schema;

// Every problem, in the order of the keys (core/config/schema.h); empty for a valid config. A form
// can mark all of them at once. The per-key checks come from `schema`'s declarations; the rules
// across keys (an event inside the budget, a fixed sequence against the model) are code.
std::vector<Problem> find_problems(const ExperimentConfig& c);
std::vector<Problem> find_problems(const ExperimentConfig& c, const Schema& schema);

// Throws ConfigError "section.key: reason" for the first problem (configs built in code).
void validate(const ExperimentConfig& c);

// "cpu", "cuda" or "cuda:N".
bool is_device_name(std::string_view device);

// A name that makes one folder inside the runs folder (runs/<name>-<date>, runs/<name>-table): not
// empty, no '/', not "." or "..", no NUL or line break (the name is printed on lines), at most
// kMaxRunNameBytes bytes. A name like "../../x" would write outside it.
bool is_run_name(std::string_view name);
inline constexpr std::size_t kMaxRunNameBytes = 200;

} // namespace rlda::core::config
