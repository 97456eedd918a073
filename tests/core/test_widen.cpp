// Net2WiderNet widening and the action space of several operations: function preservation over
// every sequence of up to three deepen and widen actions on trained models, training after a
// widening, the spec's bookkeeping, and every error.
#include "core/model/toml_model.h"
#include "core/model/zoo.h"
#include "core/net/net.h"
#include "core/util/error.h"
#include "tests/common/model_error.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <torch/nn/functional/loss.h>
#include <torch/optim/sgd.h>

#include <ATen/CPUGeneratorImpl.h>

#include <functional>
#include <string>
#include <vector>

using namespace rlda::core;
using namespace rlda::core::model;

namespace {

using rlda::test::model_error;

const std::vector<Operation> kBoth{Operation::Deepen, Operation::Widen};

// The largest max |Δ| over every sequence of up to three actions (Do Nothing included), each step
// checked against the model before it, on a model trained on noise first. A walk of the tree of
// sequences, so that each prefix is applied once.
double worst_preservation(const ModelSpec& spec, double noise, int* refused_out = nullptr)
{
    torch::manual_seed(11);
    Net trained(spec);
    train_on_noise(trained, 6, 3);
    const ActionSpace space = action_space(spec, kBoth);
    double worst = 0.0;
    int refused = 0;
    std::function<void(Net&, int)> walk = [&](Net& net, int depth) {
        if (depth == 3)
            return;
        for (int a = 0; a < space.size(); ++a) {
            Net next = clone_net(net);
            try {
                next->apply(space, a, noise, 17 + static_cast<std::uint64_t>(depth));
            } catch (const ModelError&) {
                ++refused; // an action the model refuses (named in its error) changes nothing
                continue;
            }
            worst = std::max(worst, max_abs_output_diff(net, next, 5, 8));
            walk(next, depth + 1);
        }
    };
    walk(trained, 0);
    qInfo("%s: max |delta| %.3g over every sequence of up to 3 of %d actions (%d refused)", spec.name.c_str(), worst,
          space.size(), refused);
    if (refused_out)
        *refused_out = refused;
    return worst;
}

} // namespace

