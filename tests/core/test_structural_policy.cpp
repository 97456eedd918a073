// The structural encoder ([policy] encoder = "structural") and the learner's options: what the
// encoding keeps and ignores, one policy across block counts, policy files of both encoders.
#include "core/agent/structure.h"
#include "core/model/toml_model.h"
#include "core/model/zoo.h"
#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/table.h"
#include "core/util/error.h"
#include "tests/common/first_action_table.h"
#include "tests/common/policy_checks.h"
#include "tests/common/suite.h"

#include <fmt/format.h>

#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>

using namespace rlda::core;
using namespace rlda::core::agent;

using rlda::test::structural_sizes;

namespace {

// `blocks` conv blocks of `width`, 2x`width`, ... channels (a pool after the second), then the
// Linear head block: blocks + 1 original blocks in all, at 1x8x8 input.
model::ModelSpec conv_model(int blocks, std::int64_t width)
{
    std::string text = "[model]\nname = \"Stack\"\n";
    for (int b = 0; b < blocks; ++b) {
        text += fmt::format("[[model.layers]]\nblock = [ {{ type = \"Conv2d\", out_channels = {}, kernel_size = 3, "
                            "padding = 1 }}, {{ type = \"BatchNorm2d\" }}, {{ type = \"ReLU\" }} ]\n",
                            width << std::min(b, 3));
        if (b == 1)
            text += "[[model.layers]]\ntype = \"AvgPool2d\"\nkernel_size = 2\n";
    }
    text += "[[model.layers]]\nsequence = [ { type = \"AdaptiveAvgPool2d\", output_size = 1 }, { type = \"Flatten\" }, "
            "{ block = [ { type = \"Linear\", out_features = \"classes\" }, { type = \"ReLU\" } ] } ]\n";
    return model::parse_toml_model(text, "stack.toml", {1, 8, 8}, 3);
}

model::ModelSpec deepened(model::ModelSpec spec, const std::vector<int>& actions)
{
    for (int a : actions)
        model::deepen_spec(spec, a);
    return spec;
}

// Every sequence of `decisions` over `actions` (0: blocks + 1); taking action `best` first is clearly best.
sim::SimulationTable table_for(const model::ModelSpec& model, int decisions, int actions = 0, int best = 0)
{
    return rlda::test::first_action_table(decisions, actions == 0 ? model::original_block_count(model) + 1 : actions,
                                          best);
}

std::filesystem::path temp_file(const char* name)
{
    return std::filesystem::temp_directory_path() / fmt::format("rlda-structural-{}-{}", ::getpid(), name);
}

} // namespace

