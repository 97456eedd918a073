// TOML model files: parsing with positions, shape inference while reading, strict keys.
#include "core/model/toml_model.h"

#include "core/model/limits.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/nearest_name.h"
#include "core/util/toml_parse.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>

namespace rlda::core::model {
namespace {

class Reader {
public:
    Reader(std::string source, Shape input, std::int64_t classes)
        : source_(std::move(source)), shape_(std::move(input)), classes_(classes)
    {
    }

    [[noreturn]] void fail(const toml::source_region& at, const std::string& key, const std::string& why) const
    {
        throw ConfigError(fmt::format("{}:{}:{}: {}: {}", source_, at.begin.line, at.begin.column, key, why));
    }
    [[noreturn]] void fail(const toml::node& at, const std::string& key, const std::string& why) const
    {
        fail(at.source(), key, why);
    }

    void only_keys(const toml::table& t, const std::string& where, const std::set<std::string>& allowed) const
    {
        for (const auto& [k, v] : t)
            if (!allowed.contains(std::string(k.str()))) {
                const std::string near = nearest_name(k.str(), {allowed.begin(), allowed.end()});
                fail(k.source(), (where.empty() ? "" : where + ".") + std::string(k.str()),
                     near.empty() ? std::string("unknown key") : fmt::format("unknown key; did you mean {}?", near));
            }
    }

    // A whole number within its limit in the table of core/model/limits.h.
    std::optional<std::int64_t> integer(const toml::table& t, const std::string& where,
                                        const std::string& key) const
    {
        const toml::node* n = t.get(key);
        if (!n)
            return std::nullopt;
        const FieldLimit& limit = field_limit(key);
        const auto* v = n->as_integer();
        if (!v)
            fail(*n, where + "." + key,
                 fmt::format("expected an integer, {}, got {}", limit.text(), shown(*n)));
        if (!limit.contains(static_cast<double>(v->get())))
            fail(*n, where + "." + key, fmt::format("must be {}, got {}", limit.text(), shown(*n)));
        return v->get();
    }

    // A real number within its limit; an integer is taken as its value even where a double
    // cannot hold it exactly (toml++ would give none), so that 2^63-1 is refused as too large.
    std::optional<double> number(const toml::table& t, const std::string& where,
                                 const std::string& key) const
    {
        const toml::node* n = t.get(key);
        if (!n)
            return std::nullopt;
        const FieldLimit& limit = field_limit(key);
        std::optional<double> v;
        if (const auto* i = n->as_integer())
            v = static_cast<double>(i->get());
        else if (const auto* f = n->as_floating_point())
            v = f->get();
        if (!v)
            fail(*n, where + "." + key,
                 fmt::format("expected a number, {}, got {}", limit.text(), shown(*n)));
        if (!limit.contains(*v)) // NaN and the infinities included
            fail(*n, where + "." + key, fmt::format("must be {}, got {}", limit.text(), shown(*n)));
        return v;
    }

    // A value as the file wrote it, for messages.
    static std::string shown(const toml::node& n)
    {
        std::ostringstream out;
        n.visit([&](const auto& v) {
            if constexpr (toml::is_table<decltype(v)> || toml::is_array<decltype(v)>)
                out << (toml::is_table<decltype(v)> ? "a table" : "an array");
            else
                out << v;
        });
        return out.str();
    }

    std::optional<bool> boolean(const toml::table& t, const std::string& where, const std::string& key) const
    {
        const toml::node* n = t.get(key);
        if (!n)
            return std::nullopt;
        if (!n->is_boolean())
            fail(*n, where + "." + key, "expected true or false");
        return n->value<bool>().value();
    }

    // Checks an optional explicit input size against the inferred one.
    void check_in(const toml::table& t, const std::string& where, const std::string& key,
                  std::int64_t inferred) const
    {
        if (auto v = integer(t, where, key); v && *v != inferred)
            fail(*t.get(key), where + "." + key,
                 fmt::format("is {} but the input to this layer has {}", *v, inferred));
    }

