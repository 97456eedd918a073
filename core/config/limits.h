// Limits on an experiment's values that another reader shares: declared once here, and used by
// the schema (core/config/schema.cpp) and by whichever reader checks the same quantity.
#pragma once

namespace rlda::core::config {

// The longest job in seconds, about 31 years: a scheduler.budget, or a simulation table's total time
// (core/sim/table.cpp), beyond it is a mistyped or corrupt figure rather than a job.
inline constexpr double kMaxBudget = 1e9;

} // namespace rlda::core::config
