// Memory estimates of models from their specs, checked against physical memory.
#include "core/model/footprint.h"

#include "core/util/checked.h"
#include "core/util/memory.h"

#include <fmt/format.h>

namespace rlda::core::model {
namespace {

constexpr std::uint64_t kFloatBytes = 4;

std::uint64_t elements(const Shape& shape)
{
    std::uint64_t n = 1;
    for (const std::int64_t d : shape)
        n = checked::saturating_mul(n, static_cast<std::uint64_t>(d));
    return n;
}

std::string model_at(const ModelSpec& spec)
{
    return fmt::format("{} at {}", spec.name, shape_string(spec.input));
}

} // namespace

std::uint64_t parameter_bytes(const ModelSpec& spec)
{
    std::uint64_t n = 0;
    const auto count = [&n](const std::vector<Layer>& layers) {
        for (const Layer& l : layers) {
            n = checked::saturating_add(n, static_cast<std::uint64_t>(parameter_count(l)));
            if (const auto* b = std::get_if<BatchNorm2d>(&l)) // running mean and variance
                n = checked::saturating_add(
                    n,
                    checked::saturating_mul(std::uint64_t{2}, static_cast<std::uint64_t>(b->num_features)));
        }
    };
    for (const UnitRef& u : units(spec)) {
        count(u.node->layers);
        count(u.node->skip);
    }
    return checked::saturating_mul(n, kFloatBytes);
}

std::uint64_t forward_bytes(const ModelSpec& spec, std::int64_t batch)
{
    // Shapes as infer_output_shape() walks them; a spec that does not fit throws there first.
    Shape shape = spec.input;
    std::uint64_t per_sample = elements(shape);
    for (const UnitRef& u : units(spec)) {
        Shape skipped = shape; // a skip path keeps its outputs for backward too
        for (const Layer& l : u.node->skip) {
            skipped = output_shape(l, skipped);
            per_sample = checked::saturating_add(per_sample, elements(skipped));
        }
        for (const Layer& l : u.node->layers) {
            shape = output_shape(l, shape);
            per_sample = checked::saturating_add(per_sample, elements(shape));
        }
    }
    const auto samples = static_cast<std::uint64_t>(batch > 0 ? batch : 0);
    return checked::saturating_mul(checked::saturating_mul(per_sample, samples), kFloatBytes);
}

void check_parameters_fit(const ModelSpec& spec)
{
    const std::int64_t count = summarize(spec).parameters;
    check_fits(fmt::format("{}: a model of {} parameters", model_at(spec), count), parameter_bytes(spec));
}

void check_forward_fits(const ModelSpec& spec, std::int64_t batch, const std::string& context)
{
    check_fits(fmt::format("{}{}: a forward of {} sample{}", context.empty() ? "" : context + ": ",
                           model_at(spec), batch, batch == 1 ? "" : "s"),
               forward_bytes(spec, batch));
}

} // namespace rlda::core::model
