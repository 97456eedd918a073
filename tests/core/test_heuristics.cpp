// The growth heuristics (core/agent/heuristics.h) on features whose answer is known, their kinds in
// the config, and their judgement on a table (core/table/agent_eval.h): the sequence walked node by
// node with each seed's features, its rank and interval, and `rlda evaluate --agent`.
#include "core/agent/from_config.h"
#include "core/agent/heuristics.h"
#include "core/config/experiment_io.h"
#include "core/config/schema.h"
#include "core/config/validate.h"
#include "core/model/zoo.h"
#include "core/table/agent_eval.h"
#include "core/table/judge.h"
#include "core/table/open_table.h"
#include "core/table/reliability.h"
#include "core/transfer/lineup.h"
#include "core/util/csv.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"
#include "tests/common/config_error.h"
#include "tests/common/error_of.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <limits>

using rlda::test::qerror_of;

namespace agent = rlda::core::agent;
namespace config = rlda::core::config;
namespace model = rlda::core::model;
namespace run = rlda::core::run;
namespace sim = rlda::core::sim;

namespace {

// Features of `blocks` blocks: block b's squared gradient grad[b], its loss drop drop[b].
agent::DecisionFeatures features(const std::vector<double>& grad, const std::vector<double>& drop,
                                 double accuracy_change = 0.0)
{
    agent::DecisionFeatures f;
    for (std::size_t b = 0; b < grad.size(); ++b) {
        agent::BlockFeatures block;
        block.parameters = 100;
        block.grad_sq_mean = grad[b];
        block.loss_drop = drop[b];
        f.blocks.push_back(block);
    }
    f.test_accuracy_change = accuracy_change;
    return f;
}

// One decision of FeedForwardNet3 (3 original blocks) over `actions`.
struct Decide {
    model::ModelSummary summary = model::summarize(model::zoo_model("FeedForwardNet3"));
    model::ActionSpace actions{3};

    int operator()(agent::Agent& a, const agent::DecisionFeatures* f, int decision = 0) const
    {
        const agent::DecisionContext c{summary, actions, decision, 10.0, 100.0, f};
        return a.decide(c).action;
    }
};

// A complete table of 2 decisions over FeedForwardNet2's 3 actions (deepen block 0 or 1, nothing);
// accuracy(seq, seed index) of each row. With `seeds`, a replicated table of those seeds.
sim::SimulationTable table(const std::function<double(const std::vector<int>&, std::size_t)>& accuracy,
                           const std::vector<std::uint64_t>& seeds = {})
{
    sim::SimulationTable t(2, 3);
    t.set_seeds(seeds);
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            sim::TableRow row{{a, b}, {50.0, 40.0}, 100.0, 0.0, {}};
            if (seeds.empty()) {
                row.accuracy = accuracy(row.actions, 0);
            } else {
                double sum = 0.0;
                for (std::size_t i = 0; i < seeds.size(); ++i) {
                    row.replicates.push_back(accuracy(row.actions, i));
                    sum += row.replicates.back();
                }
                row.accuracy = sum / static_cast<double>(seeds.size());
            }
            t.add(row);
        }
    return t;
}

// Accuracies with one best row, (1 0), and every row apart.
double spread_out(const std::vector<int>& s, std::size_t seed)
{
    const int code = s[0] * 3 + s[1];
    return (code == 3 ? 0.9 : 0.5 + 0.01 * ((code * 5) % 9)) + 0.001 * static_cast<double>(seed);
}

} // namespace

class TestHeuristics : public QObject {
    Q_OBJECT

    model::ModelSpec ffn2_ = model::zoo_model("FeedForwardNet2");

