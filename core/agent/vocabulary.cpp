// Vocabulary building: the zoo and every architecture its deepenings reach.
#include "core/agent/vocabulary.h"

#include "core/model/zoo.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <functional>

namespace rlda::core::agent {

Vocabulary::Vocabulary() : Vocabulary(std::vector<std::string>{"<unk>"}) {}

Vocabulary::Vocabulary(const std::vector<std::string>& words)
{
    if (words.empty() || words.front() != "<unk>")
        throw Error("vocabulary: the first word must be <unk>");
    for (const auto& w : words)
        if (ids_.count(w))
            throw Error(fmt::format("vocabulary: \"{}\" appears twice", w));
        else
            add(w);
}

std::int64_t Vocabulary::add(const std::string& layer)
{
    const auto [it, inserted] = ids_.emplace(layer, static_cast<std::int64_t>(words_.size()));
    if (inserted)
        words_.push_back(layer);
    return it->second;
}

std::int64_t Vocabulary::id(const std::string& layer) const
{
    const auto it = ids_.find(layer);
    return it == ids_.end() ? kUnknown : it->second;
}

std::vector<std::int64_t> Vocabulary::encode(const std::vector<std::string>& layers,
                                             std::vector<std::string>* unknown) const
{
    std::vector<std::int64_t> out;
    out.reserve(layers.size());
    for (const auto& l : layers) {
        out.push_back(id(l));
        if (out.back() == kUnknown && unknown)
            unknown->push_back(l);
    }
    return out;
}

Vocabulary Vocabulary::from_models(const std::vector<model::ModelSpec>& models, int depth,
                                   const std::vector<model::Operation>& ops, double widen_factor)
{
    Vocabulary v;
    // Deepenings of different blocks commute in their strings, so a walk over all sequences adds
    // nothing new after the first few; it is cheap anyway (specs, no tensors). Widenings add the
    // wider layers' strings.
    const std::function<void(const model::ModelSpec&, int)> walk = [&](const model::ModelSpec& spec, int left) {
        for (const auto& l : model::summarize(spec).leaf_layers)
            v.add(l);
        if (left == 0)
            return;
        const model::ActionSpace space = model::action_space(spec, ops, widen_factor);
        for (int a = 0; a < space.do_nothing(); ++a) {
            model::ModelSpec next = spec;
            try {
                model::apply_action(next, space, a);
            } catch (const ModelError&) {
                continue; // a block that cannot be deepened adds no layers
            }
            walk(next, left - 1);
        }
    };
    for (const auto& m : models)
        walk(m, depth);
    return v;
}

Vocabulary Vocabulary::for_original_encoder(const model::ModelSpec& model, const model::ActionSpace& actions)
{
    return from_zoo(3, model.input, model.classes, actions.operations(), actions.widen_factor());
}

Vocabulary Vocabulary::from_zoo(int depth, const model::Shape& input, std::int64_t classes,
                                const std::vector<model::Operation>& ops, double widen_factor)
{
    std::vector<model::ModelSpec> models;
    for (const auto& name : model::original_zoo_names()) {
        models.push_back(model::zoo_model(name));
        if (input != model::kCifar10Input || classes != model::kCifar10Classes) {
            try {
                models.push_back(model::zoo_model(name, input, classes));
            } catch (const ModelError&) {
                // a zoo model that cannot take this input contributes its strings at CIFAR-10's input only
            }
        }
    }
    return from_models(models, depth, ops, widen_factor);
}

} // namespace rlda::core::agent
