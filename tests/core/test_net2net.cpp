// Net2Net deepening on live modules: trained weights kept bit for bit, results described, errors.
#include "core/model/toml_model.h"
#include "core/model/zoo.h"
#include "core/net/net.h"
#include "core/util/error.h"
#include "core/util/error_text.h"
#include "tests/common/model_error.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <torch/nn/functional/loss.h>
#include <torch/nn/modules/container/any.h>

#include <map>
#include <string>

using namespace rlda::core;
using namespace rlda::core::model;

namespace {

std::map<std::string, torch::Tensor> snapshot(const Net& net)
{
    std::map<std::string, torch::Tensor> out;
    for (const auto& p : net->named_parameters())
        out[p.key()] = p.value().detach().clone();
    for (const auto& b : net->named_buffers())
        out[b.key()] = b.value().detach().clone();
    return out;
}

// The output shape of one sample after each layer, in execution order, from a real forward of the
// network LibTorch builds from `spec`.
std::vector<std::string> forward_shapes(const ModelSpec& spec)
{
    torch::manual_seed(0);
    Net net(spec);
    net->eval();
    torch::NoGradGuard no_grad;
    std::vector<std::int64_t> dims{1};
    dims.insert(dims.end(), spec.input.begin(), spec.input.end());
    torch::Tensor x = torch::randn(dims);
    const auto children = net->named_children();
    std::vector<std::string> out;
    for (const auto& u : units(net->spec())) {
        const auto* module = children.find("u" + std::to_string(u.node->uid));
        if (!module)
            return {"no module u" + std::to_string(u.node->uid)};
        auto seq = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(*module);
        for (auto& layer : *seq) {
            x = layer.forward(x);
            out.push_back(shape_string(std::vector<std::int64_t>(x.sizes().begin() + 1, x.sizes().end())));
        }
    }
    return out;
}

// Each layer's output shape as core infers it without LibTorch (layer_shapes, core/model/spec.h):
// what the Models page's graph shows (tests/widgets/inspect/test_model_graph.cpp).
std::vector<std::string> inferred_shapes(const ModelSpec& spec)
{
    std::vector<std::string> out;
    for (const auto& unit : layer_shapes(spec))
        for (const auto& s : unit)
            out.push_back(shape_string(s));
    return out;
}

using rlda::test::model_error;

} // namespace