    sim::LearnTask task(const sim::SimulationTable& t, const sim::TableFeatures* f) const
    {
        return {&t, &ffn2_, model::ActionSpace(2), sim::RewardDraw::Replicate, 0, f};
    }

private Q_SLOTS:
    void gradient_takes_the_largest_gradient_norm_per_parameter()
    {
        Decide decide;
        agent::GradientAgent a;
        QVERIFY(a.reads_features());
        QCOMPARE(QString::fromStdString(a.name()), QStringLiteral("gradient"));
        auto f = features({1.0, 9.0, 4.0}, {0.0, 0.0, 0.0});
        QCOMPARE(decide(a, &f), 1);
        // Ties go to the lowest block; a NaN never wins.
        f = features({4.0, 4.0, 1.0}, {0.0, 0.0, 0.0});
        QCOMPARE(decide(a, &f), 0);
        f = features({std::numeric_limits<double>::quiet_NaN(), 1.0, 1.0}, {0.0, 0.0, 0.0});
        QCOMPARE(decide(a, &f), 1);
        // Never Do Nothing: all zero is a tie at block 0.
        f = features({0.0, 0.0, 0.0}, {0.0, 0.0, 0.0});
        QCOMPARE(decide(a, &f), 0);
    }

    void loss_drop_takes_the_largest_drop()
    {
        Decide decide;
        agent::LossDropAgent a;
        QVERIFY(a.reads_features());
        QCOMPARE(QString::fromStdString(a.name()), QStringLiteral("loss-drop"));
        auto f = features({9.0, 0.0, 0.0}, {0.1, 0.2, 0.05});
        QCOMPARE(decide(a, &f), 1);
        f = features({9.0, 0.0, 0.0}, {0.1, 0.3, 0.3});
        QCOMPARE(decide(a, &f), 1); // the tie between 1 and 2: the lower
    }

    void first_and_last_need_no_features()
    {
        Decide decide;
        agent::EndBlockAgent first(agent::EndBlockAgent::End::First), last(agent::EndBlockAgent::End::Last);
        QVERIFY(!first.reads_features() && !last.reads_features());
        QCOMPARE(QString::fromStdString(first.name()), QStringLiteral("first"));
        QCOMPARE(QString::fromStdString(last.name()), QStringLiteral("last"));
        QCOMPARE(decide(first, nullptr), 0);
        QCOMPARE(decide(last, nullptr), 2);
        // Deepen and widen: the first operation's (deepen's) targets, as in a deepen-only space.
        decide.actions = model::ActionSpace(3, {model::Operation::Deepen, model::Operation::Widen});
        QCOMPARE(decide(first, nullptr), 0);
        QCOMPARE(decide(last, nullptr), 2);
        // Widen alone: its targets are blocks 0..1 (the last block's outputs are the classes).
        decide.actions = model::ActionSpace(3, {model::Operation::Widen});
        QCOMPARE(decide(last, nullptr), decide.actions.index_of(model::Operation::Widen, 1));
    }

    void grow_while_improving_grows_in_turn_while_accuracy_rises()
    {
        Decide decide;
        agent::GrowWhileImprovingAgent a(0.001);
        QVERIFY(a.reads_features());
        auto f = features({1.0, 9.0, 4.0}, {0.0, 0.0, 0.0}, 0.002);
        QCOMPARE(decide(a, &f, 0), 0); // round-robin: decision j grows block j mod 3
        QCOMPARE(decide(a, &f, 1), 1);
        QCOMPARE(decide(a, &f, 4), 1);
        // Not more than the threshold, no change, a drop or no number: Do Nothing.
        for (const double change : {0.001, 0.0, -0.05, std::numeric_limits<double>::quiet_NaN()}) {
            f.test_accuracy_change = change;
            QCOMPARE(decide(a, &f, 0), 3);
        }
        agent::GrowWhileImprovingAgent any(0.0);
        f.test_accuracy_change = 1e-9;
        QCOMPARE(decide(any, &f, 2), 2);
    }

    void feature_readers_refuse_a_decision_without_features_in_one_line()
    {
        Decide decide;
        agent::GradientAgent g;
        agent::LossDropAgent l;
        agent::GrowWhileImprovingAgent w(0.001);
        for (agent::Agent* a : std::vector<agent::Agent*>{&g, &l, &w}) {
            const QString e = qerror_of([&] { decide(*a, nullptr); });
            QVERIFY2(e.startsWith(QStringLiteral("agent %1: no decision features").arg(QString::fromStdString(a->name()))),
                     qPrintable(e));
            QVERIFY(!e.contains('\n'));
            // Features of another model (2 blocks for 3).
            const auto two = features({1.0, 2.0}, {1.0, 2.0}, 1.0);
            QCOMPARE(qerror_of([&] { decide(*a, &two); }),
                     QStringLiteral("agent %1: the decision features hold 2 blocks, the model has 3")
                         .arg(QString::fromStdString(a->name())));
        }
    }

