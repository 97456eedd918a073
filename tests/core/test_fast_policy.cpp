// The hand-written policy kernels against PolicyNet::forward, autograd and torch::optim::Adam.
#include "core/model/zoo.h"
#include "core/policy/fast_policy.h"
#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/table.h"
#include "core/util/error.h"
#include "tests/common/policy_checks.h"
#include "tests/common/suite.h"

#include <torch/optim/adam.h>

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace rlda::core;
using namespace rlda::core::agent;

using rlda::test::max_abs_diff;

namespace {

struct Architecture {
    const char* name;
    config::PolicyConfig sizes;
    std::int64_t vocabulary;
    std::int64_t actions;
};

// The paper's sizes, and odd ones that leave every loop a remainder after its 8-wide blocks.
std::vector<Architecture> architectures()
{
    config::PolicyConfig odd;
    odd.embedding_size = 5;
    odd.hidden_size = 7;
    odd.decider_lstm_size = 3;
    odd.decider_linear_size = 9;
    odd.time_encoding_size = 3;
    config::PolicyConfig wide;
    wide.embedding_size = 24;
    wide.hidden_size = 33;
    wide.decider_lstm_size = 20;
    wide.decider_linear_size = 40;
    wide.time_encoding_size = 8;
    return {{"paper", {}, 40, 4}, {"odd", odd, 11, 3}, {"wide", wide, 25, 9}};
}

torch::Tensor random_ids(std::int64_t length, std::int64_t vocabulary, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> id(0, vocabulary - 1);
    std::vector<std::int64_t> ids(static_cast<std::size_t>(length));
    for (auto& x : ids)
        x = id(rng);
    return torch::tensor(ids, torch::kLong);
}

std::span<const std::int64_t> span_of(const torch::Tensor& ids)
{
    return {ids.data_ptr<std::int64_t>(), static_cast<std::size_t>(ids.numel())};
}

void zero_grads(PolicyNet& net)
{
    for (auto& p : net->parameters())
        if (p.grad().defined())
            p.mutable_grad().zero_();
}

} // namespace

