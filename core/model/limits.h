// The limits of every size a model may declare, written once. The TOML model reader checks each
// field against this table and quotes the limit in its errors; load_model() checks the input shape
// and classes against it; the command line's --input and --classes (app/cli/numbers.h) and the
// experiment schema's dataset.classes (core/config/schema_keys.cpp) take their limits from here.
// The limits are generous for the models this project trains and small enough that no count
// derived from them can overflow a 64-bit integer by itself.
#pragma once

#include "core/model/layer.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace rlda::core::model {

// One field's allowed values: whole numbers from min to max, or real numbers (min open or closed).
struct FieldLimit {
    std::string_view field; // the TOML key; "input" for each input dimension, "classes"
    double min = 0;
    double max = 0;
    bool integer = true;
    bool min_open = false; // reals only: the range excludes min

    bool contains(double v) const { return (min_open ? v > min : v >= min) && v <= max; }
    // "a whole number from 1 to 65536", "a number above 0, at most 1", "a number from 0 to 1".
    std::string text() const;
};

inline constexpr std::int64_t kMaxChannels = 65'536;
inline constexpr std::int64_t kMaxInputDimension = 65'536; // each of C, H and W, or the one N
inline constexpr std::int64_t kMaxClasses = 1'000'000;
inline constexpr std::int64_t kMaxWindow = 1'024; // kernel, stride, padding and pool sizes

// The table: every key a model file may give a number for, and the input and classes.
inline constexpr std::array kFieldLimits{
    FieldLimit{"in_channels", 1, kMaxChannels},
    FieldLimit{"out_channels", 1, kMaxChannels},
    FieldLimit{"num_features", 1, kMaxChannels},
    FieldLimit{"kernel_size", 1, kMaxWindow},
    FieldLimit{"stride", 1, kMaxWindow},
    FieldLimit{"padding", 0, kMaxWindow},
    FieldLimit{"output_size", 1, kMaxWindow},
    // Inferred from the flattened input; a Linear wider than 2^40 inputs could not fit in memory.
    FieldLimit{"in_features", 1, static_cast<double>(std::int64_t{1} << 40)},
    // As wide as the widest head: out_features = "classes" takes up to kMaxClasses.
    FieldLimit{"out_features", 1, kMaxClasses},
    FieldLimit{"eps", 0, 1, false, true},
    FieldLimit{"momentum", 0, 1, false},
    FieldLimit{"input", 1, kMaxInputDimension},
    FieldLimit{"classes", 1, kMaxClasses},
};

// The entry for `field`; a name missing from the table is a programming error (std::logic_error).
const FieldLimit& field_limit(std::string_view field);

// Throws ModelError "NAME: input SHAPE: each dimension must be a whole number from 1 to 65536, got
// N" or "NAME: classes: must be ...", naming `name` (a zoo name or a model file).
void check_input_and_classes(const std::string& name, const Shape& input, std::int64_t classes);

} // namespace rlda::core::model
