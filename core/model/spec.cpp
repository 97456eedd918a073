// Model specification traversal, validation, summaries and the pure (weight-free) half of Deepen.
#include "core/model/spec.h"

#include "core/model/limits.h"
#include "core/util/checked.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>

namespace rlda::core::model {
namespace {

// Visits layer and block nodes in execution order with their parent sequence and index in it.
void visit_units(Node& seq, const std::function<bool(Node& parent, std::size_t index)>& fn)
{
    for (std::size_t i = 0; i < seq.children.size(); ++i) {
        Node& child = seq.children[i];
        if (child.kind == NodeKind::Sequence)
            visit_units(child, fn);
        else if (!fn(seq, i))
            return;
    }
}

void collect_units(const Node& seq, std::vector<UnitRef>& out, int& next_original)
{
    for (const Node& child : seq.children) {
        if (child.kind == NodeKind::Sequence) {
            collect_units(child, out, next_original);
        } else {
            const bool original_block = child.kind == NodeKind::Block && child.original;
            out.push_back({&child, original_block ? next_original++ : -1});
        }
    }
}

int max_uid(const Node& node)
{
    int m = node.uid;
    for (const Node& c : node.children)
        m = std::max(m, max_uid(c));
    return m;
}

void assign_uids(Node& node, int& next)
{
    if (node.kind != NodeKind::Sequence && node.uid < 0)
        node.uid = next++;
    for (Node& c : node.children)
        assign_uids(c, next);
}

std::string unit_label(const UnitRef& u, std::size_t position)
{
    if (u.node->kind == NodeKind::Block)
        return u.original_index >= 0 ? fmt::format("block {}", u.original_index)
                                     : fmt::format("added block at position {}", position);
    return fmt::format("layer at position {}", position);
}

// Sums of counts that each fit may not: a model of many wide layers is refused, not wrapped.
std::int64_t add_parameters(std::int64_t a, std::int64_t b, const std::string& name)
{
    if (const auto sum = checked::add(a, b))
        return *sum;
    throw ModelError(
        fmt::format("{}: more than {} parameters", name, std::numeric_limits<std::int64_t>::max()));
}

std::int64_t layers_parameters(const std::vector<Layer>& layers, const std::string& name)
{
    std::int64_t n = 0;
    for (const Layer& l : layers)
        n = add_parameters(n, parameter_count(l), name);
    return n;
}

} // namespace

const std::vector<std::string>& output_head_names()
{
    static const std::vector<std::string> names{"relu", "logits"};
    return names;
}

std::string to_string(OutputHead head)
{
    return head == OutputHead::Logits ? "logits" : "relu";
}

std::optional<OutputHead> parse_output_head(std::string_view text)
{
    if (text == "relu")
        return OutputHead::Relu;
    if (text == "logits")
        return OutputHead::Logits;
    return std::nullopt;
}

Node Node::layer(Layer l)
{
    Node n;
    n.kind = NodeKind::Layer;
    n.layers.push_back(std::move(l));
    return n;
}

Node Node::block(std::vector<Layer> layers, bool original)
{
    Node n;
    n.kind = NodeKind::Block;
    n.layers = std::move(layers);
    n.original = original;
    return n;
}

Node Node::residual_block(std::vector<Layer> branch, std::vector<Layer> skip, std::vector<Layer> after, bool original)
{
    Node n = block(std::move(branch), original);
    n.residual = static_cast<int>(n.layers.size());
    n.layers.insert(n.layers.end(), after.begin(), after.end());
    n.skip = std::move(skip);
    return n;
}

Node Node::sequence(std::vector<Node> children)
{
    Node n;
    n.kind = NodeKind::Sequence;
    n.children = std::move(children);
    return n;
}

std::vector<UnitRef> units(const ModelSpec& spec)
{
    std::vector<UnitRef> out;
    int next_original = 0;
    collect_units(spec.root, out, next_original);
    return out;
}

int original_block_count(const ModelSpec& spec)
{
    int n = 0;
    for (const UnitRef& u : units(spec))
        n += u.original_index >= 0 ? 1 : 0;
    return n;
}

std::vector<std::vector<Shape>> layer_shapes(const ModelSpec& spec)
{
    if (spec.input.empty() || std::any_of(spec.input.begin(), spec.input.end(),
                                          [](std::int64_t d) { return d < 1; }))
        throw ModelError(fmt::format("{}: bad input shape {}", spec.name, shape_string(spec.input)));
    Shape shape = spec.input;
    const auto refs = units(spec);
    std::vector<std::vector<Shape>> out(refs.size());
    for (std::size_t p = 0; p < refs.size(); ++p) {
        try {
            const Node& node = *refs[p].node;
            const Shape in = shape;
            for (const Layer& l : node.layers) {
                shape = output_shape(l, shape);
                out[p].push_back(shape);
            }
            if (node.is_residual()) {
                if (node.residual < 1 || node.residual > static_cast<int>(node.layers.size()))
                    throw ModelError("a residual block needs a branch of at least one layer");
                Shape skipped = in;
                for (const Layer& l : node.skip)
                    skipped = output_shape(l, skipped);
                const Shape& branch = out[p][static_cast<std::size_t>(node.residual - 1)];
                if (skipped != branch)
                    throw ModelError(fmt::format("its skip path gives {} but its branch {}; they must match to be "
                                                 "added (a projection skip such as [Conv2d 1x1, BatchNorm2d] "
                                                 "changes the channels and stride)",
                                                 shape_string(skipped), shape_string(branch)));
            }
        } catch (const ModelError& e) {
            throw ModelError(fmt::format("{}: {}: {}", spec.name, unit_label(refs[p], p), e.what()));
        }
    }
    return out;
}

Shape infer_output_shape(const ModelSpec& spec)
{
    Shape shape = spec.input;
    for (const auto& unit : layer_shapes(spec))
        if (!unit.empty())
            shape = unit.back();
    return shape;
}

void finalize(ModelSpec& spec)
{
    if (spec.root.kind != NodeKind::Sequence)
        throw ModelError(fmt::format("{}: the model root must be a sequence", spec.name));
    for (const UnitRef& u : units(spec)) {
        if (u.node->kind == NodeKind::Layer && u.node->layers.size() != 1)
            throw ModelError(fmt::format("{}: a plain layer node must hold one layer", spec.name));
        if (u.node->kind == NodeKind::Block && u.node->layers.empty())
            throw ModelError(fmt::format("{}: a block must hold at least one layer", spec.name));
    }
    if (units(spec).empty())
        throw ModelError(fmt::format("{}: the model has no layers", spec.name));
    int next = max_uid(spec.root) + 1;
    next = std::max(next, 0);
    assign_uids(spec.root, next);
    const Shape out = infer_output_shape(spec);
    if (out.size() != 1 || out[0] != spec.classes)
        throw ModelError(fmt::format("{}: the output shape is {}, expected {} classes", spec.name,
                                     shape_string(out), spec.classes));
}

ModelSummary summarize(const ModelSpec& spec)
{
    ModelSummary s;
    s.name = spec.name;
    s.input = spec.input;
    s.classes = spec.classes;
    const auto refs = units(spec);
    for (std::size_t p = 0; p < refs.size(); ++p) {
        const Node& n = *refs[p].node;
        BlockSummary b;
        b.position = static_cast<int>(p);
        b.original_index = refs[p].original_index;
        b.is_block = n.kind == NodeKind::Block;
        b.original = n.original;
        b.parameters = add_parameters(layers_parameters(n.layers, spec.name), layers_parameters(n.skip, spec.name),
                                      spec.name);
        b.residual = n.residual;
        for (const Layer& l : n.layers)
            b.layers.push_back(pytorch_string(l));
        for (const Layer& l : n.skip)
            b.skip.push_back(pytorch_string(l));
        // Leaf layers in execution order: a residual block's branch, its skip path, then after the sum.
        const std::size_t branch = n.is_residual() ? static_cast<std::size_t>(n.residual) : n.layers.size();
        for (std::size_t l = 0; l < branch; ++l)
            if (is_module(n.layers[l]))
                s.leaf_layers.push_back(b.layers[l]);
        for (std::size_t l = 0; l < n.skip.size(); ++l)
            if (is_module(n.skip[l]))
                s.leaf_layers.push_back(b.skip[l]);
        for (std::size_t l = branch; l < n.layers.size(); ++l)
            if (is_module(n.layers[l]))
                s.leaf_layers.push_back(b.layers[l]);
        s.parameters = add_parameters(s.parameters, b.parameters, spec.name);
        s.original_blocks += b.original_index >= 0 ? 1 : 0;
        s.units.push_back(std::move(b));
    }
    return s;
}

std::vector<std::vector<Shape>> layer_shapes(const ModelSummary& summary)
{
    // A spec of the same units: its blocks and layers are what the shapes depend on.
    ModelSpec spec;
    spec.name = summary.name;
    spec.input = summary.input;
    spec.classes = summary.classes;
    for (std::size_t p = 0; p < summary.units.size(); ++p) {
        const BlockSummary& u = summary.units[p];
        const auto parsed = [&](const std::vector<std::string>& texts) {
            std::vector<Layer> out;
            for (const std::string& text : texts) {
                const auto layer = parse_pytorch_string(text);
                if (!layer)
                    throw ModelError(fmt::format("{}: unit {}: \"{}\" is not a layer this version knows",
                                                 summary.name, p, text));
                out.push_back(*layer);
            }
            return out;
        };
        std::vector<Layer> layers = parsed(u.layers);
        std::vector<Layer> skip = parsed(u.skip);
        // One node per unit whatever the file held, so that shapes[u] stays unit u's.
        Node node = u.is_block || layers.size() != 1 ? Node::block(std::move(layers), u.original)
                                                     : Node::layer(std::move(layers.front()));
        if (u.residual >= 0 && node.kind == NodeKind::Block) {
            node.residual = std::min(u.residual, static_cast<int>(node.layers.size()));
            node.skip = std::move(skip);
        }
        spec.root.children.push_back(std::move(node));
    }
    return layer_shapes(spec);
}

UnitDiff diff_units(const std::vector<BlockSummary>& a, const std::vector<BlockSummary>& b)
{
    const auto same = [](const BlockSummary& x, const BlockSummary& y) {
        return x.is_block == y.is_block && x.original == y.original && x.original_index == y.original_index &&
               x.layers == y.layers && x.parameters == y.parameters && x.residual == y.residual && x.skip == y.skip;
    };
    // Models have tens of units, so O(n·m) is nothing.
    const std::size_t n = a.size(), k = b.size();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(k + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = k; j-- > 0;)
            lcs[i][j] = same(a[i], b[j]) ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    UnitDiff d;
    std::size_t i = 0, j = 0;
    while (i < n && j < k) {
        if (same(a[i], b[j])) {
            ++i;
            ++j;
        } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
            d.only_a.push_back(i++);
        } else {
            d.only_b.push_back(j++);
        }
    }
    for (; i < n; ++i)
        d.only_a.push_back(i);
    for (; j < k; ++j)
        d.only_b.push_back(j);
    // Original blocks keep their index: one left on both sides is the same block, resized.
    for (auto ia = d.only_a.begin(); ia != d.only_a.end();) {
        const BlockSummary& u = a[*ia];
        const auto jb = std::find_if(d.only_b.begin(), d.only_b.end(), [&](std::size_t q) {
            return u.original_index >= 0 && b[q].original_index == u.original_index && b[q].residual == u.residual &&
                   b[q].layers.size() == u.layers.size();
        });
        if (jb == d.only_b.end()) {
            ++ia;
            continue;
        }
        d.resized.emplace_back(*ia, *jb);
        d.only_b.erase(jb);
        ia = d.only_a.erase(ia);
    }
    return d;
}

int deepened_block_before(const std::vector<BlockSummary>& units, std::size_t position)
{
    for (std::size_t i = std::min(position, units.size()); i-- > 0;)
        if (units[i].is_block && units[i].original)
            return units[i].original_index;
    return -1;
}

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
    for (std::size_t i = static_cast<std::size_t>(block.residual); i < block.layers.size(); ++i) {
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

Shape parse_shape(const std::string& text)
{
    Shape shape;
    std::size_t i = 0;
    bool ok = !text.empty();
    while (ok && i <= text.size()) {
        std::size_t j = text.find_first_of("x,", i);
        if (j == std::string::npos)
            j = text.size();
        std::int64_t v = 0;
        auto [end, ec] = std::from_chars(text.data() + i, text.data() + j, v);
        ok = ec == std::errc{} && end == text.data() + j && v > 0;
        shape.push_back(v);
        i = j + 1;
    }
    if (!ok || (shape.size() != 3 && shape.size() != 1))
        throw ModelError(fmt::format("bad input shape \"{}\": expected CxHxW such as 3x32x32", text));
    return shape;
}

} // namespace rlda::core::model