class TestFastPolicy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void logits_match_the_reference_forward()
    {
        std::uint64_t seed = 1;
        for (const auto& arch : architectures()) {
            torch::manual_seed(seed);
            PolicyNet net(arch.sizes, arch.vocabulary, arch.actions, seed);
            FastPolicy fast(net);
            PolicyTape tape;
            for (const std::int64_t length : {1, 2, 10, 19, 31}) {
                const auto ids = random_ids(length, arch.vocabulary, ++seed);
                for (const double left : {0.0, 37.5, 200.0, 399.0}) {
                    torch::NoGradGuard no_grad;
                    const auto expected = net->forward(ids, left, 400.0);
                    fast.forward(span_of(ids), left, 400.0, tape);
                    QCOMPARE(static_cast<std::int64_t>(tape.head.logits.size()), arch.actions);
                    const auto got = torch::tensor(tape.head.logits);
                    const float diff = max_abs_diff(got, expected);
                    QVERIFY2(diff <= 1e-5f, qPrintable(QString("%1, L=%2, t=%3: max |diff| %4")
                                                           .arg(arch.name)
                                                           .arg(length)
                                                           .arg(left)
                                                           .arg(diff)));
                }
            }
        }
    }

    // -(r/k) sum_j log softmax(z_j / T)[a_j] over a 3-decision episode, through autograd and by hand;
    // the second and third decisions see the same architecture (a Do Nothing), as in learning.
    void gradients_match_autograd()
    {
        std::uint64_t seed = 100;
        for (const auto& arch : architectures()) {
            torch::manual_seed(seed);
            PolicyNet net(arch.sizes, arch.vocabulary, arch.actions, seed);
            const double reward = 137.0, temperature = 2.5;
            const auto second = random_ids(17, arch.vocabulary, ++seed);
            const std::vector<torch::Tensor> layers{random_ids(14, arch.vocabulary, ++seed), second, second};
            const std::vector<double> left{330.0, 250.0, 120.0};
            const std::vector<int> actions{1, static_cast<int>(arch.actions) - 1, 0};
            const double k = static_cast<double>(layers.size());

            for (auto& p : net->parameters())
                p.mutable_grad() = torch::Tensor();
            std::vector<torch::Tensor> log_p;
            for (std::size_t j = 0; j < layers.size(); ++j)
                log_p.push_back(torch::log_softmax(net->forward(layers[j], left[j], 400.0) / temperature,
                                                   -1)[actions[j]]);
            const auto objective = -torch::stack(log_p).sum() * (reward / k);
            objective.backward();
            std::vector<torch::Tensor> expected;
            for (auto& p : net->parameters())
                expected.push_back(p.grad().clone());

            zero_grads(net);
            FastPolicy fast(net);
            std::vector<PolicyTape> tapes(layers.size());
            for (std::size_t j = 0; j < layers.size(); ++j) {
                fast.forward(span_of(layers[j]), left[j], 400.0, tapes[j]);
                const auto p = torch::softmax(torch::tensor(tapes[j].head.logits) / temperature, -1);
                std::vector<float> d_logits(static_cast<std::size_t>(arch.actions));
                for (std::size_t a = 0; a < d_logits.size(); ++a)
                    d_logits[a] = static_cast<float>(reward / k *
                                                     (p[static_cast<std::int64_t>(a)].item<double>() -
                                                      (static_cast<int>(a) == actions[j] ? 1.0 : 0.0)) /
                                                     temperature);
                fast.backward(tapes[j], d_logits);
            }
            const auto names = net->named_parameters().keys();
            const auto params = net->parameters();
            for (std::size_t i = 0; i < params.size(); ++i) {
                const auto& ref = expected[i];
                const float scale = std::max(ref.abs().max().item<float>(), 1e-3f);
                const float diff = max_abs_diff(params[i].grad(), ref);
                QVERIFY2(diff <= 1e-4f * scale, qPrintable(QString("%1 %2: max |diff| %3, max |grad| %4")
                                                               .arg(arch.name)
                                                               .arg(QString::fromStdString(names[i]))
                                                               .arg(diff)
                                                               .arg(scale)));
            }
        }
    }

    void adam_matches_torch()
    {
        torch::manual_seed(7);
        std::vector<torch::Tensor> mine{torch::randn({5, 9}), torch::randn({13})};
        std::vector<torch::Tensor> theirs;
        for (auto& t : mine) {
            theirs.push_back(t.clone().set_requires_grad(true));
            t.set_requires_grad(true);
        }
        FastAdam fast(mine, 1e-2);
        torch::optim::Adam adam(theirs, torch::optim::AdamOptions(1e-2));
        for (int step = 0; step < 20; ++step) {
            if (step == 10) { // as the learner's decay does
                fast.set_lr(5e-3);
                static_cast<torch::optim::AdamOptions&>(adam.param_groups().front().options()).lr(5e-3);
            }
            adam.zero_grad();
            for (std::size_t i = 0; i < mine.size(); ++i) {
                // Gradients of very different scales, some exactly zero.
                const auto g = torch::randn(mine[i].sizes()) * std::pow(10.0, step % 4 - 2) *
                               (torch::rand(mine[i].sizes()) > 0.2);
                mine[i].mutable_grad().copy_(g);
                theirs[i].mutable_grad() = g.clone();
            }
            fast.step_and_zero_grad();
            adam.step();
            for (const auto& t : mine)
                QCOMPARE(t.grad().abs().max().item<float>(), 0.0f);
        }
        QCOMPARE(fast.steps(), std::int64_t{20});
        for (std::size_t i = 0; i < mine.size(); ++i) {
            const float diff = max_abs_diff(mine[i].detach(), theirs[i].detach());
            QVERIFY2(diff <= 1e-6f, qPrintable(QString("parameter %1: max |diff| %2").arg(i).arg(diff)));
        }
    }

    // Same seed, same table: the fast learner and the autograd one draw the same actions with the
    // same probabilities and end with the same parameters. lr 1e-3 so that they move visibly.
    void fast_and_reference_learners_agree_on_a_reference_table()
    {
        const std::string path = RLDA_PAPER_DIR "/tables/convnet2_early.csv";
        const auto table = sim::SimulationTable::load(path);
        const auto base = model::zoo_model("ConvNet2");
        struct Log final : sim::LearnObserver {
            std::vector<sim::EpisodeRecord> episodes;
            void on_episode(const sim::EpisodeRecord& r) override { episodes.push_back(r); }
        };
        config::PolicyConfig sizes;
        sizes.alpha = 1e-3;
        const auto make = [&] {
            PolicyLearner p(Vocabulary::from_zoo(), sizes, model::original_block_count(base) + 1, 42);
            p.set_temperature(3.0);
            return p;
        };
        PolicyLearner fast = make(), reference = make();
        reference.set_reference_autograd(true);
        QVERIFY(!fast.reference_autograd());
        Log a, b;
        QCOMPARE(sim::learn(fast, table, base, 50, &a), std::int64_t{50});
        QCOMPARE(sim::learn(reference, table, base, 50, &b), std::int64_t{50});
        int shared = 0; // episodes where two decisions saw one architecture
        for (std::size_t e = 0; e < 50; ++e) {
            const auto& x = a.episodes[e];
            const auto& y = b.episodes[e];
            QCOMPARE(x.actions, y.actions);
            shared += std::count(x.actions.begin(), x.actions.end() - 1, 3) > 0 ? 1 : 0;
            QVERIFY(std::abs(x.objective - y.objective) <= 1e-4 * std::max(1.0, std::abs(y.objective)));
            for (std::size_t j = 0; j < x.probabilities.size(); ++j)
                for (std::size_t i = 0; i < x.probabilities[j].size(); ++i)
                    QVERIFY2(std::abs(x.probabilities[j][i] - y.probabilities[j][i]) <= 1e-4,
                             qPrintable(QString("episode %1 decision %2 action %3: %4 vs %5")
                                            .arg(e)
                                            .arg(j)
                                            .arg(i)
                                            .arg(x.probabilities[j][i])
                                            .arg(y.probabilities[j][i])));
        }
        QVERIFY(shared > 0);
        const auto pa = fast.network()->parameters(), pb = reference.network()->parameters();
        for (std::size_t i = 0; i < pa.size(); ++i)
            QVERIFY(max_abs_diff(pa[i].detach(), pb[i].detach()) <= 1e-4f);
        const auto e1 = sim::evaluate(fast, table, base), e2 = sim::evaluate(reference, table, base);
        QCOMPARE(e1.greedy, e2.greedy);
    }

    void replayed_decisions_learn_as_sampled_ones()
    {
        const auto model = model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3);
        config::PolicyConfig sizes;
        sizes.alpha = 1e-3;
        PolicyLearner fast(Vocabulary::from_models({model}, 2), sizes, 3, 9);
        PolicyLearner reference(Vocabulary::from_models({model}, 2), sizes, 3, 9);
        reference.set_reference_autograd(true);
        const auto layers = fast.encode(model::summarize(model).leaf_layers);
        for (int e = 0; e < 5; ++e)
            for (auto* p : {&fast, &reference}) {
                p->record(layers, 300, 400, e % 3);
                p->record(layers, 200, 400, 2);
                p->finish_episode(50.0 + e);
            }
        const auto x = fast.greedy(layers, 100, 400).probabilities;
        const auto y = reference.greedy(layers, 100, 400).probabilities;
        for (std::size_t i = 0; i < x.size(); ++i)
            QVERIFY(std::abs(x[i] - y[i]) <= 1e-5);
        // Ids as index_select takes them, not only as encode() makes them.
        QCOMPARE(fast.greedy(layers.to(torch::kInt), 100, 400).probabilities, x);
        QCOMPARE(fast.greedy(torch::stack({layers, layers}, 1).select(1, 0), 100, 400).probabilities, x);
        fast.record(layers, 300, 400, 0);
        QVERIFY_THROWS_EXCEPTION(Error, fast.set_reference_autograd(true)); // mid-episode
    }

    void bad_ids_are_refused()
    {
        torch::manual_seed(1);
        PolicyNet net(config::PolicyConfig{}, 10, 4, 1);
        FastPolicy fast(net);
        PolicyTape tape;
        const std::vector<std::int64_t> outside{1, 10};
        QVERIFY_THROWS_EXCEPTION(Error, fast.forward(outside, 1, 2, tape));
        QVERIFY_THROWS_EXCEPTION(Error, fast.forward({}, 1, 2, tape));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestFastPolicy)
#include "test_fast_policy.moc"