class TestNet2Net : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void libtorch_errors_are_one_line()
    {
        // LibTorch's what() is the message and a backtrace of many lines; error_line
        // (core/util/error_text.h, which knows no LibTorch) gives the message's first line.
        try {
            TORCH_CHECK(false, "shape '[3]' is invalid\nsecond line of the message");
        } catch (const c10::Error& e) {
            QVERIFY(std::string_view(e.what()).find("Exception raised from") != std::string_view::npos);
            QCOMPARE(error_line(e), std::string("shape '[3]' is invalid"));
        }
    }

    void inferred_shapes_match_a_forward()
    {
        for (const Shape& input : {Shape{1, 28, 28}, Shape{3, 32, 32}}) {
            ModelSpec spec = load_model("ConvNet2", input, 10);
            QCOMPARE(inferred_shapes(spec), forward_shapes(spec));
            deepen_spec(spec, 0);
            deepen_spec(spec, 2);
            QCOMPARE(inferred_shapes(spec), forward_shapes(spec));
        }
    }

    void deepening_mid_sequence_keeps_trained_weights_bit_for_bit()
    {
        torch::manual_seed(3);
        Net net(zoo_model("ConvNet"));
        train_on_noise(net, 4, 1);
        net->deepen(0);
        train_on_noise(net, 4, 2); // the added block and the old ones train together
        const auto before = snapshot(net);
        const DeepenResult r = net->deepen(2);
        const auto after = snapshot(net);
        QCOMPARE(after.size(), before.size() + 7); // conv w+b, bn w+b, bn running mean, var, count
        for (const auto& [name, tensor] : before) {
            QVERIFY2(after.count(name), name.c_str());
            QVERIFY2(torch::equal(after.at(name), tensor), name.c_str());
        }
        QCOMPARE(r.action, 2);
        QVERIFY(!r.did_nothing);
        QCOMPARE(r.added_parameters, std::int64_t{32 * 32 * 9 + 32 + 64});
        QCOMPARE(static_cast<int>(r.layers.size()), 3);
        QCOMPARE(QString::fromStdString(pytorch_string(r.layers[0])),
                 QString("Conv2d(32, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))"));
        // Units: b0, added, b1, pool, b2, added here; the block before it is original block 2.
        const auto s = net->summary();
        QCOMPARE(s.units[r.position].original, false);
        QCOMPARE(s.units[r.position - 1].original_index, 2);
    }

    void rebuilt_net_has_the_same_module_names()
    {
        torch::manual_seed(1);
        Net net(zoo_model("ConvNet2"));
        net->deepen(1);
        net->deepen(0);
        Net rebuilt(net->spec());
        QStringList a, b;
        for (const auto& p : net->named_parameters())
            a << QString::fromStdString(p.key());
        for (const auto& p : rebuilt->named_parameters())
            b << QString::fromStdString(p.key());
        a.sort();
        b.sort();
        QCOMPARE(a, b);
        Net copy = clone_net(net);
        QCOMPARE(max_abs_output_diff(net, copy), 0.0);
    }

    void added_block_takes_the_nets_mode()
    {
        Net net(zoo_model("ConvNet2"));
        net->eval();
        net->deepen(0);
        for (const auto& m : net->modules(/*include_self=*/false))
            QVERIFY(!m->is_training());
    }

    void channels_last_computes_the_same_function_and_gradients()
    {
        torch::manual_seed(4);
        Net a(zoo_model("ConvNet"));
        train_on_noise(a, 3, 2);
        Net b = clone_net(a);
        b->set_channels_last(true);
        QVERIFY(max_abs_output_diff(a, b) <= 1e-5);
        // Same gradients in both layouts (the backward path converts pooled gradients to NHWC).
        a->train();
        b->train();
        a->zero_grad(); // train_on_noise left its last gradients there
        const auto x = torch::randn({4, 3, 32, 32});
        const auto y = torch::randint(10, {4}, torch::kLong);
        torch::nn::functional::cross_entropy(a->forward(x), y).backward();
        torch::nn::functional::cross_entropy(b->forward(x), y).backward();
        auto grads_b = b->named_parameters();
        for (const auto& p : a->named_parameters()) {
            const auto ga = p.value().grad(), gb = grads_b[p.key()].grad();
            // A conv bias before BatchNorm has a zero gradient in theory: compare at an absolute floor.
            const double diff = (ga - gb).abs().max().item<double>();
            const double bound = 1e-4 * ga.abs().max().item<double>() + 1e-6;
            QVERIFY2(diff <= bound, qPrintable(QString("%1: |delta| %2 > %3").arg(p.key().c_str()).arg(diff).arg(bound)));
        }
        // Blocks added later follow the layout, and deepening still preserves the function.
        b->eval();
        Net before = clone_net(b);
        b->deepen(1);
        QVERIFY(max_abs_output_diff(before, b) <= 1e-5);
        for (const auto& p : b->parameters())
            if (p.dim() == 4)
                QVERIFY(p.is_contiguous(torch::MemoryFormat::ChannelsLast));
    }

    void do_nothing_changes_nothing()
    {
        Net net(zoo_model("ConvNet2"));
        const auto before = net->summary();
        const DeepenResult r = net->deepen(3);
        QVERIFY(r.did_nothing);
        QCOMPARE(net->summary().parameters, before.parameters);
        QCOMPARE(net->summary().units.size(), before.units.size());
    }

    void out_of_range_action_is_an_error()
    {
        Net net(zoo_model("ConvNet2"));
        QVERIFY(model_error([&] { net->deepen(4); }).contains("out of range"));
        QVERIFY(model_error([&] { net->deepen(-1); }).contains("out of range"));
        QCOMPARE(net->summary().units.size(), std::size_t{6}); // unchanged
    }

    void even_kernel_is_an_error()
    {
        ModelSpec spec;
        spec.name = "Even";
        spec.input = {3, 8, 8};
        spec.classes = 4;
        spec.root = Node::sequence({Node::block({Conv2d{3, 4, 2}, ReLU{}}),
                                    Node::layer(AdaptiveAvgPool2d{}), Node::layer(Flatten{}),
                                    Node::block({Linear{4, 4}, ReLU{}})});
        finalize(spec);
        QVERIFY(model_error([&] { deepen_spec(spec, 0); }).contains("even kernel"));
        QCOMPARE(summarize(spec).parameters, parameter_count(Conv2d{3, 4, 2}) + 20);
        deepen_spec(spec, 1); // the linear block still deepens
    }

    void block_starting_with_a_pool_is_an_error()
    {
        ModelSpec spec;
        spec.name = "PoolFirst";
        spec.input = {3, 8, 8};
        spec.classes = 3;
        spec.root = Node::sequence({Node::block({AvgPool2d{2}, Conv2d{3, 3, 3}}),
                                    Node::layer(AdaptiveAvgPool2d{}), Node::layer(Flatten{})});
        finalize(spec);
        QVERIFY(model_error([&] { deepen_spec(spec, 0); }).contains("cannot be deepened"));
    }

    void non_idempotent_activation_is_an_error()
    {
        ModelSpec spec;
        spec.name = "TanhNet";
        spec.input = {6};
        spec.classes = 2;
        spec.root = Node::sequence({Node::block({Linear{6, 4}, Tanh{}}), Node::block({Linear{4, 2}, ReLU{}})});
        finalize(spec);
        QVERIFY(model_error([&] { deepen_spec(spec, 0); }).contains("not idempotent"));
        QCOMPARE(deepen_spec(spec, 1).position, 2);
    }

    void linear_block_without_activation_preserves_function()
    {
        ModelSpec spec;
        spec.name = "Plain";
        spec.input = {5};
        spec.classes = 3;
        spec.root = Node::sequence({Node::block({Linear{5, 7}}), Node::block({Linear{7, 3}, ReLU{}})});
        torch::manual_seed(5);
        Net net(spec);
        train_on_noise(net, 3, 4);
        Net before = clone_net(net);
        net->deepen(0);
        QVERIFY(max_abs_output_diff(before, net) <= 1e-5);
    }

    void logits_head_deepening_every_block_preserves_function()
    {
        for (const auto& name : zoo_names()) {
            torch::manual_seed(11);
            Net net(zoo_model(name, {3, 32, 32}, 10, OutputHead::Logits));
            train_on_noise(net, 5, 3);
            Net before = clone_net(net);
            const int n = net->original_block_count();
            const auto relu = zoo_model(name, {3, 32, 32}, 10);
            QCOMPARE(n, original_block_count(relu)); // the same actions under both heads
            DeepenResult last;
            for (int a = 0; a < n; ++a)
                last = net->deepen(a);
            const double diff = max_abs_output_diff(before, net);
            QVERIFY2(diff <= 1e-5, qPrintable(QString("%1: %2").arg(QString::fromStdString(name)).arg(diff)));
            // Deepen(last block) of plain logits adds an identity Linear alone, as many parameters as
            // the ReLU head's [Linear, ReLU], and leaves the model ending in plain logits.
            QCOMPARE(last.layers.size(), std::size_t{1});
            QVERIFY(std::holds_alternative<Linear>(last.layers[0]));
            ModelSpec relu_deepened = relu;
            QCOMPARE(last.added_parameters, deepen_spec(relu_deepened, n - 1).added_parameters);
            QVERIFY(std::holds_alternative<Linear>(units(net->spec()).back().node->layers.back()));
            // Logits may be negative: nothing clips them.
            QVERIFY(net->forward(torch::randn({4, 3, 32, 32})).min().item<double>() < 0.0);
        }
    }

    void zoo_takes_other_shapes_and_classes()
    {
        const auto s = summarize(zoo_model("ConvNet2", {1, 28, 28}, 5));
        QCOMPARE(QString::fromStdString(s.leaf_layers.front()),
                 QString("Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))"));
        QCOMPARE(QString::fromStdString(s.leaf_layers[8]),
                 QString("Linear(in_features=32, out_features=5, bias=True)"));
        torch::manual_seed(2);
        Net net(zoo_model("FeedForwardNet3", {1, 28, 28}, 10));
        QCOMPARE(net->forward(torch::randn({2, 1, 28, 28})).sizes().vec(), (std::vector<std::int64_t>{2, 10}));
        QCOMPARE(net->original_block_count(), 3);
        QVERIFY(model_error([] { zoo_model("LargeConvNet", {3, 8, 8}); }).contains("smaller than the kernel"));
    }

    void toml_example_model_loads_and_deepens()
    {
        const std::string path = RLDA_SOURCE_DIR "/config/models/small_convnet.toml";
        ModelSpec spec = load_model(path, {1, 28, 28}, 10);
        QCOMPARE(QString::fromStdString(spec.name), QString("SmallConvNet"));
        QCOMPARE(original_block_count(spec), 3);
        torch::manual_seed(9);
        Net net(spec);
        train_on_noise(net, 3, 9);
        Net before = clone_net(net);
        net->deepen(0);
        net->deepen(1);
        net->deepen(2);
        QVERIFY(max_abs_output_diff(before, net) <= 1e-5);
    }

    void toml_errors_name_file_line_and_column_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString head = "[model]\nname = \"M\"\nlayers = [\n";
        QTest::newRow("syntax") << "[model\n" << "bad.toml:1:";
        QTest::newRow("unknown top key") << "[model]\nname=\"M\"\nlayers=[]\ncolour = 1\n" << "bad.toml:4:1: model.colour: unknown key";
        QTest::newRow("unknown type") << head + "  { type = \"Conv3d\", out_channels = 4 },\n]\n" << "bad.toml:4:";
        QTest::newRow("missing out") << head + "  { type = \"Conv2d\" },\n]\n" << "model.layers[0].out_channels: missing";
        QTest::newRow("wrong type") << head + "  { type = \"Conv2d\", out_channels = \"x\" },\n]\n" << "model.layers[0].out_channels: expected an integer";
        QTest::newRow("linear on image") << head + "  { type = \"Linear\", out_features = 10 },\n]\n" << "add { type = \"Flatten\" }";
        QTest::newRow("wrong in_channels") << head + "  { type = \"Conv2d\", in_channels = 1, out_channels = 4 },\n]\n" << "bad.toml:4:";
        QTest::newRow("wrong classes") << head + "  { type = \"Flatten\" },\n  { type = \"Linear\", out_features = 7 },\n]\n" << "expected 10 classes";
        QTest::newRow("missing layers") << "[model]\nname = \"M\"\n" << "model.layers: missing";
    }
    void toml_errors_name_file_line_and_column()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            parse_toml_model(text.toStdString(), "bad.toml", {3, 32, 32}, 10);
            QFAIL("no error");
        } catch (const ConfigError& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.contains(expected), qPrintable(msg));
            QVERIFY2(msg.startsWith("bad.toml:"), qPrintable(msg));
            QVERIFY(!msg.contains('\n'));
        }
    }
};

RLDA_SUITE_GUILESS_MAIN(TestNet2Net)
#include "test_net2net.moc"