    // make_agent builds every heuristic kind under its own name, and only the feature readers ask
    // the trainer to measure.
    void make_agent_names_each_kind()
    {
        int heuristics = 0;
        for (const auto& [kind, name] : config::name_table<config::AgentKind>()) {
            if (!rlda::core::agent::is_heuristic(kind))
                continue;
            ++heuristics;
            config::AgentConfig c;
            c.kind = kind;
            const auto a = rlda::core::agent::make_rule_agent(c);
            QCOMPARE(a->name(), name);
            QCOMPARE(a->reads_features(), kind != config::AgentKind::First && kind != config::AgentKind::Last);
        }
        QCOMPARE(heuristics, 5);
        config::AgentConfig c;
        c.kind = config::AgentKind::GrowWhileImproving;
        c.threshold = 0.25;
        const auto a = rlda::core::agent::make_rule_agent(c);
        QCOMPARE(dynamic_cast<agent::GrowWhileImprovingAgent&>(*a).threshold(), 0.25);
    }

    void kinds_and_threshold_round_trip_through_the_config()
    {
        for (const char* kind : {"gradient", "loss-drop", "first", "last", "grow-while-improving"}) {
            const auto c = config::parse_experiment(
                QStringLiteral("[agent]\nkind = \"%1\"\nthreshold = 0.0025\n").arg(kind).toStdString(), "x.toml");
            QCOMPARE(config::to_string(c.agent.kind), std::string(kind));
            QCOMPARE(c.agent.threshold, 0.0025);
            QVERIFY(config::find_problems(c).empty());
            const auto back = config::parse_experiment(config::to_toml(c), "y.toml");
            QVERIFY(back.agent == c.agent);
        }
        QCOMPARE(config::AgentConfig{}.threshold, 0.001);
        QVERIFY(QString::fromStdString(config::to_toml(config::ExperimentConfig{})).contains("\nthreshold = 0.001 "));
        QCOMPARE(rlda::test::parse_error("[agent]\nthreshold = 2\n"),
                 QStringLiteral("x.toml:2:13: agent.threshold: must be in [0, 1], got 2"));
        config::ExperimentConfig c;
        config::apply_overrides(c, {"agent.kind=\"grow-while-improving\"", "agent.threshold=0.01"});
        QVERIFY(c.agent.kind == config::AgentKind::GrowWhileImproving);
        QCOMPARE(c.agent.threshold, 0.01);
        QVERIFY(rlda::test::parse_error("[agent]\nkind = \"gradmax\"\n").contains("unknown value \"gradmax\""));
    }

    // The walk follows the agent node by node: the features at the root send it to block 1, those
    // at [1] to block 0; the features at [0], which would say otherwise, are never read.
    void a_table_judges_the_sequence_walked_with_each_nodes_features()
    {
        const auto t = table(spread_out);
        sim::TableFeatures f;
        f.add(42, {}, features({1.0, 4.0}, {0.0, 0.0}));
        f.add(42, {1}, features({4.0, 1.0}, {0.0, 0.0}));
        f.add(42, {0}, features({1.0, 4.0}, {0.0, 0.0}));
        agent::GradientAgent g;
        const auto walk = task(t, &f);
        QCOMPARE(sim::feature_seeds(walk), (std::vector<std::uint64_t>{42}));
        QCOMPARE(sim::follow_agent(g, walk, 42), (std::vector<int>{1, 0}));
        const auto e = sim::evaluate_agent(g, walk, 7);
        QCOMPARE(e.greedy, (std::vector<int>{1, 0}));
        QCOMPARE(e.rank, 1);
        QCOMPARE(e.accuracy, 0.9);
        QVERIFY(e.seed_sequences.empty());
        QVERIFY(!e.reliability.known());
        // Exactly what a policy's greedy sequence (1 0) gets: rank, regret and the baselines.
        const auto same = sim::evaluate_sequence(t, {1, 0}, 7);
        QCOMPARE(e.rank, same.rank);
        QCOMPARE(e.random_mean, same.random_mean);
        QCOMPARE(e.no_adaptation, same.no_adaptation);
        QCOMPARE(e.optimal_sequence, same.optimal_sequence);
        // A node on the path without features: named, with its seed.
        sim::TableFeatures root_only;
        root_only.add(42, {}, features({1.0, 4.0}, {0.0, 0.0}));
        QCOMPARE(qerror_of([&] { sim::evaluate_agent(g, task(t, &root_only)); }),
                 QStringLiteral("simulation table: no decision features at the node [1] under seed 42"));
        // Loss drop and grow-while-improving at the same nodes.
        f = {};
        f.add(42, {}, features({0.0, 0.0}, {0.5, 0.1}, 0.01));
        f.add(42, {0}, features({0.0, 0.0}, {0.1, 0.5}, 0.0));
        agent::LossDropAgent l;
        QCOMPARE(sim::evaluate_agent(l, task(t, &f)).greedy, (std::vector<int>{0, 1}));
        agent::GrowWhileImprovingAgent w(0.001);
        const auto grown = sim::evaluate_agent(w, task(t, &f));
        QCOMPARE(grown.greedy, (std::vector<int>{0, 2})); // grows block 0, then stops improving
        QCOMPARE(grown.rank, t.rank({0, 2}));
    }

