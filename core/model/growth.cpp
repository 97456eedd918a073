// Growing a model specification without weights: the spec half of Deepen (identity and zero
// residual blocks) and of Widen, actions applied by number, and growth and action strings.
#include "core/model/spec.h"
#include "core/model/spec_nodes.h"

#include "core/model/limits.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace rlda::core::model {

using detail::layers_parameters;
using detail::max_uid;
using detail::visit_units;

std::vector<Layer> identity_block_for(const Node& block)
{
    if (block.kind != NodeKind::Block || block.layers.empty())
        throw ModelError("deepen: not a block");
    std::vector<Layer> added;
    const Layer& first = block.layers.front();
    if (const auto* c = std::get_if<Conv2d>(&first)) {
        if (c->kernel_size % 2 == 0)
            throw ModelError(fmt::format("deepen: {} has an even kernel size {}; an identity conv "
                                         "needs an odd kernel to keep the spatial size",
                                         pytorch_string(first), c->kernel_size));
        added.emplace_back(Conv2d{c->out_channels, c->out_channels, c->kernel_size, 1,
                                  c->kernel_size / 2, c->bias});
    } else if (const auto* l = std::get_if<Linear>(&first)) {
        // A block without an activation, such as the plain-logits head's last block [Linear],
        // gets an identity Linear alone: logits can be negative, so a ReLU after them would not be
        // the identity, and a block before the head would need non-negative inputs, which a
        // model starting with Flatten does not have. The added Linear is exactly the identity
        // (the function is kept) with as many parameters as under the ReLU head; it adds no
        // capacity by itself, only a second matrix that training can move.
        added.emplace_back(Linear{l->out_features, l->out_features, l->bias});
    } else {
        throw ModelError(fmt::format("deepen: the block starts with {}, which cannot be deepened "
                                     "(only Conv2d and Linear blocks can)",
                                     pytorch_string(first)));
    }
    // Everything after the block's last activation must keep that activation's range (pooling
    // averages non-negative values into non-negative ones), or the repeated activation would clip.
    bool after_activation = false;
    for (std::size_t i = 1; i < block.layers.size(); ++i) {
        const Layer& l = block.layers[i];
        if (const auto* bn = std::get_if<BatchNorm2d>(&l)) {
            if (after_activation)
                throw ModelError(fmt::format("deepen: {} follows the activation; the identity "
                                             "block would not preserve the function",
                                             pytorch_string(l)));
            added.emplace_back(BatchNorm2d{bn->num_features, bn->eps, bn->momentum});
        } else if (is_activation(l)) {
            if (!is_idempotent_activation(l))
                throw ModelError(fmt::format("deepen: activation {} is not idempotent (f(f(x)) != "
                                             "f(x)), so an identity block cannot repeat it",
                                             pytorch_string(l)));
            added.push_back(l);
            after_activation = true;
        } else if (std::holds_alternative<Conv2d>(l) || std::holds_alternative<Linear>(l)) {
            throw ModelError(fmt::format("deepen: the block holds a second weight layer {}; "
                                         "a deepen block has one",
                                         pytorch_string(l)));
        }
        // Pooling keeps its place in the original block only; the identity block keeps the shape.
    }
    return added;
}

Node zero_residual_block_for(const Node& block)
{
    if (!block.is_residual())
        throw ModelError("deepen: not a residual block");
    // The block's output width: its branch's last convolution's (the skip path matches it).
    std::int64_t output = -1;
    for (int i = 0; i < block.residual; ++i)
        if (const auto* c = std::get_if<Conv2d>(&block.layers[static_cast<std::size_t>(i)]))
            output = c->out_channels;
    if (output < 0)
        throw ModelError("deepen: the residual branch has no Conv2d, so a new block would have nothing to learn");
    std::int64_t channels = output;
    std::vector<Layer> branch, after;
    for (int i = 0; i < block.residual; ++i) {
        const Layer& l = block.layers[static_cast<std::size_t>(i)];
        if (const auto* c = std::get_if<Conv2d>(&l)) {
            if (c->kernel_size % 2 == 0)
                throw ModelError(fmt::format("deepen: {} has an even kernel size {}; the new residual block "
                                             "needs odd kernels to keep the spatial size",
                                             pytorch_string(l), c->kernel_size));
            branch.emplace_back(Conv2d{channels, c->out_channels, c->kernel_size, 1, c->kernel_size / 2, c->bias});
            channels = c->out_channels;
        } else if (const auto* bn = std::get_if<BatchNorm2d>(&l)) {
            branch.emplace_back(BatchNorm2d{channels, bn->eps, bn->momentum});
        } else if (is_activation(l)) {
            // The zeroed branch must still add zero after its last activation: f(0) = 0.
            if (std::holds_alternative<Sigmoid>(l))
                throw ModelError(fmt::format("deepen: the residual branch holds {}, which is not 0 at 0, so a new "
                                             "block's branch could not add exactly zero",
                                             pytorch_string(l)));
            branch.push_back(l);
        } else {
            throw ModelError(fmt::format("deepen: the residual branch holds {}, which a new residual block "
                                         "cannot repeat at the same size",
                                         pytorch_string(l)));
        }
    }
    for (auto i = static_cast<std::size_t>(block.residual); i < block.layers.size(); ++i) {
        const Layer& l = block.layers[i];
        if (!is_idempotent_activation(l))
            throw ModelError(fmt::format("deepen: {} runs after the residual sum; a new block can repeat only "
                                         "an idempotent activation there (ReLU)",
                                         pytorch_string(l)));
        after.push_back(l);
    }
    return Node::residual_block(std::move(branch), {}, std::move(after), /*original=*/false);
}

