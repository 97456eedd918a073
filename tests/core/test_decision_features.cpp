// Decision features: measured by the probe without changing a run, recorded once per decision node of
// a table build (tree, per sequence, parts, replicates, resumed), and read back from features.csv.
#include "core/agent/agent.h"
#include "core/model/zoo.h"
#include "core/net/net.h"
#include "core/sim/build.h"
#include "core/table/open_table.h"
#include "core/table/table_features.h"
#include "core/train/probe.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_sim.h"
#include "tests/common/tiny_training.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <optional>

using namespace rlda::core;

namespace {

namespace fs = std::filesystem;
using rlda::test::error_of;
using rlda::test::slurp;
using rlda::test::tiny_config;

// A fixed sequence that asks for the features and keeps what it was given.
class ReadingAgent final : public agent::Agent {
public:
    explicit ReadingAgent(std::vector<int> seq) : fixed_(std::move(seq)) {}
    agent::Decision decide(const agent::DecisionContext& c) override
    {
        seen.push_back(c.features ? std::optional<agent::DecisionFeatures>(*c.features) : std::nullopt);
        return fixed_.decide(c);
    }
    std::string name() const override { return fixed_.name(); }
    bool reads_features() const override { return true; }
    std::vector<std::optional<agent::DecisionFeatures>> seen;

private:
    agent::FixedSequenceAgent fixed_;
};

constexpr int kBlocks = 3;    // ConvNet2's original blocks
constexpr int kDecisions = 2; // tiny_config's
constexpr std::size_t kNodes = 1 + 4; // sum over i < k of (n+1)^i

} // namespace