    // Ties on a shipped table are compared as the decimals it holds: what loss-drop earns at
    // WideConvNet4 middle's seeds equals two rows' means exactly, and shares their rank, 3 (float
    // sums once put it 4th).
    void a_shipped_tie_shares_its_rank()
    {
        const auto opened =
            sim::open_table(rlda::core::fashion_mnist_tables_dir() / "wideconvnet4_middle.csv");
        agent::LossDropAgent l;
        QCOMPARE(sim::evaluate_agent(l, sim::learn_task(opened)).rank, 3);
    }

    void a_table_without_features_refuses_feature_readers_but_not_first_and_last()
    {
        const auto t = table(spread_out);
        agent::GradientAgent g;
        const sim::TableFeatures none;
        for (const sim::TableFeatures* f : {static_cast<const sim::TableFeatures*>(nullptr), &none})
            QCOMPARE(qerror_of([&] { sim::evaluate_agent(g, task(t, f)); }),
                     QStringLiteral(
                         "simulation table has no decision features (features.csv); build it again with "
                         "rlda simulate to record them"));
        // A replicated table built fused records none however often it is built again: the advice
        // names the setting that records them (issue 42, item 25).
        const auto replicated = table(spread_out, {1, 2});
        QCOMPARE(
            qerror_of([&] { sim::evaluate_agent(g, task(replicated, nullptr)); }),
            QStringLiteral("simulation table has no decision features (features.csv); build it again with "
                           "rlda simulate to record them, with sweep.fused = \"off\" (a fused build "
                           "records none)"));
        agent::EndBlockAgent last(agent::EndBlockAgent::End::Last);
        const auto e = sim::evaluate_agent(last, task(t, nullptr));
        QCOMPARE(e.greedy, (std::vector<int>{1, 1}));
        QCOMPARE(e.rank, t.rank({1, 1}));
        // From a config, as the study calls it; a policy is refused, naming where it is judged.
        config::AgentConfig first;
        first.kind = config::AgentKind::First;
        QCOMPARE(sim::evaluate_agent(first, task(t, nullptr)).greedy, (std::vector<int>{0, 0}));
        config::AgentConfig policy;
        policy.kind = config::AgentKind::Policy;
        QVERIFY(qerror_of([&] {
                    sim::evaluate_agent(policy, task(t, nullptr));
                }).contains("rlda evaluate --policy"));
    }