DeepenResult deepen_spec(ModelSpec& spec, int action)
{
    const int n = original_block_count(spec);
    if (action < 0 || action > n)
        throw ModelError(fmt::format("deepen: action {} is out of range for {}: it has {} original "
                                     "blocks (0..{} deepen a block, {} does nothing)",
                                     action, spec.name, n, n - 1, n));
    DeepenResult result;
    result.action = action;
    if (action == n) {
        result.did_nothing = true;
        return result;
    }
    Node* parent = nullptr;
    std::size_t index = 0;
    int seen = -1;
    visit_units(spec.root, [&](Node& p, std::size_t i) {
        const Node& c = p.children[i];
        if (c.kind == NodeKind::Block && c.original && ++seen == action) {
            parent = &p;
            index = i;
            return false;
        }
        return true;
    });
    const Node& deepened = parent->children[index];
    Node added = deepened.is_residual() ? zero_residual_block_for(deepened)
                                        : Node::block(identity_block_for(deepened), /*original=*/false);
    added.uid = max_uid(spec.root) + 1;
    result.uid = added.uid;
    result.layers = added.layers;
    result.added_parameters = layers_parameters(added.layers, spec.name);
    parent->children.insert(parent->children.begin() + static_cast<std::ptrdiff_t>(index) + 1,
                            std::move(added));
    const auto refs = units(spec);
    for (std::size_t p = 0; p < refs.size(); ++p)
        if (refs[p].node->uid == result.uid)
            result.position = static_cast<int>(p);
    return result;
}

namespace {

void collect_mutable(Node& seq, std::vector<Node*>& out)
{
    for (Node& child : seq.children) {
        if (child.kind == NodeKind::Sequence)
            collect_mutable(child, out);
        else
            out.push_back(&child);
    }
}

std::int64_t* output_width(Layer& l)
{
    if (auto* c = std::get_if<Conv2d>(&l))
        return &c->out_channels;
    if (auto* f = std::get_if<Linear>(&l))
        return &f->out_features;
    return nullptr;
}

} // namespace

std::int64_t widened_width(std::int64_t width, double factor)
{
    const double wider = std::round(static_cast<double>(width) * factor);
    if (!(wider < static_cast<double>(std::numeric_limits<std::int64_t>::max())))
        return std::numeric_limits<std::int64_t>::max();
    return std::max(width + 1, static_cast<std::int64_t>(wider));
}