    Layer layer(const toml::table& t, const std::string& where)
    {
        const toml::node* type_node = t.get("type");
        if (!type_node || !type_node->is_string())
            fail(t, where + ".type", "expected a layer type string such as \"Conv2d\"");
        std::string type = type_node->value<std::string>().value();
        std::string lower = type;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        const bool image = shape_.size() == 3;
        const auto need_image = [&] {
            if (!image)
                fail(t, where, fmt::format("{} needs an image input, but the input here is {}", type,
                                           shape_string(shape_)));
        };
        Layer out;
        if (lower == "conv2d") {
            only_keys(t, where, {"type", "in_channels", "out_channels", "kernel_size", "stride", "padding", "bias"});
            need_image();
            check_in(t, where, "in_channels", shape_[0]);
            Conv2d c;
            c.in_channels = shape_[0];
            const auto oc = integer(t, where, "out_channels");
            if (!oc)
                fail(t, where + ".out_channels", "missing");
            c.out_channels = *oc;
            c.kernel_size = integer(t, where, "kernel_size").value_or(3);
            c.stride = integer(t, where, "stride").value_or(1);
            c.padding = integer(t, where, "padding").value_or(0);
            c.bias = boolean(t, where, "bias").value_or(true);
            out = c;
        } else if (lower == "batchnorm2d") {
            only_keys(t, where, {"type", "num_features", "eps", "momentum"});
            need_image();
            check_in(t, where, "num_features", shape_[0]);
            BatchNorm2d b;
            b.num_features = shape_[0];
            b.eps = number(t, where, "eps").value_or(1e-5);
            b.momentum = number(t, where, "momentum").value_or(0.1);
            out = b;
        } else if (lower == "relu" || lower == "tanh" || lower == "sigmoid" || lower == "flatten") {
            only_keys(t, where, {"type"});
            if (lower == "relu")
                out = ReLU{};
            else if (lower == "tanh")
                out = Tanh{};
            else if (lower == "sigmoid")
                out = Sigmoid{};
            else
                out = Flatten{};
        } else if (lower == "avgpool2d") {
            only_keys(t, where, {"type", "kernel_size", "stride", "padding"});
            AvgPool2d p;
            p.kernel_size = integer(t, where, "kernel_size").value_or(2);
            p.stride = integer(t, where, "stride").value_or(0);
            p.padding = integer(t, where, "padding").value_or(0);
            out = p;
        } else if (lower == "adaptiveavgpool2d") {
            only_keys(t, where, {"type", "output_size"});
            const auto s = integer(t, where, "output_size").value_or(1);
            out = AdaptiveAvgPool2d{s, s};
        } else if (lower == "linear") {
            only_keys(t, where, {"type", "in_features", "out_features", "bias"});
            if (shape_.size() != 1)
                fail(t, where, fmt::format("Linear needs flat features, but the input here is {}; "
                                           "add {{ type = \"Flatten\" }} before it",
                                           shape_string(shape_)));
            if (const FieldLimit& in = field_limit("in_features");
                !in.contains(static_cast<double>(shape_[0])))
                fail(t, where,
                     fmt::format("the input to this Linear has {} features; in_features must be {}",
                                 shape_[0], in.text()));
            check_in(t, where, "in_features", shape_[0]);
            Linear l;
            l.in_features = shape_[0];
            const toml::node* of = t.get("out_features");
            if (!of)
                fail(t, where + ".out_features", "missing");
            if (of->is_string() && of->value<std::string>() == "classes")
                l.out_features = classes_;
            else if (of->is_integer())
                l.out_features = integer(t, where, "out_features").value_or(0);
            else
                fail(*of, where + ".out_features",
                     fmt::format("expected {} or \"classes\"", field_limit("out_features").text()));
            l.bias = boolean(t, where, "bias").value_or(true);
            out = l;
        } else {
            fail(*type_node, where + ".type",
                 fmt::format("unknown layer type \"{}\" (known: Conv2d, BatchNorm2d, ReLU, Tanh, "
                             "Sigmoid, AvgPool2d, AdaptiveAvgPool2d, Flatten, Linear)",
                             type));
        }
        try {
            shape_ = output_shape(out, shape_);
        } catch (const ModelError& e) {
            fail(t, where, e.what());
        }
        return out;
    }

    std::vector<Layer> layer_list(const toml::node& n, const std::string& where)
    {
        const toml::array* arr = n.as_array();
        if (!arr)
            fail(n, where, "expected an array of layers");
        std::vector<Layer> layers;
        for (std::size_t i = 0; i < arr->size(); ++i) {
            const toml::table* lt = (*arr)[i].as_table();
            if (!lt)
                fail((*arr)[i], fmt::format("{}[{}]", where, i), "expected a layer table");
            layers.push_back(layer(*lt, fmt::format("{}[{}]", where, i)));
        }
        return layers;
    }