    // A replicated table: each seed is walked with its own features. When the seeds agree, the
    // agent is judged as a policy's sequence; when they differ, by what each seed's sequence earned.
    void a_replicated_table_walks_each_seed()
    {
        const std::vector<std::uint64_t> seeds{1, 2, 3};
        const auto t = table(spread_out, seeds);
        sim::TableFeatures agree;
        for (const auto s : seeds) {
            agree.add(s, {}, features({1.0, 4.0}, {0.0, 0.0}));
            agree.add(s, {1}, features({4.0, 1.0}, {0.0, 0.0}));
        }
        agent::GradientAgent g;
        const auto e = sim::evaluate_agent(g, task(t, &agree), 5);
        QCOMPARE(e.greedy, (std::vector<int>{1, 0}));
        QVERIFY(e.seed_sequences.empty());
        auto policy = sim::evaluate_sequence(t, {1, 0}, 5);
        sim::add_seed_statistics(policy, t, 5);
        QCOMPARE(e.rank, policy.rank);
        QCOMPARE(e.greedy_spread.low, policy.greedy_spread.low);
        QCOMPARE(e.greedy_spread.high, policy.greedy_spread.high);
        QCOMPARE(e.greedy_spread.best_share, policy.greedy_spread.best_share);
        QCOMPARE(e.replicates, 3);

        // Seed 3's features send it to block 0 first, then block 0 again: (0 0).
        sim::TableFeatures differ;
        for (const auto s : {std::uint64_t{1}, std::uint64_t{2}}) {
            differ.add(s, {}, features({1.0, 4.0}, {0.0, 0.0}));
            differ.add(s, {1}, features({4.0, 1.0}, {0.0, 0.0}));
        }
        differ.add(3, {}, features({4.0, 1.0}, {0.0, 0.0}));
        differ.add(3, {0}, features({4.0, 1.0}, {0.0, 0.0}));
        const auto m = sim::evaluate_agent(g, task(t, &differ), 5);
        QCOMPARE(m.seed_sequences, (std::vector<std::vector<int>>{{1, 0}, {1, 0}, {0, 0}}));
        QCOMPARE(m.greedy, (std::vector<int>{1, 0})); // the most frequent
        const double own = (spread_out({1, 0}, 0) + spread_out({1, 0}, 1) + spread_out({0, 0}, 2)) / 3.0;
        QCOMPARE(m.accuracy, own);
        QCOMPARE(m.regret, m.optimal - own);
        int higher = 0;
        for (const auto& row : t.rows())
            higher += row.accuracy > own ? 1 : 0;
        QCOMPARE(m.rank, 1 + higher);
        QCOMPARE(m.rank, 2); // below (1 0) alone
        QVERIFY(m.greedy_spread.low <= m.rank && m.rank <= m.greedy_spread.high);
        QCOMPARE(m.optimal_spread.low, policy.optimal_spread.low); // the baselines are the table's
        QCOMPARE(m.best_set, policy.best_set);
    }

    // The bootstrap of a candidate equal to a row is that row's: the same resamples, the same ties.
    void a_candidate_equal_to_a_row_gets_its_interval()
    {
        sim::ReplicateAccuracies r;
        r.seeds = {1, 2, 3, 4};
        r.accuracy = {{0.5, 0.6, 0.6, 0.4}, {0.55, 0.5, 0.62, 0.4}, {0.6, 0.61, 0.5, 0.4}, {0.5, 0.5, 0.5, 0.45}};
        const auto b = sim::bootstrap_ranks(r, 500, 9);
        for (std::size_t s = 0; s < r.sequences(); ++s) {
            std::vector<double> row;
            for (const auto& seed : r.accuracy)
                row.push_back(seed[s]);
            const auto c = sim::bootstrap_candidate(r, row, 500, 9);
            QCOMPARE(c.rank, b.mean_rank[s]);
            QCOMPARE(c.low, b.rank_low[s]);
            QCOMPARE(c.high, b.rank_high[s]);
            QCOMPARE(c.best_share, b.best_share[s]);
        }
        // Above every row at every seed: always the best, rank 1.
        const auto top = sim::bootstrap_candidate(r, {0.9, 0.9, 0.9, 0.9}, 500, 9);
        QCOMPARE(top.best_share, 1.0);
        QCOMPARE(top.high, 1);
    }

