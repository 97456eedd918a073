// Layer strings in PyTorch's notation, parameter counts, shapes, and the small parsers.
#include "core/model/footprint.h"
#include "core/model/layer.h"
#include "core/model/limits.h"
#include "core/model/spec.h"
#include "core/model/zoo.h"
#include "core/util/checked.h"
#include "core/util/csv.h"
#include "core/util/error.h"
#include "core/util/memory.h"
#include "tests/common/suite.h"

#include <limits>
#include <stdexcept>

#include <QtTest/QtTest>

using namespace rlda::core;
using namespace rlda::core::model;

class TestLayers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pytorch_strings_data()
    {
        QTest::addColumn<QString>("actual");
        QTest::addColumn<QString>("expected");
        auto row = [](const char* tag, const Layer& l, const char* expected) {
            QTest::newRow(tag) << QString::fromStdString(pytorch_string(l)) << QString(expected);
        };
        row("conv", Conv2d{3, 32, 3}, "Conv2d(3, 32, kernel_size=(3, 3), stride=(1, 1))");
        row("conv padded", Conv2d{32, 32, 3, 1, 1}, "Conv2d(32, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))");
        row("conv no bias", Conv2d{8, 16, 5, 2, 2, false},
            "Conv2d(8, 16, kernel_size=(5, 5), stride=(2, 2), padding=(2, 2), bias=False)");
        row("bn", BatchNorm2d{32}, "BatchNorm2d(32, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)");
        row("bn custom", BatchNorm2d{4, 0.001, 0.01}, "BatchNorm2d(4, eps=0.001, momentum=0.01, affine=True, track_running_stats=True)");
        row("relu", ReLU{}, "ReLU()");
        row("tanh", Tanh{}, "Tanh()");
        row("sigmoid", Sigmoid{}, "Sigmoid()");
        row("avgpool", AvgPool2d{2}, "AvgPool2d(kernel_size=(2, 2), stride=(2, 2), padding=0)");
        row("avgpool strided", AvgPool2d{3, 1, 1}, "AvgPool2d(kernel_size=(3, 3), stride=(1, 1), padding=1)");
        row("adaptive", AdaptiveAvgPool2d{}, "AdaptiveAvgPool2d(output_size=(1, 1))");
        row("flatten", Flatten{}, "Flatten(start_dim=1, end_dim=-1)");
        row("linear", Linear{32, 10}, "Linear(in_features=32, out_features=10, bias=True)");
        row("linear no bias", Linear{3, 4, false}, "Linear(in_features=3, out_features=4, bias=False)");
    }
    void pytorch_strings()
    {
        QFETCH(QString, actual);
        QFETCH(QString, expected);
        QCOMPARE(actual, expected);
    }

    void python_float_repr_matches_python()
    {
        QCOMPARE(python_float_repr(1e-5), std::string("1e-05"));
        QCOMPARE(python_float_repr(0.1), std::string("0.1"));
        QCOMPARE(python_float_repr(0.0001), std::string("0.0001"));
        QCOMPARE(python_float_repr(1.5e-7), std::string("1.5e-07"));
        QCOMPARE(python_float_repr(2.0), std::string("2.0"));
        QCOMPARE(python_float_repr(123.25), std::string("123.25"));
        QCOMPARE(python_float_repr(1e16), std::string("1e+16"));
        QCOMPARE(python_float_repr(-0.5), std::string("-0.5"));
    }

    void parameter_counts()
    {
        QCOMPARE(parameter_count(Conv2d{3, 32, 3}), std::int64_t{896});
        QCOMPARE(parameter_count(Conv2d{3, 32, 3, 1, 0, false}), std::int64_t{864});
        QCOMPARE(parameter_count(BatchNorm2d{32}), std::int64_t{64});
        QCOMPARE(parameter_count(Linear{32, 10}), std::int64_t{330});
        QCOMPARE(parameter_count(ReLU{}), std::int64_t{0});
    }

    void shapes()
    {
        QCOMPARE(output_shape(Conv2d{3, 8, 3}, {3, 32, 32}), (Shape{8, 30, 30}));
        QCOMPARE(output_shape(Conv2d{3, 8, 3, 2, 1}, {3, 32, 32}), (Shape{8, 16, 16}));
        QCOMPARE(output_shape(AvgPool2d{2}, {8, 15, 15}), (Shape{8, 7, 7}));
        QCOMPARE(output_shape(Flatten{}, {8, 2, 2}), (Shape{32}));
        QVERIFY_THROWS_EXCEPTION(ModelError, output_shape(Linear{10, 2}, {8, 2, 2}));
        QVERIFY_THROWS_EXCEPTION(ModelError, output_shape(Conv2d{4, 8, 3}, {3, 32, 32}));
    }

    // A window larger than its padded input was counted as one position (the division rounded the
    // negative span up), and LibTorch then failed inside the forward.
    void windows_larger_than_the_input_are_refused()
    {
        QVERIFY_THROWS_EXCEPTION(ModelError, output_shape(AvgPool2d{4, 2, 0}, {8, 3, 3}));
        QVERIFY_THROWS_EXCEPTION(ModelError, output_shape(Conv2d{3, 8, 1024}, {3, 32, 32}));
        QCOMPARE(output_shape(AvgPool2d{4, 2, 1}, {8, 3, 3}), (Shape{8, 1, 1})); // padded to 5x5
        QCOMPARE(output_shape(Conv2d{3, 8, 34, 1, 1}, {3, 32, 32}), (Shape{8, 1, 1}));
    }

    // Counts and sizes are checked arithmetic: a spec built in code (the reader's limits keep its
    // own far from it) gets a ModelError instead of a wrapped, negative count.
    void counts_never_wrap()
    {
        constexpr auto big = std::numeric_limits<std::int64_t>::max() / 2;
        try {
            output_shape(Conv2d{3, 8, 3, 1, big}, {3, 32, 32});
            QFAIL("no error");
        } catch (const ModelError& e) {
            QVERIFY2(QString(e.what()).contains("too large to count"), e.what());
        }
        try {
            output_shape(Flatten{}, {big, 2, 2});
            QFAIL("no error");
        } catch (const ModelError& e) {
            QVERIFY2(QString(e.what()).contains("more than 9223372036854775807 features"), e.what());
        }
        // Each Linear has 2^62 + 2^31 parameters, which fits; two of them do not.
        const std::int64_t w = std::int64_t{1} << 31;
        ModelSpec spec;
        spec.name = "Wide";
        spec.input = {w};
        spec.classes = w;
        spec.root = Node::sequence({Node::layer(Linear{w, w}), Node::layer(Linear{w, w})});
        QCOMPARE(parameter_count(Linear{w, w}), (std::int64_t{1} << 62) + w);
        try {
            summarize(spec);
            QFAIL("no error");
        } catch (const ModelError& e) {
            QCOMPARE(QString(e.what()), QString("Wide: more than 9223372036854775807 parameters"));
        }
        QCOMPARE(checked::mul(big, std::int64_t{3}), std::optional<std::int64_t>{});
        QCOMPARE(checked::add(std::int64_t{2}, std::int64_t{3}), std::optional<std::int64_t>{5});
        QCOMPARE(checked::saturating_mul(std::uint64_t{1} << 40, std::uint64_t{1} << 40),
                 std::numeric_limits<std::uint64_t>::max());
    }

    // One table of limits (core/model/limits.h), worded once, for the reader and load_model().
    void field_limits_are_declared_once()
    {
        QCOMPARE(QString::fromStdString(field_limit("out_channels").text()),
                 QString("a whole number from 1 to 65536"));
        QCOMPARE(QString::fromStdString(field_limit("padding").text()),
                 QString("a whole number from 0 to 1024"));
        QCOMPARE(QString::fromStdString(field_limit("eps").text()), QString("a number above 0, at most 1"));
        QCOMPARE(QString::fromStdString(field_limit("momentum").text()), QString("a number from 0 to 1"));
        QVERIFY(field_limit("momentum").contains(0.0));
        QVERIFY(!field_limit("eps").contains(0.0));
        QVERIFY(!field_limit("eps").contains(std::numeric_limits<double>::quiet_NaN()));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, field_limit("colour"));
        const auto refused = [](const Shape& input, std::int64_t classes) {
            try {
                zoo_model("ConvNet2", input, classes);
            } catch (const ModelError& e) {
                return QString(e.what());
            }
            return QString();
        };
        QCOMPARE(refused({3, 65537, 32}, 10), QString("ConvNet2: input 3x65537x32: each dimension must be a "
                                                      "whole number from 1 to 65536, got 65537"));
        QCOMPARE(refused({3, 32, 32}, 1000001),
                 QString("ConvNet2: classes: must be a whole number from 1 to 1000000, got 1000001"));
        QCOMPARE(refused({3, 32, 32}, 0),
                 QString("ConvNet2: classes: must be a whole number from 1 to 1000000, got 0"));
        QCOMPARE(refused({3, 65536, 32}, 1000000), QString());
    }

    void memory_estimates_of_models()
    {
        const ModelSpec spec = zoo_model("ConvNet2");
        // 10602 parameters and 2 x 2 x 32 running statistics.
        QCOMPARE(parameter_bytes(spec), std::uint64_t{(10602 + 128) * 4});
        // Per sample: input 3072; conv, BatchNorm and ReLU 3 x 32x30x30; pool 32x15x15;
        // 3 x 32x13x13; global pool and Flatten 2 x 32; Linear and ReLU 2 x 10.
        const std::uint64_t per_sample = 3072 + 3 * 28800 + 7200 + 3 * 5408 + 2 * 32 + 2 * 10;
        QCOMPARE(forward_bytes(spec, 2), 2 * per_sample * 4);
        check_forward_fits(spec, 64);
        check_parameters_fit(spec);
        const ModelSpec huge = zoo_model("ConvNet2", {3, 65536, 65536});
        try {
            check_forward_fits(huge, 1, "job.batch_size = 1");
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(
                QString(e.what()).startsWith("job.batch_size = 1: ConvNet2 at 3x65536x65536: a forward of 1 "
                                             "sample needs 2.0 TiB, more than this machine's "),
                e.what());
        }
    }

    void memory_limit_and_byte_sizes()
    {
        QVERIFY(physical_memory_bytes() > 0);
        QCOMPARE(byte_size(0), std::string("0 B"));
        QCOMPARE(byte_size(1023), std::string("1023 B"));
        QCOMPARE(byte_size(1024), std::string("1.0 KiB"));
        QCOMPARE(byte_size(std::uint64_t{3} << 29), std::string("1.5 GiB"));
        QCOMPARE(byte_size(std::numeric_limits<std::uint64_t>::max()), std::string("16.0 EiB"));
        QCOMPARE(array_bytes({2, 3, 4}, 4), std::uint64_t{96});
        QCOMPARE(array_bytes({std::numeric_limits<std::int64_t>::max(), 4}, 4),
                 std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(array_bytes({-1, 4}, 4), std::uint64_t{0});
        check_fits("one byte", 1);
        try {
            check_fits("everything", std::numeric_limits<std::uint64_t>::max());
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).startsWith("everything needs 16.0 EiB, more than this machine's "),
                     e.what());
            QVERIFY2(QString(e.what()).endsWith(" of memory"), e.what());
        }
    }

    void parse_actions_and_shapes()
    {
        QCOMPARE(parse_actions("0 2 1"), (std::vector<int>{0, 2, 1}));
        QCOMPARE(parse_actions(" 3,1 "), (std::vector<int>{3, 1}));
        QCOMPARE(parse_actions(""), std::vector<int>{});
        QVERIFY_THROWS_EXCEPTION(ModelError, parse_actions("0 a"));
        QVERIFY_THROWS_EXCEPTION(ModelError, parse_actions("-1"));
        QVERIFY_THROWS_EXCEPTION(ModelError, parse_actions("1.5"));
        QCOMPARE(parse_shape("3x32x32"), (Shape{3, 32, 32}));
        QCOMPARE(parse_shape("784"), (Shape{784}));
        QVERIFY_THROWS_EXCEPTION(ModelError, parse_shape("3x32"));
        QVERIFY_THROWS_EXCEPTION(ModelError, parse_shape("3x0x32"));
        QVERIFY_THROWS_EXCEPTION(ModelError, parse_shape("3xx32"));
        QVERIFY_THROWS_EXCEPTION(ModelError, parse_shape(""));
    }

    void summary_lists_units_and_leaves()
    {
        const ModelSummary s = summarize(zoo_model("ConvNet2"));
        QCOMPARE(s.parameters, std::int64_t{10602});
        QCOMPARE(s.original_blocks, 3);
        QCOMPARE(s.units.size(), std::size_t{6}); // block, pool, block, pool, flatten, block
        QCOMPARE(s.leaf_layers.size(), std::size_t{10}); // Flatten is a reshape, not a module
        QCOMPARE(s.units[1].is_block, false);
        QCOMPARE(s.units[5].original_index, 2);
    }

    void relu_head_is_the_original_model()
    {
        // The default and an explicit "relu" are the same spec, ending in the original's ReLU.
        for (const auto& name : zoo_names()) {
            const ModelSpec d = zoo_model(name, {3, 32, 32}, 10);
            QVERIFY2(zoo_model(name, {3, 32, 32}, 10, OutputHead::Relu) == d, name.c_str());
            QVERIFY2(load_model(name, {3, 32, 32}, 10, OutputHead::Relu) == d, name.c_str());
            QCOMPARE(QString::fromStdString(summarize(d).leaf_layers.back()), QString("ReLU()"));
        }
        const ModelSummary s = summarize(zoo_model("ConvNet2", {3, 32, 32}, 10, OutputHead::Relu));
        QCOMPARE(s.parameters, std::int64_t{10602});
        QCOMPARE(s.leaf_layers.size(), std::size_t{10});
        QCOMPARE(s.units[5].layers, (std::vector<std::string>{"Linear(in_features=32, out_features=10, bias=True)",
                                                              "ReLU()"}));
    }

    void logits_head_has_no_final_relu()
    {
        for (const auto& name : zoo_names()) {
            const ModelSummary relu = summarize(zoo_model(name, {1, 28, 28}, 10));
            const ModelSummary logits = summarize(zoo_model(name, {1, 28, 28}, 10, OutputHead::Logits));
            // Only the last block's ReLU goes: same actions, parameters and units.
            QCOMPARE(logits.original_blocks, relu.original_blocks);
            QCOMPARE(logits.parameters, relu.parameters);
            QCOMPARE(logits.units.size(), relu.units.size());
            QCOMPARE(logits.leaf_layers.size() + 1, relu.leaf_layers.size());
            QVERIFY2(std::equal(logits.leaf_layers.begin(), logits.leaf_layers.end(), relu.leaf_layers.begin()),
                     name.c_str());
            const BlockSummary& last = logits.units.back();
            QVERIFY(last.is_block && last.original_index == logits.original_blocks - 1);
            QCOMPARE(last.layers.size(), std::size_t{1});
            QVERIFY2(QString::fromStdString(last.layers[0]).startsWith("Linear("), name.c_str());
            QVERIFY2(QString::fromStdString(last.layers[0]).contains("out_features=10,"), name.c_str());
        }
        // LargeConvNet's two linear blocks: the one before the head keeps its ReLU.
        const ModelSummary large = summarize(zoo_model("LargeConvNet", {3, 32, 32}, 10, OutputHead::Logits));
        const auto& before_head = large.units[large.units.size() - 2].layers;
        QCOMPARE(QString::fromStdString(before_head.back()), QString("ReLU()"));
        // A model file writes its own last block.
        const std::string file = RLDA_SOURCE_DIR "/config/models/small_convnet.toml";
        QVERIFY(is_model_file(file) && !is_model_file("ConvNet2") && !is_model_file("Foo"));
        QVERIFY(load_model(file, {1, 28, 28}, 10, OutputHead::Relu) == load_model(file, {1, 28, 28}, 10));
        try {
            load_model(file, {1, 28, 28}, 10, OutputHead::Logits);
            QFAIL("no error");
        } catch (const ModelError& e) {
            QVERIFY2(QString(e.what()).contains("applies to zoo models only"), e.what());
        }
    }

    void unknown_model_lists_known_names()
    {
        try {
            zoo_model("ResNet");
            QFAIL("no error");
        } catch (const ModelError& e) {
            const QString msg = e.what();
            for (const auto& n : zoo_names())
                QVERIFY2(msg.contains(QString::fromStdString(n)), qPrintable(msg));
        }
    }

    void layer_strings_parse_back()
    {
        // Every layer of every zoo model, both heads, deepened once at each block: the string
        // pytorch_string wrote parses back to a layer that prints the same.
        std::size_t seen = 0;
        for (const auto& name : zoo_names())
            for (const auto head : {OutputHead::Relu, OutputHead::Logits}) {
                ModelSpec spec = zoo_model(name, {3, 32, 32}, 10, head);
                for (int a = 0; a < original_block_count(spec); ++a)
                    deepen_spec(spec, a);
                for (const auto& u : summarize(spec).units)
                    for (const auto& text : u.layers) {
                        const auto layer = parse_pytorch_string(text);
                        QVERIFY2(layer, text.c_str());
                        QCOMPARE(QString::fromStdString(pytorch_string(*layer)), QString::fromStdString(text));
                        ++seen;
                    }
            }
        QVERIFY(seen > 100);
        for (const Layer& l : {Layer{Conv2d{8, 16, 5, 2, 2, false}}, Layer{BatchNorm2d{4, 0.001, 0.01}},
                               Layer{AvgPool2d{3, 1, 1}}, Layer{AdaptiveAvgPool2d{2, 3}}, Layer{Tanh{}},
                               Layer{Sigmoid{}}, Layer{Linear{7, 3, false}}})
            QCOMPARE(QString::fromStdString(pytorch_string(*parse_pytorch_string(pytorch_string(l)))),
                     QString::fromStdString(pytorch_string(l)));
        const Layer conv = Conv2d{8, 16, 5, 2, 2, false};
        QVERIFY(*parse_pytorch_string(pytorch_string(conv)) == conv);
        // Only what pytorch_string writes.
        for (const char* text : {"", "ReLU", "ReLU(inplace=True)", "Dropout(p=0.5)", "Conv2d(3, 32)",
                                 "Conv2d(3, 32, kernel_size=(3, 5), stride=(1, 1))",
                                 "Conv2d(3, 32, kernel_size=3, stride=1)", "Linear(in_features=3, out_features=x, bias=True)",
                                 "Linear(in_features=3, out_features=2, bias=True, extra=1)"})
            QVERIFY2(!parse_pytorch_string(text), text);
    }

    void layer_shapes_follow_every_layer()
    {
        // ConvNet2 on Fashion-MNIST's input: block, pool, block, pool, flatten, block.
        const ModelSpec spec = zoo_model("ConvNet2", {1, 28, 28}, 10);
        const std::vector<std::vector<Shape>> expected{{{32, 26, 26}, {32, 26, 26}, {32, 26, 26}},
                                                       {{32, 13, 13}},
                                                       {{32, 11, 11}, {32, 11, 11}, {32, 11, 11}},
                                                       {{32, 1, 1}},
                                                       {{32}},
                                                       {{10}, {10}}};
        QVERIFY(layer_shapes(spec) == expected);
        QVERIFY(layer_shapes(summarize(spec)) == expected);
        QVERIFY(infer_output_shape(spec) == Shape{10});
        // On CIFAR-10's, deepened: the identity blocks keep their block's shape.
        ModelSpec cifar = zoo_model("ConvNet2", {3, 32, 32}, 10);
        deepen_spec(cifar, 0);
        const auto shapes = layer_shapes(summarize(cifar));
        QVERIFY(shapes == layer_shapes(cifar));
        QVERIFY(shapes[0].back() == (Shape{32, 30, 30}));
        QVERIFY(shapes[1].back() == (Shape{32, 30, 30}));
        QVERIFY(shapes.back().back() == Shape{10});
        // A summary with a string that is no layer, or a layer that does not fit, is refused by name.
        ModelSummary bad = summarize(spec);
        bad.units[2].layers[0] = "Dropout(p=0.5)";
        try {
            layer_shapes(bad);
            QFAIL("no error");
        } catch (const ModelError& e) {
            QVERIFY2(QString(e.what()).contains("unit 2: \"Dropout(p=0.5)\" is not a layer"), e.what());
        }
        ModelSummary small = summarize(spec);
        small.input = {1, 3, 3}; // 1x1 after the first convolution
        try {
            layer_shapes(small);
            QFAIL("no error");
        } catch (const ModelError& e) {
            QVERIFY2(QString(e.what()).contains("smaller than the pooling window"), e.what());
        }
    }

    void diff_units_leaves_the_inserted_blocks()
    {
        ModelSpec spec = zoo_model("ConvNet2", {3, 32, 32}, 10);
        const ModelSummary before = summarize(spec);
        deepen_spec(spec, 2);
        deepen_spec(spec, 0);
        const ModelSummary after = summarize(spec);
        const UnitDiff d = diff_units(before.units, after.units);
        QVERIFY(d.only_a.empty());
        QCOMPARE(d.only_b, (std::vector<std::size_t>{1, 7}));
        QCOMPARE(deepened_block_before(after.units, 1), 0);
        QCOMPARE(deepened_block_before(after.units, 7), 2);
        QCOMPARE(deepened_block_before(after.units, 0), -1);
        const UnitDiff back = diff_units(after.units, before.units);
        QCOMPARE(back.only_a, (std::vector<std::size_t>{1, 7}));
        QVERIFY(back.only_b.empty());
        QVERIFY(d.resized.empty() && back.resized.empty());

        // A widening resizes blocks in place: block 1 and the head, which takes its units.
        ModelSpec wide = spec;
        widen_spec(wide, 1, 2.0);
        const UnitDiff w = diff_units(after.units, summarize(wide).units);
        QVERIFY(w.only_a.empty() && w.only_b.empty());
        QCOMPARE(w.resized.size(), std::size_t{2});
        QCOMPARE(after.units[w.resized[0].first].original_index, 1);
        QCOMPARE(w.resized[0].first, w.resized[0].second);
    }

    void csv_records()
    {
        QCOMPARE(split_csv_record("a,\"b, c\",\"d \"\"e\"\"\""), (std::vector<std::string>{"a", "b, c", "d \"e\""}));
        QCOMPARE(split_csv_record("1,,3"), (std::vector<std::string>{"1", "", "3"}));
        QVERIFY_THROWS_EXCEPTION(Error, split_csv_record("\"open"));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestLayers)
#include "test_layers.moc"