class TestDecisionFeatures : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string reference_; // features.csv of the tree build

    fs::path folder(const char* name) const { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void measuring_does_not_change_the_run()
    {
        using namespace train;
        agent::FixedSequenceAgent plain({0, 2});
        ReadingAgent reading({0, 2});
        const auto a = rlda::test::train_job({{12.0, Allocation::Up}}, plain);
        const auto b = rlda::test::train_job({{12.0, Allocation::Up}}, reading);
        QCOMPARE(b.result.final_test_acc, a.result.final_test_acc);
        QCOMPARE(b.rec.epochs.size(), a.rec.epochs.size());
        for (std::size_t i = 0; i < a.rec.epochs.size(); ++i) {
            QCOMPARE(b.rec.epochs[i].train_loss, a.rec.epochs[i].train_loss);
            QCOMPARE(b.rec.epochs[i].test_acc, a.rec.epochs[i].test_acc);
        }
        // The agent was given them at each of its decisions, and the observer sees them.
        QCOMPARE(reading.seen.size(), static_cast<std::size_t>(rlda::test::settings().trainer.max_decisions));
        QVERIFY(reading.seen.size() >= 2);
        for (const auto& f : reading.seen) {
            QVERIFY(f.has_value());
            QCOMPARE(f->blocks.size(), std::size_t{kBlocks});
            for (const auto& blk : f->blocks) {
                QVERIFY(blk.parameters > 0);
                QVERIFY(blk.weight_norm > 0.0);
                QVERIFY(blk.grad_sq_mean > 0.0);
                QVERIFY(blk.loss_drop >= 0.0);
                QVERIFY(blk.activation_var >= 0.0);
            }
            QCOMPARE(f->time_budget, 40.0);
        }
        QCOMPARE(reading.seen[0]->epoch, 1.0); // up at 12 s cuts epoch 2 (8 steps an epoch)
        QCOMPARE(reading.seen[1]->epoch, 2.0);
        QCOMPARE(reading.seen[1]->blocks[0].parameters > reading.seen[0]->blocks[0].parameters, true); // deepened
        QCOMPARE(b.rec.adaptations.size(), reading.seen.size());
        QVERIFY(b.rec.adaptations[0].features.has_value());
        QCOMPARE(*b.rec.adaptations[0].features, *reading.seen[0]);
        QVERIFY(!a.rec.adaptations[0].features.has_value());
    }

    void the_probe_changes_nothing_and_its_loss_drop_is_sane()
    {
        const auto& data = rlda::test::tiny_data();
        model::Net net(model::zoo_model("ConvNet2", {3, 12, 12}, 4));
        net->train();
        std::vector<torch::Tensor> before;
        for (const auto& p : net->parameters())
            before.push_back(p.detach().clone());
        train::ProbeContext c;
        c.lr = 0.1;
        const auto f = train::measure_features(*net, data.test, c);
        QVERIFY(net->is_training()); // its mode put back
        const auto params = net->parameters();
        for (std::size_t i = 0; i < params.size(); ++i) {
            QVERIFY(torch::equal(params[i], before[i]));
            QVERIFY(!params[i].grad().defined()); // no gradient accumulated
        }
        QCOMPARE(f.blocks.size(), std::size_t{kBlocks});
        bool some = false;
        for (const auto& b : f.blocks) {
            QVERIFY(b.loss_drop >= 0.0);
            some = some || b.loss_drop > 0.0;
        }
        QVERIFY(some);
        QCOMPARE(train::measure_features(*net, data.test, c), f); // deterministic
        // Twice the rate, twice the estimate.
        c.lr = 0.2;
        QCOMPARE(train::measure_features(*net, data.test, c).blocks[1].loss_drop, 2 * f.blocks[1].loss_drop);

        // The head's ReLU closed (weights 0, bias -100): no gradient reaches any block, and the
        // last block's output is 0, so no growth has a slope.
        {
            torch::NoGradGuard no_grad;
            const auto named = net->named_parameters();
            torch::Tensor last_weight, last_bias;
            for (const auto& p : named)
                if (p.value().dim() == 2) {
                    last_weight = p.value();
                    last_bias = named[p.key().substr(0, p.key().rfind('.')) + ".bias"];
                }
            QVERIFY(last_weight.defined() && last_bias.defined());
            last_weight.zero_();
            last_bias.fill_(-100.0);
        }
        c.lr = 0.1;
        for (const auto& b : train::measure_features(*net, data.test, c).blocks)
            QCOMPARE(b.loss_drop, 0.0);
    }

    void features_are_recorded_once_per_node_of_a_tree_built_table()
    {
        sim::build_table(tiny_config(), folder("tree"), false);
        const fs::path file = folder("tree") / "features.csv";
        QVERIFY(fs::exists(file));
        reference_ = slurp(file);
        QCOMPARE(static_cast<std::size_t>(std::count(reference_.begin(), reference_.end(), '\n')), 1 + kNodes);
        const auto features = sim::load_table_features(file, kDecisions, kBlocks);
        QCOMPARE(features.size(), kNodes);
        QCOMPARE(features.seeds(), std::vector<std::uint64_t>{5});
        const auto* root = features.at({}, 5);
        QVERIFY(root);
        QCOMPARE(root->time_left, 30.0);
        QCOMPARE(root->epoch, 2.0); // up at 10 s cuts epoch 3 (4 steps an epoch)
        for (const auto& b : root->blocks)
            QVERIFY(b.grad_sq_mean > 0.0); // the warm start's last epoch, kept in its checkpoint
        for (int a = 0; a < 4; ++a) {
            const auto* f = features.at({a}, 5);
            QVERIFY(f);
            QCOMPARE(f->time_left, 26.0);
            QCOMPARE(f->epoch, 3.0);
        }
        QVERIFY(!features.at({0, 0}, 5)); // the last decision's children are leaves
        // open_table reads them.
        const auto t = sim::open_table(folder("tree"));
        QCOMPARE(t.features, features);
        // A table without features.csv opens as before, with none.
        fs::copy(folder("tree"), folder("bare"), fs::copy_options::recursive);
        fs::remove(folder("bare") / "features.csv");
        QVERIFY(sim::open_table(folder("bare")).features.empty());
    }

    void a_per_sequence_build_records_the_same_features()
    {
        sim::build_table(tiny_config(), folder("per-sequence"), false, {}, {}, nullptr, sim::BuildOrder::PerSequence);
        QCOMPARE(slurp(folder("per-sequence") / "features.csv"), reference_);
    }

    void features_are_the_same_for_any_number_of_parts()
    {
        for (const int parts : {2, 3}) {
            const fs::path out = folder(parts == 2 ? "parts2" : "parts3");
            sim::prepare_sweep(tiny_config(), out, false);
            for (int i = 0; i < parts; ++i) {
                sim::build_part(tiny_config(), out, i, parts);
                QVERIFY(fs::exists(sim::part_features_file(out, i, parts)));
            }
            sim::collect_table(out, tiny_config());
            QCOMPARE(slurp(out / "features.csv"), reference_);
        }
    }

    void parts_that_disagree_are_an_error()
    {
        const fs::path out = folder("parts2");
        const fs::path part = sim::part_features_file(out, 1, 2);
        std::string text = slurp(part);
        // Another time left at the root: the same node, other features.
        const auto at = text.find("\n5,,");
        QVERIFY(at != std::string::npos);
        auto f = sim::load_table_features(part, kDecisions, kBlocks);
        auto root = *f.at({}, 5);
        root.time_left += 1.0;
        sim::TableFeatures changed;
        changed.add(5, {}, root);
        sim::save_table_features(part, changed);
        const auto message = error_of([&] { sim::collect_table(out, tiny_config()); });
        QVERIFY2(message.find("differ") != std::string::npos, message.c_str());
        QVERIFY(message.find('\n') == std::string::npos);
    }

    void a_replicated_table_keeps_features_per_seed()
    {
        auto c = tiny_config();
        c.sweep.seeds = {5, 6};
        sim::build_table(c, folder("replicated"), false);
        const auto t = sim::open_table(folder("replicated"));
        QCOMPARE(t.features.seeds(), (std::vector<std::uint64_t>{5, 6}));
        QCOMPARE(t.features.size(), 2 * kNodes);
        // Seed 5's nodes are the single-seed table's, bit for bit.
        const auto single = sim::load_table_features(folder("tree") / "features.csv", kDecisions, kBlocks);
        for (const auto& [key, f] : single.nodes())
            QCOMPARE(*t.features.at(key.second, 5), f);
        QVERIFY(!(*t.features.at({}, 6) == *t.features.at({}, 5)));
    }

    void a_stopped_build_resumes_without_duplicates()
    {
        const fs::path out = folder("resumed");
        std::stop_source stop;
        sim::build_table(
            tiny_config(), out, false,
            [&](const sim::BuildProgress& p) {
                if (p.done == 5)
                    stop.request_stop();
            },
            stop.get_token());
        const auto partial = sim::load_table_features(out / "features.csv", kDecisions, kBlocks);
        QVERIFY(partial.size() >= 2 && partial.size() < kNodes);
        // A kill while appending: a torn last line.
        std::ofstream(out / "features.csv", std::ios::app | std::ios::binary) << "5,2,0.5,0.1";
        QCOMPARE(sim::load_table_features(out / "features.csv", kDecisions, kBlocks), partial); // dropped on read
        sim::build_table(tiny_config(), out, false);
        QCOMPARE(slurp(out / "features.csv"), reference_);
    }

    void a_bad_file_is_one_line_naming_file_and_line()
    {
        const fs::path good = folder("tree") / "features.csv";
        const std::string text = slurp(good);
        const auto lines_end = text.find('\n', text.find('\n') + 1); // after the first node
        const auto write = [&](const char* name, const std::string& content) {
            const fs::path f = folder(name);
            std::ofstream(f, std::ios::binary) << content;
            return f;
        };
        const auto check = [&](const fs::path& f, const std::string& where, int blocks = kBlocks) {
            const auto message = error_of([&] { sim::load_table_features(f, kDecisions, blocks); });
            QVERIFY2(message.starts_with(f.string() + ":" + where + ": "), message.c_str());
            QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
        };
        check(write("bad-header.csv", "seed,prefix\n"), "1");
        const std::string head = text.substr(0, lines_end + 1);
        check(write("few-fields.csv", head + "5,1,0.5\n"), "3");
        check(write("bad-seed.csv", head + "x" + text.substr(text.find('\n') + 2, lines_end - text.find('\n') - 1)), "3");
        // A model of another block count: every node's block lists have the wrong length.
        check(good, "2", 4);
        // A prefix as long as the decisions.
        std::string longer = text.substr(text.find('\n') + 1, lines_end - text.find('\n'));
        longer.replace(longer.find(",,"), 2, ",1 2,");
        check(write("long-prefix.csv", head + longer), "3");
        // Negative values where none can be.
        std::string negative = text.substr(text.find('\n') + 1, lines_end - text.find('\n'));
        const auto last_comma = negative.rfind(',');
        negative.replace(last_comma + 1, std::string::npos, "-1 0 0\n");
        check(write("negative.csv", head + negative), "3");
        // A cut-short last line is dropped, however little of it there is.
        QCOMPARE(sim::load_table_features(write("torn.csv", head + "5,1"), kDecisions, kBlocks).size(), std::size_t{1});
        QVERIFY(sim::load_table_features(write("torn-header.csv", "seed,pre"), kDecisions, kBlocks).empty());
        QVERIFY(sim::load_table_features(folder("absent.csv"), kDecisions, kBlocks).empty());
    }

    void decision_features_need_a_pending_decision()
    {
        using namespace train;
        VirtualClock clock(1.0);
        Scheduler sched(40.0, {}, 0.0, clock);
        agent::NoAdaptationAgent none;
        Trainer t(rlda::test::settings(), model::zoo_model("ConvNet2", {3, 12, 12}, 4), rlda::test::tiny_data(), sched,
                  clock, none);
        const auto message = error_of([&] { t.decision_features(); });
        QVERIFY2(message.find("no decision pending") != std::string::npos, message.c_str());
    }
};

RLDA_SUITE_GUILESS_MAIN(TestDecisionFeatures)
#include "test_decision_features.moc"