    // Every agent on one table (rlda evaluate --agent all, the Policy page's Every agent tab): each
    // row is the agent's own evaluation, the verdict is the confidence set's, and no verdict is
    // given where the seeds cannot test one (issue 43, item 20).
    void every_agent_on_one_table()
    {
        const std::vector<std::uint64_t> seeds{1, 2, 3};
        const auto noisy = [](const std::vector<int>& s, std::size_t seed) {
            return spread_out(s, seed) + 0.002 * static_cast<double>((s[0] * 7 + s[1] * 5 + seed * 3) % 4);
        };
        const auto t = table(noisy, seeds);
        sim::TableFeatures f;
        for (const auto s : seeds) {
            f.add(s, {}, features({1.0, 4.0}, {0.0, 0.0}));
            for (int a = 0; a < 3; ++a)
                f.add(s, {a}, features({4.0, 1.0}, {0.0, 0.0}));
        }
        auto policy = sim::evaluate_sequence(t, {1, 0}, 5);
        sim::add_seed_statistics(policy, t, 5);
        const auto lineup = run::judge_lineup(task(t, &f), policy, true, 5);
        QStringList agents;
        for (const auto& e : lineup.entries)
            agents << QString::fromStdString(e.agent);
        QCOMPARE(
            agents.join(' '),
            QStringLiteral("policy gradient loss-drop first last grow-while-improving none optimal random"));
        QCOMPARE(lineup.sequences, 9);
        QCOMPARE(lineup.replicates, 3);
        QCOMPARE(lineup.best_set, (std::vector<std::vector<int>>{{1, 0}})); // (1 0) is far ahead
        QVERIFY(!lineup.best_set_all);

        const auto& p = lineup.entries.front();
        QVERIFY(p.in_sample);
        QCOMPARE(p.sequences, (std::vector<std::vector<int>>{{1, 0}}));
        QCOMPARE(p.rank, 1.0);
        QCOMPARE(run::lineup_verdict(lineup, p), std::string("cannot be told from the best"));
        // A heuristic's row is what evaluate_agent says of it, under the same seed.
        config::AgentConfig last;
        last.kind = config::AgentKind::Last;
        const auto e = sim::evaluate_agent(last, task(t, &f), 5);
        const auto& l = lineup.entries[4];
        QCOMPARE(l.sequences, (std::vector<std::vector<int>>{e.greedy}));
        QCOMPARE(l.rank, static_cast<double>(e.rank));
        QCOMPARE(l.rank_low, e.greedy_spread.low);
        QCOMPARE(l.rank_high, e.greedy_spread.high);
        QCOMPARE(l.accuracy, e.accuracy);
        QCOMPARE(l.among_best, e.greedy_among_best);
        QCOMPARE(run::lineup_verdict(lineup, l), std::string("below the best"));
        QCOMPARE(lineup.entries[7].sequences, (std::vector<std::vector<int>>{{1, 0}})); // optimal
        QCOMPARE(lineup.entries[6].sequences, (std::vector<std::vector<int>>{{2, 2}})); // none
        const auto& random = lineup.entries.back();
        QCOMPARE(random.rank, 5.0); // (9 + 1) / 2: no ties
        QCOMPARE(random.rank_low, 1);
        QCOMPARE(random.rank_high, 9);
        QCOMPARE(run::lineup_verdict(lineup, random), std::string("by chance: in the best set 1 in 9"));

        // The CSV has one row per agent that reads back field for field; the Markdown a row each.
        const std::string csv = run::lineup_csv(lineup);
        const auto lines = QString::fromStdString(csv).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + static_cast<int>(lineup.entries.size()));
        const auto header = rlda::core::split_csv_record(lines[0].toStdString());
        for (int i = 1; i < lines.size(); ++i) {
            const auto fields = rlda::core::split_csv_record(lines[i].toStdString());
            QCOMPARE(fields.size(), header.size());
            const auto& entry = lineup.entries[static_cast<std::size_t>(i - 1)];
            QCOMPARE(fields[1], entry.agent);
            QCOMPARE(fields.back(), run::lineup_verdict(lineup, entry));
        }
        QCOMPARE(rlda::core::split_csv_record(lines[1].toStdString())[2], std::string("yes")); // in-sample
        const auto md = QString::fromStdString(run::lineup_markdown(lineup)).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(md.size(), 1 + 2 + static_cast<int>(lineup.entries.size()));
        QVERIFY2(md[3].startsWith(QLatin1String("| policy (in-sample) | 1 0 | 1 |")), qPrintable(md[3]));
        QVERIFY(QString::fromStdString(run::lineup_text(lineup)).contains(QLatin1String("below the best")));
    }

    // Where the seeds test nothing the lineup says so, row by row, instead of a verdict.
    void every_agent_without_a_test()
    {
        const auto single = run::judge_lineup(task(table(spread_out), nullptr));
        QCOMPARE(single.replicates, 1);
        QVERIFY(single.best_set.empty());
        for (const auto& e : single.entries) {
            const auto verdict = QString::fromStdString(run::lineup_verdict(single, e));
            if (e.agent == "gradient" || e.agent == "loss-drop" || e.agent == "grow-while-improving")
                QCOMPARE(verdict,
                         QStringLiteral("not judged: it reads the training state, and the table has no "
                                        "decision features"));
            else
                QCOMPARE(verdict, QStringLiteral("no test: one seed"));
            QCOMPARE(e.rank_high > 0, e.agent == "random"); // no interval from one seed but a random rank's
        }
        QVERIFY(run::lineup_caption(single).find("one seed") != std::string::npos);
        // Seeds that differ only by chance: the set is every sequence, and no agent is "below".
        const auto flat =
            table([](const std::vector<int>& s,
                     std::size_t seed) { return 0.7 + 0.01 * static_cast<double>((s[0] + s[1] + seed) % 3); },
                  {1, 2, 3});
        const auto all = run::judge_lineup(task(flat, nullptr));
        QVERIFY(all.best_set_all);
        for (const auto& e : all.entries)
            if (e.not_judged.empty())
                QCOMPARE(run::lineup_verdict(all, e),
                         std::string("no test: the seeds do not separate the sequences"));
    }

    // rlda evaluate --agent: a heuristic that needs no features on a shipped table; one that does
    // on a table without them (the paper's), refused in one line; exactly one of --policy and --agent.
    void rlda_evaluate_agent()
    {
        const QString table = QStringLiteral(RLDA_SOURCE_DIR "/data/fashion-mnist/tables/feedforwardnet2_middle.csv");
        auto r = rlda::test::rlda_cli({"evaluate", "--agent", "last", "--table", table});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const char* line :
             {"agent: last\n", "choice: 1 1 1\n", "rank: ", "rank_interval: ", "no_adaptation: "})
            QVERIFY2(r.out.contains(QLatin1String(line)), qPrintable(QStringLiteral("%1 in:\n%2").arg(line, r.out)));
        const QString paper = QStringLiteral(RLDA_SOURCE_DIR "/data/paper/tables/convnet2_middle.csv"); // no features
        r = rlda::test::rlda_cli({"evaluate", "--agent", "gradient", "--table", paper});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err, QStringLiteral("rlda: error: %1 has no decision features (features.csv); build it again with "
                                       "rlda simulate to record them\n")
                            .arg(paper));
        r = rlda::test::rlda_cli({"evaluate", "--table", table});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--policy or --agent"), qPrintable(r.err));
        r = rlda::test::rlda_cli({"evaluate", "--agent", "last", "--policy", "p.pt", "--table", table});
        QCOMPARE(r.code, 2);
        r = rlda::test::rlda_cli({"evaluate", "--agent", "random", "--table", table});
        QCOMPARE(r.code, 2);
        r = rlda::test::rlda_cli({"evaluate", "--agent", "last", "--threshold", "2", "--table", table});
        QCOMPARE(r.code, 2);

        // --agent all: every agent, one row each, as CSV; --format is --agent all's alone.
        r = rlda::test::rlda_cli({"evaluate", "--agent", "all", "--format", "csv", "--table", table});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto rows = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 1 + 8); // five heuristics, none, optimal, random
        QVERIFY(rows[0].startsWith(QLatin1String("table,agent,in_sample,sequence,rank,rank_low,rank_high,")));
        QVERIFY2(rows[4].contains(QLatin1String(",last,no,1 1 1,")), qPrintable(rows[4]));
        r = rlda::test::rlda_cli({"evaluate", "--agent", "last", "--format", "csv", "--table", table});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("give --agent all"), qPrintable(r.err));
        r = rlda::test::rlda_cli({"evaluate", "--agent", "all", "--policy", "missing.pt", "--table", table});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("missing.pt"), qPrintable(r.err));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestHeuristics)
#include "test_heuristics.moc"