class TestStructuralPolicy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void features_follow_the_summary()
    {
        const auto model = model::zoo_model("ConvNet2");
        const auto summary = model::summarize(model);
        const auto f = structural_features(summary);
        QCOMPARE(f.blocks, model::original_block_count(model));
        QCOMPARE(f.layers, static_cast<std::int64_t>(summary.leaf_layers.size()));
        QCOMPARE(f.rows.size(), static_cast<std::size_t>(f.layers * kLayerFeatures));
        // Each layer has exactly one type, and blocks appear in order 0, 1, 2.
        std::int64_t last_block = -1;
        for (std::int64_t i = 0; i < f.layers; ++i) {
            const float* row = f.rows.data() + i * kLayerFeatures;
            QCOMPARE(row[kIsConv2d] + row[kIsBatchNorm2d] + row[kIsActivation] + row[kIsPool] + row[kIsLinear], 1.0f);
            QCOMPARE(row[kAdded], 0.0f);
            const auto b = f.block[static_cast<std::size_t>(i)];
            if (b >= 0) {
                QVERIFY(b >= last_block);
                last_block = b;
            }
        }
        QCOMPARE(last_block, std::int64_t{f.blocks - 1});
        QCOMPARE(f.rows[kPosition], 0.0f);
        QCOMPARE(f.rows[static_cast<std::size_t>((f.layers - 1) * kLayerFeatures + kPosition)], 1.0f);
        // ConvNet2's first layer reads the 3x32x32 image: log2(1 + 3) / 10 and log2(1 + 32) / 5.
        QVERIFY(std::abs(f.rows[kLogIn] - 0.2f) < 1e-6f);
        QVERIFY(std::abs(f.rows[kLogSpatial] - static_cast<float>(std::log2(33.0) / 5.0)) < 1e-6f);
    }

    // The same model at another width keeps its block order and count, and every column but the
    // sizes; a deepening adds layers to the block it deepens, marked as added, at either width.
    void the_encoding_ignores_width()
    {
        for (const std::vector<int>& actions : {std::vector<int>{}, std::vector<int>{1}, std::vector<int>{0, 2, 2}}) {
            const auto narrow = structural_features(model::summarize(deepened(conv_model(3, 8), actions)));
            const auto wide = structural_features(model::summarize(deepened(conv_model(3, 32), actions)));
            QCOMPARE(narrow.blocks, 4);
            QCOMPARE(wide.blocks, narrow.blocks);
            QCOMPARE(wide.layers, narrow.layers);
            QCOMPARE(wide.block, narrow.block);
            int differing = 0;
            for (std::int64_t i = 0; i < narrow.layers; ++i)
                for (std::int64_t c = 0; c < kLayerFeatures; ++c) {
                    const auto at = static_cast<std::size_t>(i * kLayerFeatures + c);
                    if (c == kLogIn || c == kLogOut) {
                        differing += narrow.rows[at] != wide.rows[at] ? 1 : 0;
                        continue;
                    }
                    QCOMPARE(wide.rows[at], narrow.rows[at]);
                }
            QVERIFY(differing > 0);
            for (int a : actions) {
                // The added block sits after the block it deepens and is counted as that block.
                int added_in_block = 0;
                for (std::int64_t i = 0; i < narrow.layers; ++i)
                    if (narrow.rows[static_cast<std::size_t>(i * kLayerFeatures + kAdded)] == 1.0f)
                        added_in_block += narrow.block[static_cast<std::size_t>(i)] == a ? 1 : 0;
                QVERIFY(added_in_block >= 3); // Conv2d, BatchNorm2d, ReLU
            }
        }
    }

    // One structural policy chooses for models of 2, 3 and 8 blocks, learns on one and is judged
    // on the others; the original encoder refuses a model of another block count.
    void one_policy_serves_any_block_count()
    {
        auto learner = PolicyLearner::for_model(structural_sizes(), conv_model(1, 8), 5);
        QCOMPARE(learner.encoder(), config::PolicyEncoder::Structural);
        QCOMPARE(learner.actions(), std::int64_t{0});
        for (int blocks : {2, 3, 8}) {
            const auto model = conv_model(blocks - 1, 8);
            QCOMPARE(model::original_block_count(model), blocks);
            QVERIFY(learner.serves(model::ActionSpace(blocks)));
            const auto input = learner.input(model::summarize(model));
            const Choice g = learner.greedy(input, 200, 400);
            QCOMPARE(g.probabilities.size(), static_cast<std::size_t>(blocks + 1));
            double sum = 0;
            for (double p : g.probabilities)
                sum += p;
            QVERIFY(std::abs(sum - 1.0) < 1e-5);
            QCOMPARE(learner.sample(input, 200, 400, /*learn=*/false).probabilities.size(),
                     static_cast<std::size_t>(blocks + 1));
        }
        const auto two = conv_model(1, 8), eight = conv_model(7, 8), three = conv_model(2, 16);
        QCOMPARE(sim::learn(learner, table_for(two, 2), two, 300), std::int64_t{300});
        for (const auto* m : {&two, &three, &eight}) {
            const auto e = sim::evaluate(learner, table_for(*m, 2), *m);
            QCOMPARE(e.greedy.size(), std::size_t{2});
            QCOMPARE(e.probabilities.front().size(), static_cast<std::size_t>(model::original_block_count(*m) + 1));
        }
        QCOMPARE(sim::evaluate(learner, table_for(two, 2), two).greedy.front(), 0); // learned on it

        config::PolicyConfig original;
        auto fixed = PolicyLearner::for_model(original, two, 5);
        QVERIFY(fixed.serves(model::ActionSpace(2)));
        QVERIFY(!fixed.serves(model::ActionSpace(3)));
        QVERIFY(!fixed.serves(model::ActionSpace(2, {model::Operation::Widen})));
        QVERIFY_THROWS_EXCEPTION(Error, sim::evaluate(fixed, table_for(three, 2), three));
        QVERIFY(!learner.reference_autograd()); // the hand-written path, as the original encoder's
    }

    // A policy file of either encoder loads back to the same network, options and averages, and
    // goes on learning exactly as the learner it was saved from.
    void policy_files_of_both_encoders_round_trip()
    {
        const auto model = conv_model(2, 8);
        const auto table = table_for(model, 2);
        for (const auto encoder : {config::PolicyEncoder::Original, config::PolicyEncoder::Structural}) {
            config::PolicyConfig sizes;
            sizes.encoder = encoder;
            sizes.alpha = 1e-3;
            auto a = PolicyLearner::for_model(sizes, model, 11);
            LearnerOptions options = LearnerOptions::robust();
            options.normalise = true;
            options.episodes_per_update = 4; // every option a file keeps, not the preset's defaults
            a.set_options(options);
            QCOMPARE(sim::learn(a, table, model, 40), std::int64_t{40}); // whole updates of 4
            const auto file = temp_file(encoder == config::PolicyEncoder::Original ? "original.pt" : "structural.pt");
            a.save(file.string());
            auto b = PolicyLearner::load(file.string());
            std::filesystem::remove(file);
            QCOMPARE(b.encoder(), encoder);
            QCOMPARE(b.options(), options);
            QCOMPARE(b.episode(), a.episode());
            const auto pa = a.module().named_parameters(), pb = b.module().named_parameters();
            QCOMPARE(pb.size(), pa.size());
            for (const auto& t : pa)
                QVERIFY(torch::equal(t.value(), pb[t.key()]));
            QCOMPARE(sim::learn(a, table, model, 20), std::int64_t{20});
            QCOMPARE(sim::learn(b, table, model, 20), std::int64_t{20});
            for (const auto& t : a.module().named_parameters())
                QVERIFY(torch::allclose(t.value(), b.module().named_parameters()[t.key()]));
            QCOMPARE(sim::evaluate(b, table, model).probabilities, sim::evaluate(a, table, model).probabilities);
        }
    }

    void bad_learner_options_are_refused()
    {
        auto learner = PolicyLearner::for_model(structural_sizes(), conv_model(1, 8), 1);
        LearnerOptions o;
        o.normalise = true; // without a baseline
        QVERIFY_THROWS_EXCEPTION(Error, learner.set_options(o));
        o = {};
        o.episodes_per_update = 0;
        QVERIFY_THROWS_EXCEPTION(Error, learner.set_options(o));
        o = {};
        o.entropy_bonus = -1;
        QVERIFY_THROWS_EXCEPTION(Error, learner.set_options(o));
        QVERIFY(!learner_preset("fast").has_value());
        QCOMPARE(*learner_preset("robust"), LearnerOptions::robust());
        QCOMPARE(*learner_preset("original"), LearnerOptions::original());
    }

    // The entropy bonus and the averaged updates go through the hand-written path exactly as
    // through autograd: same draws, same probabilities, same parameters.
    void fast_and_reference_paths_agree_with_every_option()
    {
        const auto model = model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3);
        const auto table = table_for(model, 2);
        config::PolicyConfig sizes;
        sizes.alpha = 1e-3;
        LearnerOptions o;
        o.baseline = 0.9;
        o.normalise = true;
        o.entropy_bonus = 0.5;
        o.episodes_per_update = 3;
        PolicyLearner fast = PolicyLearner::for_model(sizes, model, 3), reference = PolicyLearner::for_model(sizes, model, 3);
        fast.set_options(o);
        reference.set_options(o);
        reference.set_reference_autograd(true);
        QCOMPARE(sim::learn(fast, table, model, 30), std::int64_t{30});
        QCOMPARE(sim::learn(reference, table, model, 30), std::int64_t{30});
        const auto pa = fast.network()->parameters(), pb = reference.network()->parameters();
        for (std::size_t i = 0; i < pa.size(); ++i)
            QVERIFY((pa[i] - pb[i]).abs().max().item<float>() <= 1e-4f);
        QCOMPARE(sim::evaluate(fast, table, model).greedy, sim::evaluate(reference, table, model).greedy);
    }

    // Both encoders score (operation, block) pairs: on a table where widening block 1 first is
    // best they learn to choose it, their files keep the operations, and a table of other
    // operations is refused.
    void both_encoders_score_operation_block_pairs()
    {
        const auto model = conv_model(2, 8); // 3 blocks: 3 deepen + 2 widen + Do Nothing
        const model::ActionSpace space(3, {model::Operation::Deepen, model::Operation::Widen});
        const int best = space.index_of(model::Operation::Widen, 1);
        QCOMPARE(best, 4);
        const auto table = table_for(model, 2, space.size(), best);
        config::PolicyConfig original;
        original.alpha = 1e-3;
        for (const config::PolicyConfig& sizes : {structural_sizes(), original}) {
            auto learner = PolicyLearner::for_model(sizes, model, 3, space);
            learner.set_options(LearnerOptions::robust());
            QVERIFY(learner.serves(space));
            QVERIFY(!learner.serves(model::ActionSpace(3)));
            const sim::LearnTask task{&table, &model, space};
            QCOMPARE(sim::learn(learner, task, 600), std::int64_t{600});
            const auto e = sim::evaluate(learner, task);
            QCOMPARE(e.probabilities.front().size(), std::size_t{6});
            QCOMPARE(e.greedy.front(), best);
            const auto file = temp_file("ops.policy");
            learner.save(file.string());
            auto back = PolicyLearner::load(file.string());
            std::filesystem::remove(file);
            QCOMPARE(back.operations(), space.operations());
            QCOMPARE(sim::evaluate(back, task).probabilities, e.probabilities);
            const auto plain = table_for(model, 2);
            try {
                sim::evaluate(learner, plain, model);
                QFAIL("a policy of deepen and widen judged a deepen-only table");
            } catch (const Error& err) {
                QVERIFY2(QString::fromUtf8(err.what()).contains("operations"), err.what());
            }
        }
    }

    // The robust preset settles on a clear optimum from every seed tried.
    void the_robust_learner_finds_the_optimum()
    {
        const auto model = model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3);
        const auto table = table_for(model, 2);
        config::PolicyConfig sizes;
        sizes.alpha = 1e-3;
        for (std::uint64_t seed : {1, 2, 3}) {
            auto learner = PolicyLearner::for_model(sizes, model, seed);
            learner.set_options(LearnerOptions::robust());
            sim::learn(learner, table, model, 600);
            QCOMPARE(sim::evaluate(learner, table, model).rank, 1);
        }
    }
};

RLDA_SUITE_APPLESS_MAIN(TestStructuralPolicy)
#include "test_structural_policy.moc"
