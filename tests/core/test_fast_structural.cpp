// The hand-written structural kernel against StructuralNet::forward, autograd and the autograd
// learner, for the structural encoder and the state encoder (the same network reading the training
// state).
#include "core/model/zoo.h"
#include "core/policy/fast_episode.h"
#include "core/policy/fast_structural.h"
#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/table.h"
#include "core/util/error.h"
#include "tests/common/first_action_table.h"
#include "tests/common/policy_checks.h"
#include "tests/common/suite.h"

#include <fmt/format.h>

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace rlda::core;
using namespace rlda::core::agent;

using rlda::test::max_abs_diff;
using rlda::test::structural_sizes;

namespace {

using model::Operation;

// The paper's sizes, and odd ones that leave every loop a remainder after its 8-wide blocks, of
// both encoders.
std::vector<std::pair<QString, config::PolicyConfig>> sizes_to_try()
{
    std::vector<std::pair<QString, config::PolicyConfig>> out;
    for (const auto encoder : {config::PolicyEncoder::Structural, config::PolicyEncoder::State}) {
        config::PolicyConfig odd = structural_sizes(1e-3, encoder);
        odd.embedding_size = 5;
        odd.hidden_size = 7;
        odd.decider_lstm_size = 3;
        odd.decider_linear_size = 9;
        odd.time_encoding_size = 3;
        const auto name = QString::fromStdString(config::to_string(encoder));
        out.emplace_back("paper " + name, structural_sizes(1e-3, encoder));
        out.emplace_back("odd " + name, odd);
    }
    return out;
}

struct Network {
    QString label; // its sizes and operations
    StructuralNet net{nullptr};
    std::vector<Operation> ops;
};

// StructuralNets of both sizes and encoders, deepening alone and deepening and widening, seeded
// from `seed` on.
std::vector<Network> networks(std::uint64_t seed)
{
    std::vector<Network> out;
    for (const auto& [label, sizes] : sizes_to_try())
        for (const auto& ops : {std::vector<Operation>{Operation::Deepen},
                                std::vector<Operation>{Operation::Deepen, Operation::Widen}}) {
            torch::manual_seed(++seed);
            out.push_back({QString("%1, %2 ops").arg(label).arg(ops.size()), StructuralNet(sizes, ops), ops});
        }
    return out;
}

// A training state for `input`'s blocks when `net` reads one (values in the encoding's ranges,
// different for each salt), else none.
std::optional<StateEncoding> state_for(const StructuralNet& net, const torch::Tensor& input, int salt)
{
    if (!config::reads_state(net->sizes().encoder))
        return std::nullopt;
    StateEncoding s;
    const auto blocks = static_cast<std::size_t>(structural_blocks(input));
    for (std::size_t i = 0; i < blocks * kBlockStateFeatures; ++i)
        s.blocks.push_back(static_cast<float>(std::sin(0.7 * static_cast<double>(i) + salt)));
    for (std::size_t i = 0; i < kGlobalStateFeatures; ++i)
        s.globals.push_back(static_cast<float>(std::cos(1.3 * static_cast<double>(i) + salt)));
    return s;
}

const StateEncoding* pointer(const std::optional<StateEncoding>& s) { return s ? &*s : nullptr; }

torch::Tensor input_of(const model::ModelSpec& spec)
{
    return structural_input(structural_features(model::summarize(spec)));
}

std::span<const float> float_span_of(const torch::Tensor& input)
{
    return {input.data_ptr<float>(), static_cast<std::size_t>(input.numel())};
}

// Zoo models of 2 to 5 blocks (a residual one among them), one deepened and widened.
std::vector<std::pair<std::string, torch::Tensor>> grown_architectures()
{
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (const char* name : {"ConvNet", "ConvNet2", "ConvNet3", "FeedForwardNet2", "LargeConvNet", "SmallResNet"}) {
        const auto spec = model::zoo_model(name);
        out.emplace_back(fmt::format("{} ({} blocks)", name, model::original_block_count(spec)), input_of(spec));
    }
    auto grown = model::zoo_model("ConvNet2");
    model::deepen_spec(grown, 1);
    model::widen_spec(grown, 0, 2.0);
    model::deepen_spec(grown, 1);
    out.emplace_back("ConvNet2 d1 w0 d1", input_of(grown));
    return out;
}

} // namespace