class TestWiden : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void action_space_numbers_operations_then_blocks()
    {
        const ActionSpace deepen(3);
        QCOMPARE(deepen.size(), 4);
        QCOMPARE(deepen.do_nothing(), 3);
        QVERIFY(deepen.deepen_only());
        QCOMPARE(deepen.short_label(2), std::string("2"));

        const ActionSpace both(3, {Operation::Widen, Operation::Deepen}); // sorted: deepen first
        QCOMPARE(both.size(), 6); // 3 deepen, 2 widen (not the last block), Do Nothing
        QCOMPARE(both.index_of(Operation::Deepen, 2), 2);
        QCOMPARE(both.index_of(Operation::Widen, 0), 3);
        QCOMPARE(both.index_of(Operation::Widen, 2), -1); // the last block cannot be widened
        QCOMPARE(both.at(4).op, Operation::Widen);
        QCOMPARE(both.at(4).block, 1);
        QVERIFY(both.at(5).nothing);
        QCOMPARE(both.label(4), std::string("widen block 1"));
        QCOMPARE(both.short_label(0), std::string("d0"));
        QCOMPARE(both.short_label(5), std::string("-"));
        QCOMPARE(both.sequence_text({1, 4, 5, 9}), std::string("d1 w1 - 9"));
        QCOMPARE(deepen.sequence_text({1, 3}), std::string("1 3"));

        const ActionSpace widen(4, {Operation::Widen});
        QCOMPARE(widen.size(), 4);
        QCOMPARE(widen.at(0).op, Operation::Widen);
    }

    void action_space_errors()
    {
        QVERIFY(model_error([] { ActionSpace(0); }).contains("at least one original block"));
        QVERIFY(model_error([] { ActionSpace(3, {}); }).contains("no operation"));
        QVERIFY(model_error([] { ActionSpace(3, {Operation::Widen, Operation::Widen}); }).contains("twice"));
        QVERIFY(model_error([] { ActionSpace(3, kBoth, 1.0); }).contains("above 1"));
        QVERIFY(model_error([] { ActionSpace(3).at(4); }).contains("action 4 is out of range: 0..3"));
        QVERIFY(model_error([] { ActionSpace(3).at(-1); }).contains("out of range"));
        QVERIFY(model_error([] { parse_operations({"deepen", "shrink"}); }).contains("unknown operation \"shrink\""));
        QVERIFY(model_error([] { parse_operations({"widen", "widen"}); }).contains("\"widen\" is listed twice"));
        QVERIFY(model_error([] { parse_operations({}); }).contains("empty"));
        QCOMPARE(parse_operations({"widen", "deepen"}), kBoth);
        auto spec = zoo_model("ConvNet2");
        QVERIFY(model_error([&] { apply_action(spec, ActionSpace(4), 0); }).contains("3 original blocks"));
    }

    void widen_spec_describes_the_change()
    {
        auto spec = zoo_model("ConvNet2");
        const auto before = summarize(spec).parameters;
        const WidenResult r = widen_spec(spec, 1, 2.0);
        QCOMPARE(r.block, 1);
        QCOMPARE(r.old_width, std::int64_t{32});
        QCOMPARE(r.new_width, std::int64_t{64});
        QCOMPARE(r.before, std::string("Conv2d(32, 32, kernel_size=(3, 3), stride=(1, 1))"));
        QCOMPARE(r.after, std::string("Conv2d(32, 64, kernel_size=(3, 3), stride=(1, 1))"));
        QCOMPARE(r.changed.size(), std::size_t{3}); // the conv, its BatchNorm, the head's Linear
        QCOMPARE(r.changed.back().role, WidenedLayer::Role::Inputs);
        QCOMPARE(summarize(spec).parameters - before, r.added_parameters);
        const auto s = summarize(spec);
        QCOMPARE(s.units.back().layers.front(), std::string("Linear(in_features=64, out_features=10, bias=True)"));
        QCOMPARE(widened_width(32, 1.5), std::int64_t{48});
        QCOMPARE(widened_width(1, 1.1), std::int64_t{2}); // at least one more unit
    }

    void widen_across_a_flatten_of_a_feature_map()
    {
        // conv -> Flatten of 8x4x4 -> Linear: each channel owns 16 features, mapped together.
        const ModelSpec spec = [] {
            ModelSpec s;
            s.name = "FlatConv";
            s.input = {1, 8, 8};
            s.classes = 3;
            s.root = Node::sequence({Node::block({Conv2d{1, 8, 3, 2, 1, true}, BatchNorm2d{8}, ReLU{}}),
                                     Node::layer(Flatten{}), Node::block({Linear{128, 3, true}, ReLU{}})});
            finalize(s);
            return s;
        }();
        ModelSpec wider = spec;
        const WidenResult r = widen_spec(wider, 0, 1.5);
        QCOMPARE(r.changed.back().spatial, std::int64_t{16});
        QCOMPARE(summarize(wider).units.back().layers.front(),
                 std::string("Linear(in_features=192, out_features=3, bias=True)"));
        torch::manual_seed(2);
        Net net(spec);
        train_on_noise(net, 5, 1);
        Net before = clone_net(net);
        net->widen(0, 1.5, 0.0, 3);
        QVERIFY(max_abs_output_diff(before, net) <= 1e-5);
    }

    void every_sequence_of_three_keeps_the_function_convnet2()
    {
        QVERIFY(worst_preservation(zoo_model("ConvNet2"), 0.0) <= 1e-5);
    }

    void every_sequence_of_three_keeps_the_function_convnet3()
    {
        QVERIFY(worst_preservation(zoo_model("ConvNet3"), 0.0) <= 1e-5);
    }

    void every_sequence_of_three_keeps_the_function_large_convnet()
    {
        // 8 blocks: 8 deepen + 7 widen + Do Nothing = 16 actions, 16^3 sequences: checked on a
        // small input so that the 4,368 steps stay quick.
        const double worst = worst_preservation(zoo_model("LargeConvNet", {3, 12, 12}), 0.0);
        QVERIFY2(worst <= 1e-5, std::to_string(worst).c_str());
    }

    void feed_forward_and_noisy_shares_keep_the_function()
    {
        QVERIFY(worst_preservation(zoo_model("FeedForwardNet3", {1, 8, 8}), 0.0) <= 1e-5);
        // The symmetry-breaking shares still sum to each unit's weight.
        QVERIFY(worst_preservation(zoo_model("ConvNet2", {1, 12, 12}), 0.3) <= 1e-5);
    }

    void widening_keeps_the_old_units_and_copies_batchnorm()
    {
        torch::manual_seed(5);
        Net net(zoo_model("ConvNet2"));
        train_on_noise(net, 5, 2);
        const auto uid = units(net->spec())[0].node->uid;
        const std::string u = "u" + std::to_string(uid);
        const torch::Tensor w = net->named_parameters()[u + ".0.weight"].clone();
        const torch::Tensor mean = net->named_buffers()[u + ".1.running_mean"].clone();
        net->widen(0, 2.0, 0.0, 9);
        const torch::Tensor w2 = net->named_parameters()[u + ".0.weight"];
        const torch::Tensor mean2 = net->named_buffers()[u + ".1.running_mean"];
        QCOMPARE(w2.size(0), std::int64_t{64});
        QVERIFY(torch::equal(w2.narrow(0, 0, 32), w)); // the old units first, unchanged
        QVERIFY(torch::equal(mean2.narrow(0, 0, 32), mean));
        // Every new unit is a copy of an old one, its statistics with it.
        for (std::int64_t j = 32; j < 64; ++j) {
            bool found = false;
            for (std::int64_t k = 0; k < 32 && !found; ++k)
                found = torch::equal(w2[j], w[k]) && mean2[j].item<float>() == mean[k].item<float>();
            QVERIFY(found);
        }
        QCOMPARE(net->parameter_count(), summarize(net->spec()).parameters);
    }

    void a_widened_model_trains_on()
    {
        torch::manual_seed(7);
        Net net(zoo_model("ConvNet2", {1, 12, 12}));
        auto gen = torch::make_generator<at::CPUGeneratorImpl>(4);
        const auto x = torch::randn({64, 1, 12, 12}, gen);
        const auto y = torch::randint(10, {64}, gen, torch::kLong);
        torch::optim::SGD warm(net->parameters(), torch::optim::SGDOptions(0.05));
        net->train();
        for (int s = 0; s < 20; ++s) {
            warm.zero_grad();
            torch::nn::functional::cross_entropy(net->forward(x), y).backward();
            warm.step();
        }
        net->widen(0, 2.0, 0.1, 3);
        net->widen(1, 2.0, 0.1, 4);
        torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05));
        double at_widening = 0.0, last = 0.0;
        for (int s = 0; s <= 50; ++s) {
            opt.zero_grad();
            auto loss = torch::nn::functional::cross_entropy(net->forward(x), y);
            if (s == 0)
                at_widening = loss.item<double>();
            last = loss.item<double>();
            loss.backward();
            opt.step();
        }
        QVERIFY(std::isfinite(last));
        QVERIFY2(last < at_widening, (std::to_string(last) + " vs " + std::to_string(at_widening)).c_str());
        // The copies learnt apart: the widened layer has no two equal units left.
        const auto uid = units(net->spec())[0].node->uid;
        const auto w = net->named_parameters()["u" + std::to_string(uid) + ".0.weight"];
        for (std::int64_t j = 1; j < w.size(0); ++j)
            QVERIFY(!torch::equal(w[j], w[0]));
    }

    void widen_errors()
    {
        auto spec = zoo_model("ConvNet2");
        QVERIFY(model_error([&] { widen_spec(spec, 2, 2.0); })
                    .contains("block 2 is the last block of ConvNet2; its outputs are the 10 classes"));
        QVERIFY(model_error([&] { widen_spec(spec, 3, 2.0); }).contains("block 3 is out of range for ConvNet2"));
        QVERIFY(model_error([&] { widen_spec(spec, -1, 2.0); }).contains("out of range"));
        QVERIFY(model_error([&] { widen_spec(spec, 0, 1.0); }).contains("factor must be above 1"));
        QVERIFY(model_error([&] { widen_spec(spec, 0, 5000.0); }).contains("out_channels"));
        QCOMPARE(spec, zoo_model("ConvNet2")); // nothing changed by a refused widening
        Net net(spec);
        QVERIFY(model_error([&] { net->widen(0, 2.0, 0.5); }).contains("noise"));
        QVERIFY(model_error([&] { net->widen(2, 2.0); }).contains("last block"));
        QCOMPARE(net->spec(), zoo_model("ConvNet2"));

        // A block that does not start with a weight layer, as deepening refuses it.
        ModelSpec odd;
        odd.name = "Odd";
        odd.input = {3, 8, 8};
        odd.classes = 10;
        odd.root = Node::sequence({Node::block({AvgPool2d{2, 2, 0}}), Node::block({Conv2d{3, 8, 3, 1, 1, true}, ReLU{}}),
                                   Node::layer(AdaptiveAvgPool2d{1, 1}), Node::layer(Flatten{}),
                                   Node::block({Linear{8, 10, true}, ReLU{}})});
        finalize(odd);
        QVERIFY(model_error([&] { widen_spec(odd, 0, 2.0); }).contains("cannot be widened (only Conv2d and Linear"));
    }

    void the_residual_zoo_model_takes_28_and_32_inputs()
    {
        for (const Shape& in : {Shape{1, 28, 28}, Shape{3, 32, 32}}) {
            const auto spec = zoo_model("SmallResNet", in, 10);
            const auto s = summarize(spec);
            QCOMPARE(s.original_blocks, 4); // stem, two stages, head
            QCOMPARE(s.units[1].residual, 5);
            QCOMPARE(s.units[1].skip.size(), std::size_t{2});
            QVERIFY(s.units[2].skip.empty()); // identity
            // Layer strings are PyTorch's: the branch, the skip path, then the ReLU after the sum.
            QCOMPARE(s.leaf_layers[3], std::string("Conv2d(16, 32, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), bias=False)"));
            QCOMPARE(s.leaf_layers[8], std::string("Conv2d(16, 32, kernel_size=(1, 1), stride=(2, 2), bias=False)"));
            QCOMPARE(s.leaf_layers[10], std::string("ReLU()"));
            for (const auto& l : s.leaf_layers)
                QVERIFY2(parse_pytorch_string(l).has_value(), l.c_str());
            QCOMPARE(layer_shapes(s), layer_shapes(spec));
            Net net(spec);
            QCOMPARE(net->parameter_count(), s.parameters);
            QCOMPARE(net->forward(torch::randn({2, in[0], in[1], in[2]})).sizes(), (torch::IntArrayRef{2, 10}));
        }
    }

    void deepening_a_stage_adds_a_residual_block_whose_branch_adds_zero()
    {
        torch::manual_seed(4);
        Net net(zoo_model("SmallResNet", {1, 28, 28}, 10));
        train_on_noise(net, 6, 2);
        Net before = clone_net(net);
        const DeepenResult r = net->deepen(2);
        const auto s = net->summary();
        const auto& added = s.units[static_cast<std::size_t>(r.position)];
        QVERIFY(!added.original);
        QCOMPARE(added.residual, 5);
        QVERIFY(added.skip.empty());
        QCOMPARE(added.layers.back(), std::string("ReLU()"));
        QVERIFY(max_abs_output_diff(before, net) == 0.0); // zero exactly, not nearly
        // The new block learns: its zeroed BatchNorm gets a gradient.
        net->train();
        const auto loss = net->forward(torch::randn({4, 1, 28, 28})).pow(2).sum();
        loss.backward();
        const auto gamma = net->named_parameters()["u" + std::to_string(r.uid) + ".0.branch.4.weight"];
        QVERIFY(gamma.grad().abs().sum().item<double>() > 0.0);
    }

    void widening_a_stage_keeps_its_skip_path()
    {
        auto spec = zoo_model("SmallResNet", {1, 28, 28}, 10);
        const WidenResult r = widen_spec(spec, 2, 2.0);
        QCOMPARE(r.changed.size(), std::size_t{3}); // the branch's first conv and BatchNorm, its second conv's inputs
        const auto s = summarize(spec);
        QCOMPARE(s.units[2].layers[3], std::string("Conv2d(64, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), bias=False)"));
        // The stem feeds stage 1's branch and its projection skip: both take the wider input.
        auto stem = zoo_model("SmallResNet", {1, 28, 28}, 10);
        const WidenResult w = widen_spec(stem, 0, 2.0);
        QVERIFY(std::any_of(w.changed.begin(), w.changed.end(), [](const WidenedLayer& c) { return c.skip; }));
        QCOMPARE(summarize(stem).units[1].skip.front(), std::string("Conv2d(32, 32, kernel_size=(1, 1), stride=(2, 2), bias=False)"));
    }

    void every_sequence_of_three_keeps_the_function_small_resnet()
    {
        int refused = -1;
        const double worst = worst_preservation(zoo_model("SmallResNet", {1, 12, 12}, 10), 0.0, &refused);
        QVERIFY2(worst <= 1e-5, std::to_string(worst).c_str());
        QCOMPARE(refused, 0); // every block but the head deepens and widens, in any order
    }

    void residual_errors()
    {
        // Widening the stem of a model whose first stage has an identity skip is refused.
        const auto text = [](const std::string& stage) {
            return "[model]\nname = \"R\"\n"
                   "[[model.layers]]\nblock = [ { type = \"Conv2d\", out_channels = 8, padding = 1 }, { type = \"ReLU\" } ]\n"
                   "[[model.layers]]\n" + stage + "\n"
                   "[[model.layers]]\nsequence = [ { type = \"AdaptiveAvgPool2d\" }, { type = \"Flatten\" }, "
                   "{ block = [ { type = \"Linear\", out_features = \"classes\" } ] } ]\n";
        };
        auto identity = parse_toml_model(
            text("residual = [ { type = \"Conv2d\", out_channels = 8, padding = 1 }, { type = \"BatchNorm2d\" } ]\n"
                 "after = [ { type = \"ReLU\" } ]"),
            "r.toml", {1, 8, 8}, 3);
        QVERIFY(identity.root.children[1].is_residual());
        QVERIFY(model_error([&] { widen_spec(identity, 0, 2.0); }).contains("identity skip"));
        QVERIFY2(model_error([&] { widen_spec(identity, 1, 2.0); }).contains("branch has one weight layer"),
                 qPrintable(model_error([&] { widen_spec(identity, 1, 2.0); })));
        auto copy = identity;
        deepen_spec(copy, 1); // deepening it still works
        QCOMPARE(units(copy).size(), units(identity).size() + 1);

        // A branch that changes the shape needs a projection skip of the same shape.
        const auto config_error = [](auto&& f) {
            try {
                f();
            } catch (const ConfigError& e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QVERIFY(config_error([&] {
                    parse_toml_model(text("residual = [ { type = \"Conv2d\", out_channels = 16, padding = 1 } ]"),
                                     "r.toml", {1, 8, 8}, 3);
                }).contains("identity skip cannot be added"));
        QVERIFY(config_error([&] {
                    parse_toml_model(text("residual = [ { type = \"Conv2d\", out_channels = 16, padding = 1 } ]\n"
                                          "skip = [ { type = \"Conv2d\", out_channels = 16, kernel_size = 1, stride = 2 } ]"),
                                     "r.toml", {1, 8, 8}, 3);
                }).contains("the skip path gives 16x4x4 but the branch 16x8x8"));
        QVERIFY(config_error([&] { parse_toml_model(text("residual = []"), "r.toml", {1, 8, 8}, 3); })
                    .contains("non-empty array"));
        QVERIFY(config_error([&] {
                    parse_toml_model(text("residual = [ { type = \"Conv2d\", out_channels = 8, padding = 1 } ]\nextra = 1"),
                                     "r.toml", {1, 8, 8}, 3);
                }).contains("unknown key"));
        // A branch with pooling cannot be repeated by deepening.
        auto pooled = parse_toml_model(
            text("residual = [ { type = \"Conv2d\", out_channels = 8, padding = 1 }, { type = \"AvgPool2d\", kernel_size = 1 } ]"),
            "r.toml", {1, 8, 8}, 3);
        QVERIFY(model_error([&] { deepen_spec(pooled, 1); }).contains("cannot repeat at the same size"));
    }

    void growth_strings_name_operations()
    {
        const auto g = parse_growth("0, w1 d2");
        QCOMPARE(g.size(), std::size_t{3});
        QVERIFY(g[0].op == Operation::Deepen && g[0].block == 0);
        QVERIFY(g[1].op == Operation::Widen && g[1].block == 1);
        QVERIFY(g[2].op == Operation::Deepen && g[2].block == 2);
        QVERIFY(parse_growth("").empty());
        for (const char* bad : {"x1", "w", "w-1", "1.5", "d1x"})
            QVERIFY2(model_error([&] { parse_growth(bad); }).contains(QStringLiteral("bad step \"%1\"").arg(bad)), bad);
        auto spec = zoo_model("ConvNet2");
        const auto steps = apply_growth(spec, g);
        QCOMPARE(steps[1].widen.new_width, std::int64_t{64});
        QVERIFY(model_error([&] { apply_growth(spec, parse_growth("w2")); }).contains("last block"));
    }

    void undoing_a_widening_keeps_the_original_units()
    {
        torch::manual_seed(8);
        Net net(zoo_model("ConvNet2"));
        train_on_noise(net, 4, 1);
        Net wide = clone_net(net);
        wide->widen(1, 2.0, 0.0, 1);
        Net back(zoo_model("ConvNet2"));
        copy_state_narrowing(wide, back);
        const auto a = net->named_parameters(), b = back->named_parameters();
        // Everything but the head's weight, whose columns were divided among copies, comes back.
        const auto head = "u" + std::to_string(units(net->spec()).back().node->uid) + ".0.weight";
        for (const auto& p : a)
            if (p.key() != head)
                QVERIFY2(torch::equal(p.value(), b[p.key()]), p.key().c_str());
    }
};

RLDA_SUITE_GUILESS_MAIN(TestWiden)
#include "test_widen.moc"
