// The agent's vocabulary: layer strings (PyTorch notation) to ids, with a reserved unknown id.
// (No LibTorch: the workbench asks it which layers a new policy would read as <unk>.)
#pragma once

#include "core/model/actions.h"
#include "core/model/spec.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace rlda::core::agent {

class Vocabulary {
public:
    static constexpr std::int64_t kUnknown = 0; // "<unk>": a layer the policy never saw

    Vocabulary();
    explicit Vocabulary(const std::vector<std::string>& words); // words[0] must be "<unk>"

    std::int64_t add(const std::string& layer); // the existing id when already there
    // The id of `layer`, kUnknown when absent (the original crashed there instead).
    std::int64_t id(const std::string& layer) const;
    // Ids of `layers`; each unknown layer is also appended to `unknown` when given.
    std::vector<std::int64_t> encode(const std::vector<std::string>& layers,
                                     std::vector<std::string>* unknown = nullptr) const;
    std::size_t size() const { return words_.size(); }
    const std::vector<std::string>& words() const { return words_; }

    // Every leaf layer of `models` and of all their deepenings by up to `depth` actions.
    static Vocabulary from_models(const std::vector<model::ModelSpec>& models, int depth,
                                  const std::vector<model::Operation>& ops = {model::Operation::Deepen},
                                  double widen_factor = 2.0);
    // The zoo at the original's input (model::kCifar10Input, kCifar10Classes) and `input`/`classes` if different,
    // with deepenings up to `depth`: the original's vocab = "models".
    static Vocabulary from_zoo(int depth = 3, const model::Shape& input = model::kCifar10Input,
                               std::int64_t classes = model::kCifar10Classes,
                               const std::vector<model::Operation>& ops = {model::Operation::Deepen},
                               double widen_factor = 2.0);

    // A new policy's vocabulary under the original encoder, for `model` (its input and classes)
    // and `actions`: the zoo's layers and their deepenings by up to 3 actions (from_zoo).
    static Vocabulary for_original_encoder(const model::ModelSpec& model, const model::ActionSpace& actions);

private:
    std::vector<std::string> words_;
    std::unordered_map<std::string, std::int64_t> ids_;
};

} // namespace rlda::core::agent