namespace {

WidenResult widen_in_place(ModelSpec& spec, int block, double factor)
{
    const int n = original_block_count(spec);
    if (block < 0 || block >= n)
        throw ModelError(fmt::format("widen: block {} is out of range for {}: it has {} original blocks (0..{} "
                                     "can be widened)",
                                     block, spec.name, n, n - 2));
    if (block == n - 1)
        throw ModelError(fmt::format("widen: block {} is the last block of {}; its outputs are the {} classes, so "
                                     "it cannot be widened",
                                     block, spec.name, spec.classes));
    if (!std::isfinite(factor) || factor <= 1.0)
        throw ModelError(fmt::format("widen: the factor must be above 1, got {}", factor));
    const std::int64_t before_parameters = summarize(spec).parameters;
    const auto shapes = layer_shapes(spec); // of the model before: the flatten sizes
    std::vector<Node*> nodes;
    collect_mutable(spec.root, nodes);
    const auto refs = units(spec);
    std::size_t start = 0;
    while (refs[start].original_index != block)
        ++start;

    WidenResult r;
    r.block = block;
    r.position = static_cast<int>(start);
    Node& target = *nodes[start];
    Layer& first = target.layers.front();
    std::int64_t* width = output_width(first);
    if (!width)
        throw ModelError(fmt::format("widen: the block starts with {}, which cannot be widened (only Conv2d and "
                                     "Linear blocks can)",
                                     pytorch_string(first)));
    r.before = pytorch_string(first);
    r.old_width = *width;
    r.new_width = widened_width(r.old_width, factor);
    const FieldLimit& limit = field_limit(std::holds_alternative<Conv2d>(first) ? "out_channels" : "out_features");
    if (!limit.contains(static_cast<double>(r.new_width)))
        throw ModelError(fmt::format("widen: {} of {} would become {}; it must be {}", limit.field, r.before,
                                     r.new_width, limit.text()));
    *width = r.new_width;
    r.after = pytorch_string(first);
    r.changed.push_back({target.uid, 0, WidenedLayer::Role::Outputs, 1});

    // The layers after it, up to the next weight layer, carry the wider units through. A residual
    // block widens inside its branch, so that what its skip path adds keeps its channels.
    std::int64_t spatial = 1;
    bool reached = false;
    for (std::size_t p = start; p < nodes.size() && !reached; ++p) {
        Node& unit = *nodes[p];
        const std::size_t end = p == start && unit.is_residual() ? static_cast<std::size_t>(unit.residual)
                                                                 : unit.layers.size();
        const auto weight = [](const Layer& l) { return std::holds_alternative<Conv2d>(l) || std::holds_alternative<Linear>(l); };
        if (p == start && unit.is_residual() &&
            std::none_of(unit.layers.begin() + 1, unit.layers.begin() + static_cast<std::ptrdiff_t>(end), weight))
            throw ModelError(fmt::format("widen: block {} is a residual block whose branch has one weight layer; "
                                         "widening it would change the channels its skip path adds to",
                                         block));
        if (p > start && unit.is_residual()) {
            // The widened units reach this block's skip path as well as its branch.
            if (unit.skip.empty())
                throw ModelError(fmt::format("widen: block {} feeds a residual block with an identity skip, which would "
                                             "add its wider output to a narrower branch; give that block a "
                                             "projection skip ([Conv2d 1x1, BatchNorm2d]) to widen block {}",
                                             block, block));
            auto* proj = std::get_if<Conv2d>(&unit.skip.front());
            if (!proj || proj->in_channels != r.old_width)
                throw ModelError(fmt::format("widen: the skip path after block {} starts with {}, not a Conv2d of "
                                             "its {} channels",
                                             block, pytorch_string(unit.skip.front()), r.old_width));
            proj->in_channels = r.new_width;
            r.changed.push_back({unit.uid, 0, WidenedLayer::Role::Inputs, 1, true});
        }
        for (std::size_t l = p == start ? 1 : 0; l < end && !reached; ++l) {
            Layer& layer = unit.layers[l];
            const Shape& in = l > 0 ? shapes[p][l - 1] : shapes[p - 1].back();
            if (auto* bn = std::get_if<BatchNorm2d>(&layer)) {
                bn->num_features = r.new_width;
                r.changed.push_back({unit.uid, l, WidenedLayer::Role::Outputs, 1});
            } else if (std::holds_alternative<Flatten>(layer)) {
                if (in.size() == 3)
                    spatial = in[1] * in[2];
            } else if (auto* c = std::get_if<Conv2d>(&layer)) {
                c->in_channels = r.new_width;
                r.changed.push_back({unit.uid, l, WidenedLayer::Role::Inputs, 1});
                reached = true;
            } else if (auto* f = std::get_if<Linear>(&layer)) {
                if (f->in_features != r.old_width * spatial)
                    throw ModelError(fmt::format("widen: {} after block {} does not take its {} units",
                                                 pytorch_string(layer), block, r.old_width));
                f->in_features = r.new_width * spatial;
                r.changed.push_back({unit.uid, l, WidenedLayer::Role::Inputs, spatial});
                reached = true;
            }
            // Activations and pooling act on each unit alone, so they carry copies as they are.
        }
    }
    if (!reached)
        throw ModelError(fmt::format("widen: no weight layer follows block {} of {}, so nothing takes the new units",
                                     block, spec.name));
    infer_output_shape(spec); // throws naming a unit that no longer fits
    r.added_parameters = summarize(spec).parameters - before_parameters;
    return r;
}

} // namespace

