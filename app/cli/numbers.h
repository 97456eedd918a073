// Numbers on the command line, checked as typed: each numeric option declares its range once with
// one of these validators, so that a value out of range, a fraction where a count is due, NaN,
// infinity or a number too large for its type (which CLI11 would cut to the type's limit) is
// refused before it reaches the command, as "--OPTION: VALUE: must be ... (see rlda --help)" with
// exit code 2. An option whose value is text holding numbers (figures --size WIDTHxHEIGHT,
// simulate --part I/N, learn --stage TABLE:EPISODES[:T]), a name from a list (--backend) and two
// options that exclude each other are checked by the command, and a bad one is an ArgumentError:
// "rlda: error: --size '0x0': expected ...", exit code 2 as well.
#pragma once

#include "core/config/value_limits.h"
#include "core/model/limits.h"
#include "core/util/error.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>

namespace rlda::app {

// A command line the command itself found wrong: exit code 2, as for CLI11's own refusals
// (app/cli/main.cpp).
class ArgumentError : public core::Error {
public:
    using core::Error::Error;
};

// The limits the commands share.
inline constexpr std::int64_t kMaxClasses = core::model::kMaxClasses; // a model's limits
inline constexpr std::int64_t kMaxInputDimension = core::model::kMaxInputDimension; // each of C, H and W
inline constexpr std::int64_t kMaxEpisodes = core::config::kMaxEpisodes;
inline constexpr std::int64_t kMaxSeed = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t kMaxWorkers = 65'536;
inline constexpr std::int64_t kMaxWindow = 1'000'000; // rolling means, in episodes

// A whole number from `min` to `max`, in decimal digits with an optional leading '-'.
// "VALUE: must be a whole number from MIN to MAX".
CLI::Validator whole_number(std::int64_t min, std::int64_t max);

// One end of a range of real numbers: the value, and whether the range reaches it.
struct Bound {
    double value;
    bool included = true;
};
inline constexpr Bound kUnbounded{std::numeric_limits<double>::infinity(), false};

// A finite real number between `low` and `high`; NaN and infinities never pass.
// "VALUE: must be a finite number above 0, at most 1" (from/above, to/at most/below).
CLI::Validator real_number(Bound low, Bound high = kUnbounded);

// An input shape CxHxW (or a single N), each dimension a whole number from 1 to kMaxInputDimension.
CLI::Validator input_shape();

} // namespace rlda::app
