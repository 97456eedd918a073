// Limits on an experiment's values that another reader shares: declared once here, and used by
// the schema (core/config/schema_keys.cpp) and by whichever reader checks the same quantity.
#pragma once

namespace rlda::core::config {

// The longest job in seconds, about 31 years: a scheduler.budget, or a simulation table's total time
// (core/table/table.cpp), beyond it is a mistyped or corrupt figure rather than a job.
inline constexpr double kMaxBudget = 1e9;

// The most training steps a run may take: with the virtual clock, scheduler.budget / step_cost of
// them. A step cost so small that the budget needs more (1e-300 s) is a run that never ends.
inline constexpr double kMaxSteps = 1e9;

// The largest magnitude whose square a float32 holds (sqrt(3.4e38) = 1.8e19). Tensors are float32,
// and losses, variances and Adam's moments square what they hold: a setting that scales data,
// logits or steps beyond it (the synthetic noise, a learning rate, a temperature) yields only inf
// and NaN, or fails converting to float.
inline constexpr double kMaxSquarable = 1.8e19;

// The smallest softmax temperature: logits divided by it stay finite in float32 for any logit up to
// kMaxSquarable (1.8e19 / 5.6e-20 = 3.2e38 < 3.4e38). Below it every probability is NaN.
inline constexpr double kMinTemperature = 5.6e-20;

// The most episodes of a learning run or one of its stages (--episodes, --stage, a policy file's
// episode counter): a trillion, some years of learning; beyond it is a mistyped or corrupt figure,
// and the counter could overflow as learning goes on.
inline constexpr long long kMaxEpisodes = 1'000'000'000'000;

// The most LibTorch threads of one sweep task (sweep.threads_per_task): more than any machine's
// cores; LibTorch would otherwise start every thread asked for.
inline constexpr int kMaxThreadsPerTask = 1024;

// The most reruns of a failing sweep part (sweep.max_retries).
inline constexpr int kMaxRetries = 100;

// The most seeds of one replicated simulation table (a [table] replicates key, --seeds, table.json).
inline constexpr int kMaxReplicates = 1000;

} // namespace rlda::core::config