WidenResult widen_spec(ModelSpec& spec, int block, double factor)
{
    ModelSpec wider = spec; // a refused widening leaves the spec as it was
    WidenResult r = widen_in_place(wider, block, factor);
    spec = std::move(wider);
    return r;
}

ActionSpace action_space(const ModelSpec& spec, std::vector<Operation> ops, double widen_factor)
{
    return ActionSpace(original_block_count(spec), std::move(ops), widen_factor);
}

namespace {

// The tokens of "0 2 1", "0, w1": separated by spaces, commas or tabs.
std::vector<std::string> tokens_of(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == ' ' || text[i] == ',' || text[i] == '\t') {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t')
            ++j;
        out.push_back(text.substr(i, j - i));
        i = j;
    }
    return out;
}

// One operation on one original block of the spec.
ActionResult apply_one(ModelSpec& spec, const Action& a, double widen_factor)
{
    ActionResult r;
    r.what = a;
    if (a.op == Operation::Deepen)
        r.deepen = deepen_spec(spec, a.block);
    else
        r.widen = widen_spec(spec, a.block, widen_factor);
    return r;
}

} // namespace

Action action_of(const ModelSpec& spec, const ActionSpace& space, int action)
{
    const int n = original_block_count(spec);
    if (space.blocks() != n)
        throw ModelError(fmt::format("{} has {} original blocks, but the actions are for a model of {}", spec.name,
                                     n, space.blocks()));
    return space.at(action);
}

ActionResult apply_action(ModelSpec& spec, const ActionSpace& space, int action)
{
    const Action what = action_of(spec, space, action);
    ActionResult r;
    if (what.nothing) {
        r.what = what;
        r.deepen.action = space.blocks();
        r.deepen.did_nothing = true;
    } else {
        r = apply_one(spec, what, space.widen_factor());
    }
    r.action = action;
    return r;
}

std::vector<std::string> impossible_actions(const ModelSpec& spec, const ActionSpace& space)
{
    std::vector<std::string> out;
    for (int a = 0; a < space.do_nothing(); ++a) {
        ModelSpec copy = spec;
        try {
            apply_action(copy, space, a);
        } catch (const ModelError& e) {
            std::string why = e.what();
            for (const std::string_view prefix : {"deepen: ", "widen: "})
                if (why.starts_with(prefix))
                    why.erase(0, prefix.size());
            out.push_back(fmt::format("{}: {}", space.label(a), why));
        }
    }
    return out;
}

void check_actions(const ModelSpec& spec, const ActionSpace& space)
{
    const auto impossible = impossible_actions(spec, space);
    if (impossible.empty())
        return;
    const std::string more = impossible.size() > 1
                                 ? fmt::format(" (and {} more action(s) like it)", impossible.size() - 1)
                                 : std::string();
    throw ModelError(
        fmt::format("{} cannot take every action it is allowed: {}{}; change the block, or leave "
                    "its operation out of trainer.operations",
                    spec.name, impossible.front(), more));
}

std::vector<Action> parse_growth(const std::string& text)
{
    std::vector<Action> out;
    for (const std::string& token : tokens_of(text)) {
        Action a{false, Operation::Deepen, 0};
        std::size_t digits = 0;
        if (token[0] == 'w' || token[0] == 'd') {
            a.op = token[0] == 'w' ? Operation::Widen : Operation::Deepen;
            digits = 1;
        }
        auto [end, ec] = std::from_chars(token.data() + digits, token.data() + token.size(), a.block);
        if (digits == token.size() || ec != std::errc{} || end != token.data() + token.size() || a.block < 0)
            throw ModelError(fmt::format("bad step \"{}\" in \"{}\": expected block indices to deepen (\"0\" or "
                                         "\"d0\") or to widen (\"w1\")",
                                         token, text));
        out.push_back(a);
    }
    return out;
}

std::vector<ActionResult> apply_growth(ModelSpec& spec, const std::vector<Action>& growth, double widen_factor)
{
    std::vector<ActionResult> out;
    out.reserve(growth.size());
    for (const Action& a : growth)
        out.push_back(apply_one(spec, a, widen_factor));
    return out;
}

std::vector<int> parse_actions(const std::string& text)
{
    std::vector<int> actions;
    for (const std::string& token : tokens_of(text)) {
        int value = 0;
        auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc{} || end != token.data() + token.size() || value < 0)
            throw ModelError(fmt::format("bad action \"{}\" in \"{}\": expected block indices such "
                                         "as \"0 2 1\"",
                                         token, text));
        actions.push_back(value);
    }
    return actions;
}

} // namespace rlda::core::model