    // { residual = [branch], skip = [projection], after = [layers after the sum] }: skip and after
    // are optional (the identity, nothing).
    Node residual(const toml::table& t, const std::string& where)
    {
        only_keys(t, where, {"residual", "skip", "after"});
        const toml::node& b = *t.get("residual");
        if (const toml::array* arr = b.as_array(); !arr || arr->empty())
            fail(b, where + ".residual", "expected a non-empty array of layers");
        const Shape in = shape_;
        std::vector<Layer> branch = layer_list(b, where + ".residual");
        const Shape out = shape_;
        std::vector<Layer> skip;
        if (const toml::node* s = t.get("skip")) {
            shape_ = in;
            skip = layer_list(*s, where + ".skip");
            if (shape_ != out)
                fail(*s, where + ".skip",
                     fmt::format("the skip path gives {} but the branch {}; they must match to be added",
                                 shape_string(shape_), shape_string(out)));
        } else if (in != out) {
            fail(b, where + ".residual",
                 fmt::format("the branch turns {} into {}, so the identity skip cannot be added to it; give a "
                             "projection such as skip = [ {{ type = \"Conv2d\", out_channels = {}, kernel_size = 1, "
                             "stride = ... }}, {{ type = \"BatchNorm2d\" }} ]",
                             shape_string(in), shape_string(out), out.empty() ? 0 : out[0]));
        }
        std::vector<Layer> after;
        if (const toml::node* a = t.get("after"))
            after = layer_list(*a, where + ".after");
        return Node::residual_block(std::move(branch), std::move(skip), std::move(after));
    }

    Node entry(const toml::node& n, const std::string& where)
    {
        const toml::table* t = n.as_table();
        if (!t)
            fail(n, where, "expected a table with `type`, `block`, `residual` or `sequence`");
        const int kinds = (t->contains("type") ? 1 : 0) + (t->contains("block") ? 1 : 0) +
                          (t->contains("residual") ? 1 : 0) + (t->contains("sequence") ? 1 : 0);
        if (kinds != 1)
            fail(n, where, "expected exactly one of `type`, `block`, `residual` or `sequence`");
        if (t->contains("type"))
            return Node::layer(layer(*t, where));
        if (t->contains("residual"))
            return residual(*t, where);
        if (const toml::node* b = t->get("block")) {
            only_keys(*t, where, {"block"});
            const toml::array* arr = b->as_array();
            if (!arr || arr->empty())
                fail(*b, where + ".block", "expected a non-empty array of layers");
            return Node::block(layer_list(*b, where + ".block"));
        }
        const toml::node* s = t->get("sequence");
        only_keys(*t, where, {"sequence"});
        return Node::sequence(entries(*s, where + ".sequence"));
    }

    std::vector<Node> entries(const toml::node& n, const std::string& where)
    {
        const toml::array* arr = n.as_array();
        if (!arr)
            fail(n, where, "expected an array");
        std::vector<Node> out;
        for (std::size_t i = 0; i < arr->size(); ++i)
            out.push_back(entry((*arr)[i], fmt::format("{}[{}]", where, i)));
        return out;
    }

    ModelSpec model(const toml::table& root)
    {
        only_keys(root, "", {"model"});
        const toml::table* m = root["model"].as_table();
        if (!m)
            fail(root, "model", "missing [model] table");
        only_keys(*m, "model", {"name", "layers"});
        ModelSpec spec;
        spec.input = shape_;
        spec.classes = classes_;
        const toml::node* name = m->get("name");
        if (!name || !name->is_string())
            fail(*m, "model.name", "expected a name string");
        spec.name = name->value<std::string>().value();
        if (first_control_character(spec.name) >= 0)
            fail(*name, "model.name", "holds a control character; names hold none");
        const toml::node* layers = m->get("layers");
        if (!layers)
            fail(*m, "model.layers", "missing");
        spec.root = Node::sequence(entries(*layers, "model.layers"));
        if (shape_.size() != 1 || shape_[0] != classes_)
            fail(*layers, "model.layers",
                 fmt::format("the model ends with shape {}, expected {} classes", shape_string(shape_), classes_));
        try {
            finalize(spec);
        } catch (const ModelError& e) {
            fail(*layers, "model.layers", e.what());
        }
        return spec;
    }

private:
    std::string source_;
    Shape shape_;
    std::int64_t classes_;
};

} // namespace

ModelSpec parse_toml_model(const std::string& text, const std::string& source, const Shape& input,
                           std::int64_t classes)
{
    check_input_and_classes(source, input, classes);
    const toml::table root = parse_toml(text, source);
    return Reader(source, input, classes).model(root);
}

ModelSpec load_toml_model(const std::string& path, const Shape& input, std::int64_t classes)
{
    return parse_toml_model(read_toml_file(path), path, input, classes);
}

} // namespace rlda::core::model
