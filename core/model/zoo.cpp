// The zoo follows the original system's models, checked row by row against the deepening ground
// truth in tests/fixtures/seed-deepening.csv; FeedForwardNet and FeedForwardNet3 are this project's own.
#include "core/model/zoo.h"

#include "core/model/limits.h"
#include "core/model/toml_model.h"
#include "core/util/checked.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>

namespace rlda::core::model {
namespace {

Node conv_block(std::int64_t in, std::int64_t out, std::int64_t padding = 0)
{
    return Node::block({Conv2d{in, out, 3, 1, padding, true}, BatchNorm2d{out}, ReLU{}});
}

Node linear_block(std::int64_t in, std::int64_t out)
{
    return Node::block({Linear{in, out, true}, ReLU{}});
}

Node avg_pool() { return Node::layer(AvgPool2d{2, 2, 0}); }
Node global_pool() { return Node::layer(AdaptiveAvgPool2d{1, 1}); }
Node flatten() { return Node::layer(Flatten{}); }

// Within the input limits (core/model/limits.h) the product fits; checked all the same.
std::int64_t features(const Shape& s)
{
    std::int64_t n = 1;
    for (auto d : s)
        if (const auto next = checked::mul(n, d))
            n = *next;
        else
            throw ModelError(
                fmt::format("input {}: more features than a 64-bit count holds", shape_string(s)));
    return n;
}

Node build(const std::string& name, const Shape& in, std::int64_t classes)
{
    const std::int64_t c = in.empty() ? 0 : in[0];
    if (name == "ConvNet")
        return Node::sequence({conv_block(c, 32), conv_block(32, 32), avg_pool(), conv_block(32, 32),
                               global_pool(), flatten(), linear_block(32, classes)});
    if (name == "ConvNet2")
        return Node::sequence({conv_block(c, 32), avg_pool(), conv_block(32, 32), global_pool(),
                               flatten(), linear_block(32, classes)});
    if (name == "ConvNet3")
        return Node::sequence({conv_block(c, 64), conv_block(64, 32), global_pool(), flatten(),
                               linear_block(32, classes)});
    if (name == "FeedForwardNet")
        return Node::sequence({flatten(), linear_block(features(in), classes)});
    if (name == "FeedForwardNet2")
        return Node::sequence({flatten(), linear_block(features(in), 32), linear_block(32, classes)});
    if (name == "FeedForwardNet3")
        return Node::sequence({flatten(), linear_block(features(in), 64), linear_block(64, 32),
                               linear_block(32, classes)});
    if (name == "SmallResNet") {
        // A stem and two residual stages (the first halves the size through a projection skip),
        // for 28x28 and 32x32 inputs alike: every block but the head can be deepened and widened.
        const auto conv = [](std::int64_t i, std::int64_t o, std::int64_t stride) {
            return Conv2d{i, o, 3, stride, 1, false};
        };
        Node stage1 = Node::residual_block({conv(16, 32, 2), BatchNorm2d{32}, ReLU{}, conv(32, 32, 1), BatchNorm2d{32}},
                                           {Conv2d{16, 32, 1, 2, 0, false}, BatchNorm2d{32}}, {ReLU{}});
        Node stage2 = Node::residual_block({conv(32, 32, 1), BatchNorm2d{32}, ReLU{}, conv(32, 32, 1), BatchNorm2d{32}},
                                           {}, {ReLU{}});
        return Node::sequence({conv_block(c, 16, 1), std::move(stage1), std::move(stage2), global_pool(), flatten(),
                               linear_block(32, classes)});
    }
    if (name == "LargeConvNet") {
        // Three pairs of conv blocks (the second of each pair padded) and a pair of linear blocks.
        auto pair = [](std::int64_t in_c) {
            return Node::sequence({conv_block(in_c, 32), conv_block(32, 32, 1)});
        };
        return Node::sequence({pair(c), pair(32), avg_pool(), pair(32), global_pool(), flatten(),
                               Node::sequence({linear_block(32, classes), linear_block(classes, classes)})});
    }
    std::string known;
    for (const auto& n : zoo_names())
        known += (known.empty() ? "" : ", ") + n;
    throw ModelError(fmt::format("unknown model \"{}\"; known models: {}", name, known));
}

// The last unit in execution order, or nullptr for an empty sequence.
Node* last_unit(Node& seq)
{
    for (auto it = seq.children.rbegin(); it != seq.children.rend(); ++it) {
        if (it->kind != NodeKind::Sequence)
            return &*it;
        if (Node* inner = last_unit(*it))
            return inner;
    }
    return nullptr;
}

// Every zoo model ends with the block [Linear(.., classes), ReLU]; Logits keeps its Linear only.
void apply_head(Node& root, OutputHead head, const std::string& name)
{
    if (head == OutputHead::Relu)
        return;
    Node* last = last_unit(root);
    if (!last || last->kind != NodeKind::Block || last->layers.size() != 2 ||
        !std::holds_alternative<Linear>(last->layers.front()) || !std::holds_alternative<ReLU>(last->layers.back()))
        throw ModelError(fmt::format("{}: the model does not end with a [Linear, ReLU] block", name));
    last->layers.pop_back();
}

} // namespace

const std::vector<std::string>& zoo_names()
{
    static const std::vector<std::string> names{"ConvNet",         "ConvNet2",        "ConvNet3",
                                                "FeedForwardNet",  "FeedForwardNet2", "FeedForwardNet3",
                                                "LargeConvNet",    "SmallResNet"};
    return names;
}

const std::vector<std::string>& original_zoo_names()
{
    static const std::vector<std::string> names(zoo_names().begin(), zoo_names().begin() + 7);
    return names;
}

bool is_zoo_name(const std::string& name)
{
    const auto& names = zoo_names();
    return std::find(names.begin(), names.end(), name) != names.end();
}

ModelSpec zoo_model(const std::string& name, const Shape& input, std::int64_t classes, OutputHead head)
{
    check_input_and_classes(name, input, classes);
    ModelSpec spec;
    spec.name = name;
    spec.input = input;
    spec.classes = classes;
    spec.root = build(name, input, classes);
    apply_head(spec.root, head, name);
    finalize(spec);
    return spec;
}

bool is_model_file(const std::string& name_or_path)
{
    const bool looks_like_file = name_or_path.ends_with(".toml") ||
                                 name_or_path.find('/') != std::string::npos;
    return !is_zoo_name(name_or_path) && looks_like_file;
}

ModelSpec load_model(const std::string& name_or_path, const Shape& input, std::int64_t classes, OutputHead head)
{
    if (is_model_file(name_or_path)) {
        if (head != OutputHead::Relu)
            throw ModelError(fmt::format("{}: the output head \"{}\" applies to zoo models only; a model "
                                         "file writes its own last block (leave out its ReLU for plain logits)",
                                         name_or_path, to_string(head)));
        return load_toml_model(name_or_path, input, classes);
    }
    return zoo_model(name_or_path, input, classes, head);
}

} // namespace rlda::core::model
