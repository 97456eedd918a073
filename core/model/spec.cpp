// Model specifications: building, traversal, validation, summaries and shapes (growing one, the
// weight-free half of Deepen and Widen, is growth.cpp).
#include "core/model/spec.h"
#include "core/model/spec_nodes.h"

#include "core/util/checked.h"
#include "core/util/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <limits>

namespace rlda::core::model {
namespace {

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

} // namespace

namespace detail {

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

int max_uid(const Node& node)
{
    int m = node.uid;
    for (const Node& c : node.children)
        m = std::max(m, max_uid(c));
    return m;
}

std::int64_t layers_parameters(const std::vector<Layer>& layers, const std::string& name)
{
    std::int64_t n = 0;
    for (const Layer& l : layers)
        n = add_parameters(n, parameter_count(l), name);
    return n;
}

} // namespace detail

using detail::layers_parameters;
using detail::max_uid;

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
