// The policy network, REINFORCE and simulation-driven learning, on small hand-made tables.
#include "core/model/zoo.h"
#include "core/policy/reinforce.h"
#include "core/sim/learn.h"
#include "core/table/table.h"
#include "core/util/error.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <cmath>
#include <numbers>

using namespace rlda::core;
using namespace rlda::core::agent;

namespace {

// FeedForwardNet2 has 2 blocks: 3 actions per decision.
model::ModelSpec small_model() { return model::zoo_model("FeedForwardNet2", {1, 4, 4}, 3); }

PolicyLearner small_learner(std::uint64_t seed, double alpha = 1e-4)
{
    config::PolicyConfig sizes;
    sizes.alpha = alpha;
    return PolicyLearner(Vocabulary::from_models({small_model()}, 2), sizes, 3, seed);
}

// k = 2 decisions over 3 actions; [1 0] is clearly best.
sim::SimulationTable small_table()
{
    sim::SimulationTable t(2, 3);
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            const double acc = (a == 1 && b == 0) ? 0.80 : 0.50 + 0.02 * (a + b);
            t.add({{a, b}, {300.0 - a, 280.0 - b}, 400.0, acc});
        }
    return t;
}

} // namespace

class TestPolicy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void time_encoding_values()
    {
        const auto v = time_encoding(100.0, 400.0, 8); // a quarter of the budget left
        QCOMPARE(v.size(), std::size_t{8});
        QVERIFY(std::abs(v[0] - 5.0f) < 1e-6f);  // 5 sin(pi/2)
        QVERIFY(std::abs(v[1]) < 1e-6f);         // 5 sin(pi)
        QVERIFY(std::abs(v[2] + 5.0f) < 1e-6f);  // 5 sin(3pi/2)
        const auto w = time_encoding(50.0, 400.0, 1);
        QVERIFY(std::abs(w[0] - 5.0f * static_cast<float>(std::sin(std::numbers::pi / 4))) < 1e-6f);
        for (float x : time_encoding(400.0, 400.0, 8)) // all left: sin(2 pi i) = 0
            QVERIFY(std::abs(x) < 1e-5f);
    }

    // The paper's reward, 100 tan(pi a / 2), by its properties rather than by typing it again: 0 at
    // no accuracy, 100 at a half, growing ever faster, and tan's reflection tan(pi/2 - t) = 1 / tan t,
    // so that the rewards of a and 1 - a multiply to 100^2; 100 / sqrt 3 at a third (tan 30°).
    void reward_values()
    {
        QCOMPARE(reward(0.0), 0.0);
        QVERIFY(std::abs(reward(0.5) - 100.0) < 1e-9);
        QVERIFY(std::abs(reward(1.0 / 3.0) - 100.0 / std::sqrt(3.0)) < 1e-9);
        for (double a : {0.1, 0.25, 0.4, 0.7194, 0.9})
            QVERIFY2(std::abs(reward(a) * reward(1.0 - a) - 1e4) < 1e-6, qPrintable(QString::number(a)));
        for (double a = 0.05; a < 0.9; a += 0.05) {
            QVERIFY(reward(a + 0.05) > reward(a));                                   // growing
            QVERIFY(reward(a + 0.05) - reward(a) > reward(a) - reward(a - 0.05) - 1e-12); // ever faster
        }
    }

    void higher_reward_makes_its_action_more_likely()
    {
        PolicyLearner p = small_learner(5, 1e-3);
        const auto layers = p.encode(model::summarize(small_model()).leaf_layers);
        const auto before = p.greedy(layers, 200, 400).probabilities;
        // One update: the gradient of -log p(a) r raises p(a) (every reward is positive).
        p.record(layers, 200, 400, 2);
        p.finish_episode(50.0);
        const auto once = p.greedy(layers, 200, 400).probabilities;
        QVERIFY2(once[2] > before[2], qPrintable(QString("%1 -> %2").arg(before[2]).arg(once[2])));
        // Action 0 earns 300, action 1 earns 10, in turns: 0 gains on 1.
        for (int i = 0; i < 10; ++i) {
            p.record(layers, 200, 400, 0);
            p.finish_episode(300.0);
            p.record(layers, 200, 400, 1);
            p.finish_episode(10.0);
        }
        const auto after = p.greedy(layers, 200, 400).probabilities;
        QVERIFY2(after[0] / after[1] > once[0] / once[1],
                 qPrintable(QString("p0/p1 %1 -> %2").arg(once[0] / once[1]).arg(after[0] / after[1])));
        QVERIFY(after[0] > after[1]);
    }

    void save_and_load_give_identical_probabilities()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("policy.pt").toStdString();
        PolicyLearner p = small_learner(3, 1e-3);
        const auto table = small_table();
        sim::learn(p, table, small_model(), 25);
        p.set_temperature(7.5);
        p.save(path);
        PolicyLearner q = PolicyLearner::load(path);
        QCOMPARE(q.episode(), std::int64_t{25});
        QCOMPARE(q.temperature(), 7.5);
        QCOMPARE(q.vocabulary().words(), p.vocabulary().words());
        const auto layers = p.encode(model::summarize(small_model()).leaf_layers);
        QCOMPARE(q.greedy(layers, 123, 400).probabilities, p.greedy(layers, 123, 400).probabilities);
        // Learning goes on identically: optimizer state and sampling RNG came along.
        sim::learn(p, table, small_model(), 10);
        sim::learn(q, table, small_model(), 10);
        QCOMPARE(q.greedy(layers, 50, 400).probabilities, p.greedy(layers, 50, 400).probabilities);
        QVERIFY_THROWS_EXCEPTION(Error, PolicyLearner::load(dir.filePath("missing.pt").toStdString()));
    }

    void unknown_layer_goes_to_the_unknown_id()
    {
        const Vocabulary v = Vocabulary::from_zoo();
        QVERIFY(v.size() > 15);
        QVERIFY(v.id("Conv2d(32, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))") != Vocabulary::kUnknown);
        QVERIFY(v.id("Linear(in_features=10, out_features=10, bias=True)") != Vocabulary::kUnknown); // a deepening
        std::vector<std::string> unknown;
        const auto ids = v.encode({"ReLU()", "Conv7d(1, 2)"}, &unknown);
        QCOMPARE(ids[1], Vocabulary::kUnknown);
        QVERIFY(ids[0] != Vocabulary::kUnknown);
        QCOMPARE(unknown, std::vector<std::string>{"Conv7d(1, 2)"});
        QCOMPARE(v.words().front(), std::string("<unk>"));
    }

    void greedy_policy_finds_the_best_sequence()
    {
        PolicyLearner p = small_learner(42, 1e-3);
        const auto table = small_table();
        const auto base = small_model();
        sim::learn(p, table, base, 600);
        const sim::Evaluation e = sim::evaluate(p, table, base);
        QCOMPARE(e.greedy, (std::vector<int>{1, 0}));
        QCOMPARE(e.rank, 1);
        QCOMPARE(e.regret, 0.0);
        QCOMPARE(e.sequences, 9);
        QCOMPARE(e.no_adaptation, 0.5 + 0.02 * 4);
    }

    void reward_baseline_option_learns_and_is_saved()
    {
        PolicyLearner p = small_learner(42, 1e-3);
        QCOMPARE(p.reward_baseline_decay(), 0.0); // off unless asked: the original has none
        QVERIFY_THROWS_EXCEPTION(Error, p.set_reward_baseline(1.0));
        p.set_reward_baseline(0.9);
        const auto table = small_table();
        sim::learn(p, table, small_model(), 600);
        QCOMPARE(sim::evaluate(p, table, small_model()).greedy, (std::vector<int>{1, 0}));
        QTemporaryDir dir;
        const std::string path = dir.filePath("policy.pt").toStdString();
        p.save(path);
        PolicyLearner q = PolicyLearner::load(path);
        QCOMPARE(q.reward_baseline_decay(), 0.9);
        // The moving average came along too: both learn on identically.
        sim::learn(p, table, small_model(), 10);
        sim::learn(q, table, small_model(), 10);
        const auto layers = p.encode(model::summarize(small_model()).leaf_layers);
        QCOMPARE(q.greedy(layers, 50, 400).probabilities, p.greedy(layers, 50, 400).probabilities);
    }

    void temperature_acts_on_logits_and_decays_to_one()
    {
        const auto logits = torch::tensor({1.0f, 2.0f, 3.0f});
        const auto p1 = action_probabilities(logits, 1.0), p10 = action_probabilities(logits, 10.0);
        QVERIFY(p10.max().item<float>() < p1.max().item<float>()); // flatter when hotter
        QVERIFY(std::abs(p10.sum().item<float>() - 1.0f) < 1e-6f);
        config::PolicyConfig sizes;
        sizes.decay_freq = 5;
        PolicyLearner p(Vocabulary::from_models({small_model()}, 2), sizes, 3, 1);
        p.set_temperature(2.0);
        sim::learn(p, small_table(), small_model(), 5);
        QCOMPARE(p.temperature(), 1.8);
        QVERIFY(std::abs(p.lr() - 1e-4 * 0.99) < 1e-12);
        sim::learn(p, small_table(), small_model(), 50);
        QCOMPARE(p.temperature(), 1.0); // never below 1
    }

    void temperature_can_decay_on_its_own_interval()
    {
        // The original code decayed the temperature every episode (temp_decay_freq = 1) while the
        // learning rate decayed every decay_freq: the two intervals are separate settings.
        config::PolicyConfig sizes;
        sizes.decay_freq = 5;
        PolicyLearner p(Vocabulary::from_models({small_model()}, 2), sizes, 3, 1);
        p.set_temperature(100.0);
        p.set_temperature_every(1);
        sim::learn(p, small_table(), small_model(), 3);
        QVERIFY(std::abs(p.temperature() - 100.0 * 0.9 * 0.9 * 0.9) < 1e-9);
        QVERIFY(std::abs(p.lr() - 1e-4) < 1e-15); // the learning rate still waits for decay_freq
        sim::learn(p, small_table(), small_model(), 2);
        QVERIFY(std::abs(p.lr() - 1e-4 * 0.99) < 1e-12);

        QTemporaryDir dir;
        const std::string path = dir.filePath("policy.pt").toStdString();
        p.save(path);
        PolicyLearner q = PolicyLearner::load(path);
        QCOMPARE(q.temperature_every(), std::int64_t{1});
        sim::learn(q, small_table(), small_model(), 1);
        QVERIFY(std::abs(q.temperature() - p.temperature() * 0.9) < 1e-9);
        QVERIFY_THROWS_EXCEPTION(Error, q.set_temperature_every(-1));
    }

    void policy_for_another_action_count_is_refused()
    {
        PolicyLearner p = small_learner(1);
        sim::SimulationTable four(2, 4);
        QVERIFY_THROWS_EXCEPTION(Error, sim::learn(p, four, model::zoo_model("ConvNet2"), 1));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestPolicy)
#include "test_policy.moc"