class TestFastStructural : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void logits_match_the_reference_forward()
    {
        const auto archs = grown_architectures();
        for (auto& [label, net, ops] : networks(1)) {
            FastStructural fast(net);
            StructuralTape tape;
            for (const auto& [name, input] : archs)
                for (const double left : {0.0, 37.5, 399.0}) {
                    torch::NoGradGuard no_grad;
                    const auto state = state_for(net, input, static_cast<int>(left));
                    const auto expected = net->forward(input, left, 400.0, pointer(state));
                    fast.forward(float_span_of(input), left, 400.0, tape, pointer(state));
                    QCOMPARE(static_cast<std::int64_t>(tape.head.logits.size()), expected.numel());
                    const float diff = max_abs_diff(torch::tensor(tape.head.logits), expected);
                    QVERIFY2(diff <= 1e-5f, qPrintable(QString("%1, %2, t=%3: max |diff| %4")
                                                           .arg(label, QString::fromStdString(name))
                                                           .arg(left)
                                                           .arg(diff)));
                }
        }
    }

    // REINFORCE with an entropy bonus over a 5-decision episode, through autograd and through
    // FastEpisode: decisions 2-3 and 4-5 each share an architecture (Do Nothing), the others not;
    // every parameter's gradient, the embed layer's included, and the objective agree.
    void gradients_match_autograd()
    {
        const auto archs = grown_architectures();
        for (auto& [label, net, ops] : networks(100)) {
            const double advantage = 1.7, entropy = 0.3, temperature = 2.5;
            const std::vector<torch::Tensor> inputs{archs[1].second, archs[6].second, archs[6].second,
                                                    archs[5].second, archs[5].second};
            const std::vector<double> left{330.0, 250.0, 120.0, 60.0, 10.0};
            std::vector<std::optional<StateEncoding>> states; // decisions 2-3 share an architecture, not a state
            for (std::size_t j = 0; j < inputs.size(); ++j)
                states.push_back(state_for(net, inputs[j], static_cast<int>(j)));
            std::vector<int> actions;
            for (std::size_t j = 0; j < inputs.size(); ++j) {
                const auto n = model::ActionSpace(static_cast<int>(structural_blocks(inputs[j])), ops).size();
                actions.push_back(static_cast<int>((3 * j + 1) % static_cast<std::size_t>(n)));
            }
            actions.back() = model::ActionSpace(static_cast<int>(structural_blocks(inputs.back())), ops).size() - 1;

            for (auto& p : net->parameters())
                p.mutable_grad() = torch::Tensor();
            std::vector<torch::Tensor> log_p, h;
            for (std::size_t j = 0; j < inputs.size(); ++j) {
                const auto lp =
                    torch::log_softmax(net->forward(inputs[j], left[j], 400.0, pointer(states[j])) / temperature, -1);
                log_p.push_back(lp[actions[j]]);
                h.push_back(-(lp.exp() * lp).sum());
            }
            const auto objective = -torch::stack(log_p).mean() * advantage - torch::stack(h).mean() * entropy;
            objective.backward();
            std::vector<torch::Tensor> expected;
            for (auto& p : net->parameters())
                expected.push_back(p.grad().clone());

            for (auto& p : net->parameters())
                p.mutable_grad().zero_();
            FastEpisode<FastStructural> episode{FastStructural(net)};
            for (std::size_t j = 0; j < inputs.size(); ++j) {
                episode.decide(float_span_of(inputs[j]), left[j], 400.0, temperature, pointer(states[j]));
                episode.take(actions[j]);
            }
            const double got = episode.finish(advantage, entropy);
            QVERIFY(!episode.in_progress());
            QVERIFY2(std::abs(got - objective.item<double>()) <= 1e-5 * std::max(1.0, std::abs(got)),
                     qPrintable(QString("objective %1 vs %2").arg(got).arg(objective.item<double>())));
            const auto named = net->named_parameters();
            std::size_t i = 0;
            for (const auto& p : named) {
                const auto& ref = expected[i++];
                const float scale = std::max(ref.abs().max().item<float>(), 1e-3f);
                const float diff = max_abs_diff(p.value().grad(), ref);
                QVERIFY2(diff <= 1e-4f * scale, qPrintable(QString("%1, %2: max |diff| %3, max |grad| %4")
                                                               .arg(label, QString::fromStdString(p.key()))
                                                               .arg(diff)
                                                               .arg(scale)));
            }
        }
    }

    // Same seed, same table, every learner option: the fast learner and the autograd one draw the
    // same actions with the same probabilities and end with the same parameters and greedy sequence.
    void fast_and_reference_learners_agree()
    {
        const auto model = model::zoo_model("ConvNet2", {1, 8, 8}, 3);
        for (const auto& ops : {std::vector<Operation>{Operation::Deepen},
                                std::vector<Operation>{Operation::Deepen, Operation::Widen}}) {
            const model::ActionSpace space(model::original_block_count(model), ops);
            const auto table = rlda::test::first_action_table(3, space.size(), 1);
            const sim::LearnTask task{&table, &model, space};
            LearnerOptions o;
            o.baseline = 0.9;
            o.normalise = true;
            o.entropy_bonus = 0.5;
            o.episodes_per_update = 3;
            const auto make = [&] {
                auto p = PolicyLearner::for_model(structural_sizes(), model, 7, space);
                p.set_options(o);
                p.set_temperature(2.0);
                p.set_temperature_every(5);
                return p;
            };
            PolicyLearner fast = make(), reference = make();
            reference.set_reference_autograd(true);
            QVERIFY(!fast.reference_autograd());
            struct Log final : sim::LearnObserver {
                std::vector<sim::EpisodeRecord> episodes;
                void on_episode(const sim::EpisodeRecord& r) override { episodes.push_back(r); }
            };
            Log a, b;
            QCOMPARE(sim::learn(fast, task, 30, &a), std::int64_t{30});
            QCOMPARE(sim::learn(reference, task, 30, &b), std::int64_t{30});
            int shared = 0; // episodes where two decisions saw one architecture
            for (std::size_t e = 0; e < a.episodes.size(); ++e) {
                const auto& x = a.episodes[e];
                const auto& y = b.episodes[e];
                QCOMPARE(x.actions, y.actions);
                shared += std::count(x.actions.begin(), x.actions.end() - 1, space.do_nothing()) > 0 ? 1 : 0;
                QVERIFY(std::abs(x.objective - y.objective) <= 1e-4 * std::max(1.0, std::abs(y.objective)));
                for (std::size_t j = 0; j < x.probabilities.size(); ++j)
                    for (std::size_t i = 0; i < x.probabilities[j].size(); ++i)
                        QVERIFY(std::abs(x.probabilities[j][i] - y.probabilities[j][i]) <= 1e-4);
            }
            QVERIFY(shared > 0);
            const auto pa = fast.module().named_parameters(), pb = reference.module().named_parameters();
            for (const auto& t : pa)
                QVERIFY2(max_abs_diff(t.value().detach(), pb[t.key()].detach()) <= 1e-4f, t.key().c_str());
            const auto e1 = sim::evaluate(fast, task), e2 = sim::evaluate(reference, task);
            QCOMPARE(e1.greedy, e2.greedy);
            for (std::size_t j = 0; j < e1.probabilities.size(); ++j)
                for (std::size_t i = 0; i < e1.probabilities[j].size(); ++i)
                    QVERIFY(std::abs(e1.probabilities[j][i] - e2.probabilities[j][i]) <= 1e-4);
        }
    }

    // record() (a replayed sequence) and sampling without learning on the fast path: the same as
    // the reference; the path cannot change in the middle of an episode.
    void replayed_decisions_learn_as_sampled_ones()
    {
        const auto model = model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3);
        auto fast = PolicyLearner::for_model(structural_sizes(), model, 9);
        auto reference = PolicyLearner::for_model(structural_sizes(), model, 9);
        reference.set_reference_autograd(true);
        const auto input = fast.input(model::summarize(model));
        for (int e = 0; e < 5; ++e)
            for (auto* p : {&fast, &reference}) {
                p->record(input, 300, 400, e % 3);
                p->record(input, 200, 400, 2);
                p->finish_episode(50.0 + e);
            }
        const auto x = fast.greedy(input, 100, 400).probabilities;
        const auto y = reference.greedy(input, 100, 400).probabilities;
        QCOMPARE(x.size(), y.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            QVERIFY(std::abs(x[i] - y[i]) <= 1e-5);
        QCOMPARE(fast.sample(input, 100, 400, /*learn=*/false).probabilities, x);
        // Rows as the reference takes them, not only as structural_input() makes them.
        QCOMPARE(fast.greedy(input.to(torch::kDouble), 100, 400).probabilities, x);
        QCOMPARE(fast.greedy(input.t().contiguous().t(), 100, 400).probabilities, x);
        fast.record(input, 300, 400, 0);
        QVERIFY_THROWS_EXCEPTION(Error, fast.set_reference_autograd(true)); // mid-episode
        fast.finish_episode(1.0);
        fast.set_reference_autograd(true);
        fast.set_reference_autograd(false);
    }

    void bad_inputs_are_refused()
    {
        torch::manual_seed(1);
        StructuralNet net(structural_sizes());
        FastStructural fast(net);
        StructuralTape tape;
        const auto input = input_of(model::zoo_model("ConvNet2"));
        std::vector<float> rows(input.data_ptr<float>(), input.data_ptr<float>() + input.numel());
        QVERIFY_THROWS_EXCEPTION(Error, fast.forward({}, 1, 2, tape));
        QVERIFY_THROWS_EXCEPTION(Error, fast.forward(std::span<const float>(rows).first(rows.size() - 1), 1, 2, tape));
        auto bad = rows;
        bad[kLayerFeatures] = 0.5f; // not a block
        QVERIFY_THROWS_EXCEPTION(Error, fast.forward(bad, 1, 2, tape));
        bad[kLayerFeatures] = 1e6f; // more blocks than layers
        QVERIFY_THROWS_EXCEPTION(Error, fast.forward(bad, 1, 2, tape));
        bad = rows;
        for (std::size_t i = kLayerFeatures; i < bad.size(); i += kLayerFeatures + 1)
            bad[i] = -1.0f; // no block at all
        QVERIFY_THROWS_EXCEPTION(Error, fast.forward(bad, 1, 2, tape)); // ActionSpace's ModelError
        fast.forward(rows, 1, 2, tape); // still usable
        QCOMPARE(static_cast<int>(tape.head.logits.size()), model::original_block_count(model::zoo_model("ConvNet2")) + 1);

        // A training state: refused by the structural encoder, required by the state encoder, and
        // its block count must be the architecture's.
        StructuralNet reads(structural_sizes(1e-3, config::PolicyEncoder::State));
        FastStructural with_state(reads);
        const auto state = state_for(reads, input, 1);
        QVERIFY_THROWS_EXCEPTION(Error, fast.forward(rows, 1, 2, tape, pointer(state)));
        QVERIFY_THROWS_EXCEPTION(Error, net->forward(input, 1, 2, pointer(state)));
        QVERIFY_THROWS_EXCEPTION(Error, with_state.forward(rows, 1, 2, tape));
        QVERIFY_THROWS_EXCEPTION(Error, reads->forward(input, 1, 2));
        auto short_state = *state;
        short_state.blocks.resize(short_state.blocks.size() - kBlockStateFeatures);
        QVERIFY_THROWS_EXCEPTION(Error, with_state.forward(rows, 1, 2, tape, &short_state));
        QVERIFY_THROWS_EXCEPTION(Error, reads->forward(input, 1, 2, &short_state));
        with_state.forward(rows, 1, 2, tape, pointer(state));
        QCOMPARE(static_cast<int>(tape.head.logits.size()), model::original_block_count(model::zoo_model("ConvNet2")) + 1);
    }
};

RLDA_SUITE_GUILESS_MAIN(TestFastStructural)
#include "test_fast_structural.moc"
