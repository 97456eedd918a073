// The wording of the model field limits, and the check of a model's input and classes.
#include "core/model/limits.h"

#include "core/util/error.h"

#include <fmt/format.h>

#include <stdexcept>

namespace rlda::core::model {

std::string FieldLimit::text() const
{
    if (integer)
        return fmt::format("a whole number from {} to {}", static_cast<std::int64_t>(min),
                           static_cast<std::int64_t>(max));
    if (min_open)
        return fmt::format("a number above {}, at most {}", min, max);
    return fmt::format("a number from {} to {}", min, max);
}

const FieldLimit& field_limit(std::string_view field)
{
    for (const FieldLimit& l : kFieldLimits)
        if (l.field == field)
            return l;
    throw std::logic_error(fmt::format("no limit declared for the model field \"{}\"", field));
}

void check_input_and_classes(const std::string& name, const Shape& input, std::int64_t classes)
{
    const FieldLimit& dim = field_limit("input");
    if (input.size() != 1 && input.size() != 3)
        throw ModelError(fmt::format("{}: input {}: expected CxHxW or one N", name, shape_string(input)));
    for (const std::int64_t d : input)
        if (!dim.contains(static_cast<double>(d)))
            throw ModelError(fmt::format("{}: input {}: each dimension must be {}, got {}", name,
                                         shape_string(input), dim.text(), d));
    const FieldLimit& c = field_limit("classes");
    if (!c.contains(static_cast<double>(classes)))
        throw ModelError(fmt::format("{}: classes: must be {}, got {}", name, c.text(), classes));
}

} // namespace rlda::core::model
