// Layer strings in PyTorch's notation, parameter counts, shapes, and the small parsers.
#include "core/model/layer.h"
#include "core/model/spec.h"
#include "core/model/zoo.h"
#include "core/util/csv.h"
#include "core/util/error.h"

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

    void csv_records()
    {
        QCOMPARE(split_csv_record("a,\"b, c\",\"d \"\"e\"\"\""), (std::vector<std::string>{"a", "b, c", "d \"e\""}));
        QCOMPARE(split_csv_record("1,,3"), (std::vector<std::string>{"1", "", "3"}));
        QVERIFY_THROWS_EXCEPTION(Error, split_csv_record("\"open"));
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "test_layers.moc"
