// Experiment configs: defaults, round trips, every validation message, the original schema, --set.
#include "core/config/experiment_io.h"
#include "core/config/schema.h"
#include "core/util/error.h"
#include "tests/common/extra_key.h"

#include <QtTest/QtTest>

#include <cmath>
#include <fstream>
#include <random>

using namespace rlda::core;
using namespace rlda::core::config;

namespace {

template <class F> QString config_error(F&& f)
{
    try {
        f();
    } catch (const ConfigError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

QString parse_error(const QString& text)
{
    return config_error([&] { parse_experiment(text.toStdString(), "x.toml"); });
}

// Every setting moved off its default, with doubles that print long.
ExperimentConfig everything_changed()
{
    ExperimentConfig c;
    c.name = "all \"changed\" \\ é\ttab";
    c.job.model = "ConvNet3";
    c.job.batch_size = 17;
    c.job.optimizer = Optimizer::Sgd;
    c.job.lr = 1.0 / 3.0;
    c.job.lr_decay = 0.1 + 0.2;
    c.job.momentum = 0.5;
    c.job.device = "cuda:3";
    c.job.seed = 9'223'372'036'854'775'807ULL;
    c.dataset.kind = DatasetKind::Cifar10;
    c.dataset.path = "/data/cifar-10-batches-bin";
    c.dataset.normalization = Normalization::Dataset;
    c.dataset.train_subset = 5000;
    c.dataset.test_subset = 700;
    c.dataset.random_subset = true;
    c.dataset.shape = {1, 28, 30};
    c.dataset.classes = 7;
    c.dataset.train_size = 100;
    c.dataset.test_size = 50;
    c.dataset.noise = 1e-300;
    c.scheduler.budget = 123.456789012345;
    c.scheduler.start_time = std::nextafter(70.0, 0.0);
    c.scheduler.events = {
        {0.0, Change::Down}, {std::nextafter(123.456789012345, 0.0), Change::Up}, {5.0, Change::Up}};
    c.scheduler.clock = ClockKind::Wall;
    c.scheduler.step_cost = 2.5e-7;
    c.scheduler.eval_cost = 0.125;
    c.trainer.max_decisions = 5;
    c.trainer.distill_temperature = 3.5;
    c.trainer.distill_weight = 1.0;
    c.trainer.distill_decay = 0.0;
    c.trainer.check_preservation = false;
    c.trainer.warm_start_checkpoint = false;
    c.trainer.operations = {"deepen", "widen"};
    c.trainer.widen_factor = 3.0;
    c.trainer.widen_noise = 0.2;
    c.agent.kind = AgentKind::Policy;
    c.agent.sequence = {3, 0, 2, 1};
    c.agent.policy = "runs/a/policy.pt";
    c.agent.temperature = 1000.0;
    c.agent.greedy = false;
    c.agent.seed = 12345;
    c.policy.vocab = "vocab.txt";
    c.policy.embedding_size = 8;
    c.policy.hidden_size = 25;
    c.policy.decider_lstm_size = 32;
    c.policy.decider_linear_size = 64;
    c.policy.time_encoding_size = 0;
    c.policy.max_actions = 6;
    c.policy.action_set_size = 5;
    c.policy.alpha = 3e-5;
    c.policy.learning_rate_decay = 1.0;
    c.policy.decay_freq = 250;
    c.simulation.table = "tables/convnet2_early.csv";
    c.runner.total_episodes = 75000;
    c.runner.save = true;
    c.sweep.backend = SweepBackend::Slurm;
    c.sweep.workers = 7;
    c.sweep.threads_per_task = 3;
    c.sweep.max_retries = 0;
    c.sweep.partition = "gpu-\"long\"";
    c.sweep.time_limit = "2-12:30:00";
    c.sweep.cpus_per_task = 4;
    c.sweep.gres = "gpu:1";
    c.sweep.sbatch_args = {"--account=lab", "--qos=high prio", ""};
    c.sweep.poll_seconds = 0.1 + 0.2;
    return c;
}

// Experiment files in the original tool's schema, written for these tests (tests/fixtures/README.md).
QString original(const QString& relative)
{
    return QString(RLDA_FIXTURES_DIR) + "/original-schema/" + relative;
}

bool any_warning_names(const ExperimentConfig& c, const QString& key)
{
    for (const auto& w : c.warnings)
        if (QString::fromStdString(w).contains(": " + key + ": "))
            return true;
    return false;
}

} // namespace

class TestConfig : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void a_fixed_sequence_is_checked_against_the_model()
    {
        ExperimentConfig c;
        c.agent.kind = AgentKind::Fixed;
        c.agent.sequence = {0, 3}; // ConvNet2: 3 = Do Nothing
        QVERIFY(find_problems(c).empty());
        c.agent.sequence = {0, 4};
        const auto problems = find_problems(c);
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems[0].key, std::string("agent.sequence[1]"));
        QVERIFY2(QString::fromStdString(problems[0].reason).contains("0..3 (3 = Do Nothing)"), problems[0].reason.c_str());
        QCOMPARE(problems[0].related, std::string("job.model"));
        c.job.model = "LargeConvNet"; // 8 blocks: 4 is a deepen action there
        QVERIFY(find_problems(c).empty());
        c.agent.kind = AgentKind::Random; // only a fixed agent plays the sequence
        c.agent.sequence = {9};
        QVERIFY(find_problems(c).empty());
    }

    void operations_are_checked_by_key()
    {
        ExperimentConfig c;
        QCOMPARE(c.trainer.operations, (std::vector<std::string>{"deepen"}));
        c.trainer.operations = {"widen", "deepen"};
        QVERIFY(find_problems(c).empty());
        // A fixed sequence is checked against the larger space: ConvNet2 has 6 actions now.
        c.agent.kind = AgentKind::Fixed;
        c.agent.sequence = {4, 5};
        QVERIFY(find_problems(c).empty());
        c.agent.sequence = {6};
        auto problems = find_problems(c);
        QCOMPARE(problems.size(), std::size_t{1});
        QVERIFY2(QString::fromStdString(problems[0].reason).contains("6 actions, 0..5 (5 = Do Nothing)"),
                 problems[0].reason.c_str());
        c.agent.sequence.clear();
        c.trainer.operations = {"deepen", "shrink", "deepen"};
        problems = find_problems(c);
        QCOMPARE(problems.size(), std::size_t{2});
        QCOMPARE(problems[0].key, std::string("trainer.operations[1]"));
        QVERIFY(QString::fromStdString(problems[0].reason).contains("unknown value \"shrink\""));
        QCOMPARE(problems[1].key, std::string("trainer.operations[2]"));
        QVERIFY(QString::fromStdString(problems[1].reason).contains("listed twice"));
        c.trainer.operations = {};
        problems = find_problems(c);
        QCOMPARE(problems.size(), std::size_t{1});
        QVERIFY(QString::fromStdString(problems[0].reason).contains("must not be empty"));
        c.trainer.operations = {"deepen"};
        c.trainer.widen_factor = 1.0;
        c.trainer.widen_noise = 0.5;
        problems = find_problems(c);
        QCOMPARE(problems.size(), std::size_t{2});
        QCOMPARE(problems[0].key, std::string("trainer.widen_factor"));
        QCOMPARE(problems[1].key, std::string("trainer.widen_noise"));
        // Read from a file, with the line and column of a bad name.
        const auto read = parse_experiment("[trainer]\noperations = [\"deepen\", \"widen\"]\nwiden_factor = 1.5\n", "x.toml");
        QCOMPARE(read.trainer.operations, (std::vector<std::string>{"deepen", "widen"}));
        QCOMPARE(read.trainer.widen_factor, 1.5);
    }

    void empty_file_gives_the_struct_defaults()
    {
        const ExperimentConfig c = parse_experiment("", "x.toml");
        QVERIFY(same_settings(c, ExperimentConfig{}));
        QCOMPARE(c.source, std::string("x.toml"));
        QVERIFY(c.warnings.empty());
        QCOMPARE(c.scheduler.budget, 400.0);
        QVERIFY(c.scheduler.clock == ClockKind::Virtual);
        QCOMPARE(c.job.model, std::string("ConvNet2"));
        QCOMPARE(c.policy.embedding_size, std::int64_t{16});
        QCOMPARE(c.policy.hidden_size, std::int64_t{50});
        QCOMPARE(c.policy.decider_lstm_size, std::int64_t{16});
        QCOMPARE(c.policy.decider_linear_size, std::int64_t{128});
        QCOMPARE(c.policy.time_encoding_size, std::int64_t{8});
        QCOMPARE(c.policy.alpha, 1e-4);
        QCOMPARE(c.policy.learning_rate_decay, 0.99);
        QCOMPARE(c.policy.decay_freq, std::int64_t{500});
        QCOMPARE(c.policy.vocab, std::string("models"));
        QCOMPARE(c.policy.action_set_size, std::int64_t{0});
        QCOMPARE(c.runner.total_episodes, std::int64_t{1});
        QVERIFY(find_problems(ExperimentConfig{}).empty());
    }

    void partial_sections_keep_the_other_defaults()
    {
        const auto c = parse_experiment("[job]\nlr = 1\n[scheduler]\nbudget = 60\n", "x.toml");
        QCOMPARE(c.job.lr, 1.0); // an integer where a float is expected
        QCOMPARE(c.scheduler.budget, 60.0);
        QCOMPARE(c.job.batch_size, std::int64_t{64});
        QCOMPARE(c.scheduler.step_cost, 0.05);
    }

    void to_toml_round_trips_every_field()
    {
        const ExperimentConfig c = everything_changed();
        QVERIFY2(find_problems(c).empty(), find_problems(c).empty() ? "" : find_problems(c)[0].key.c_str());
        // Guard: the fixture really moves every section off its defaults.
        const ExperimentConfig d;
        QVERIFY(c.name != d.name && c.job != d.job && c.dataset != d.dataset && c.scheduler != d.scheduler &&
                c.trainer != d.trainer && c.agent != d.agent && c.policy != d.policy &&
                c.simulation != d.simulation && c.runner != d.runner && c.sweep != d.sweep);
        const std::string text = to_toml(c);
        const ExperimentConfig back = parse_experiment(text, "x");
        QVERIFY2(same_settings(back, c), text.c_str());
        QCOMPARE(back.job.lr, 1.0 / 3.0); // bit for bit
        QCOMPARE(back.scheduler.step_cost, 2.5e-7);
        QCOMPARE(back.dataset.noise, 1e-300);
        QCOMPARE(back.name, c.name);
        QVERIFY(back.warnings.empty());
        QCOMPARE(to_toml(back), text); // stable
    }

    void to_toml_of_the_defaults_writes_every_key_with_comments()
    {
        const std::string text = to_toml(ExperimentConfig{});
        QVERIFY(same_settings(parse_experiment(text, "x"), ExperimentConfig{}));
        const QString t = QString::fromStdString(text);
        for (const char* key :
             {"\nname = ", "\n[job]", "\nmodel = ", "\nmomentum = ", "\n[dataset]",
              "\nnoise = ", "\n[scheduler]", "\nevents = []", "\neval_cost = ", "\n[trainer]",
              "\nwarm_start_checkpoint = ", "\n[agent]", "\ngreedy = ", "\n[policy]",
              "\ndecay_freq = ", "\n[simulation]", "\ntable = ", "\n[runner]", "\nsave = ", "\n[sweep]", "\nbackend = \"local\"",
              "\nworkers = 0 ", "\nthreads_per_task = 1 ", "\nsbatch_args = [] ", "\npoll_seconds = 2.0 "})
            QVERIFY2(t.contains(key), key);
        QVERIFY(t.contains("# What is trained and how.\n[job]"));
        QVERIFY(t.contains("budget = 400.0 ")); // a float stays a float
    }

    void doubles_round_trip_exactly()
    {
        std::mt19937_64 rng(5); // seeded: 2000 random positive doubles of every magnitude
        std::uniform_real_distribution<double> mantissa(0.0, 1.0);
        // Up to 2^62: job.lr and dataset.noise stay below the float32 bound of 1.8e19 (limits.h).
        std::uniform_int_distribution<int> exponent(-300, 62);
        for (int i = 0; i < 2000; ++i) {
            ExperimentConfig c;
            c.job.lr = std::ldexp(0.5 + mantissa(rng), exponent(rng));
            c.dataset.noise = std::ldexp(mantissa(rng), exponent(rng));
            const auto back = parse_experiment(to_toml(c), "x");
            QCOMPARE(back.job.lr, c.job.lr);
            QCOMPARE(back.dataset.noise, c.dataset.noise);
        }
    }

    void validation_failures_name_file_line_column_and_key_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        // An unknown name is given with the nearest known one (core/util/nearest_name.h).
        QTest::newRow("unknown section") << "[jobs]\nlr = 1\n"
                                         << "x.toml:1:2: jobs: unknown section; did you mean [job]? (known: name, [job], ";
        QTest::newRow("unknown key") << "[job]\nlr = 0.1\nlrr = 1\n"
                                     << "x.toml:3:1: job.lrr: unknown key; did you mean job.lr? (known: model,";
        QTest::newRow("misspelt key") << "[job]\nbatchsize = 64\n"
                                      << "x.toml:2:1: job.batchsize: unknown key; did you mean job.batch_size? (known: ";
        QTest::newRow("key of another section") << "[job]\nbudget = 60\n"
                                                << "x.toml:2:1: job.budget: unknown key; did you mean scheduler.budget? "
                                                   "(known: model,";
        QTest::newRow("the first of equal names") << "[dataset]\nseed = 1\n"
                                                  << "x.toml:2:1: dataset.seed: unknown key; did you mean job.seed? (";
        // Another tool's setting is answered with ours (Schema::hints).
        QTest::newRow("epochs") << "[job]\nepochs = 3\n"
                                << "x.toml:2:1: job.epochs: unknown key; a run lasts its time budget in seconds, not "
                                   "a number of epochs: set scheduler.budget (known: model, ";
        QTest::newRow("epochs in a section of its own")
            << "[train]\nepochs = 3\n"
            << "x.toml:1:2: train: unknown section; a run lasts its time budget in seconds, not a number of "
               "epochs: set scheduler.budget (known: name, ";
        QTest::newRow("misspelt top-level key") << "nmae = \"x\"\n"
                                                << "x.toml:1:1: nmae: unknown section; did you mean name? (known: ";
        QTest::newRow("unknown top-level key") << "title = \"x\"\n"
                                               << "x.toml:1:1: title: unknown section";
        QTest::newRow("section not a table") << "job = 3\n"
                                             << "x.toml:1:7: job: expected a table";
        QTest::newRow("name not a string") << "name = 3\n"
                                           << "x.toml:1:8: name: expected a string, got an integer";
        QTest::newRow("float for integer") << "[job]\nbatch_size = 64.0\n"
                                           << "x.toml:2:14: job.batch_size: expected an integer, got a float";
        QTest::newRow("string for float") << "[job]\nlr = \"0.1\"\n"
                                          << "x.toml:2:6: job.lr: expected a number, got a string";
        QTest::newRow("string for bool") << "[trainer]\ncheck_preservation = \"yes\"\n"
                                         << "x.toml:2:22: trainer.check_preservation: expected true or false";
        QTest::newRow("zero budget") << "[scheduler]\nbudget = 0\n"
                                     << "x.toml:2:10: scheduler.budget: must be in (0, 1000000000], got 0";
        QTest::newRow("negative budget") << "[scheduler]\nbudget = -5.5\n"
                                         << "x.toml:2:10: scheduler.budget: must be in (0, 1000000000], got -5.5";
        // A budget beyond the longest job (core/config/value_limits.h), as a table's total time is.
        QTest::newRow("budget of centuries") << "[scheduler]\nbudget = 1e12\n"
                                             << "x.toml:2:10: scheduler.budget: must be in (0, 1000000000], got 1000000000000";
        QTest::newRow("event past budget")
            << "[scheduler]\nbudget = 60\nevents = [{ time = 70, change = \"up\" }]\n"
            << "x.toml:3:20: scheduler.events[0].time: 70 is outside the budget [0, 60)";
        QTest::newRow("event at budget")
            << "[scheduler]\nbudget = 60\n[[scheduler.events]]\ntime = 60\nchange = \"up\"\n"
            << "x.toml:4:8: scheduler.events[0].time: 60 is outside the budget";
        QTest::newRow("negative event")
            << "[scheduler]\nevents = [{ time = 5, change = \"up\" }, { time = -1, change = \"down\" }]\n"
            << "x.toml:2:49: scheduler.events[1].time: -1 is outside the budget";
        QTest::newRow("event change") << "[scheduler]\nevents = [{ time = 7, change = \"sideways\" }]\n"
                                      << "x.toml:2:32: scheduler.events[0].change: unknown value "
                                         "\"sideways\" (allowed: \"up\", \"down\")";
        QTest::newRow("event without change") << "[scheduler]\nevents = [{ time = 7 }]\n"
                                              << "x.toml:2:11: scheduler.events[0].change: missing";
        QTest::newRow("event key") << "[scheduler]\nevents = [{ time = 7, change = \"up\", gpus = 2 }]\n"
                                   << "x.toml:2:38: scheduler.events[0].gpus: unknown key (known: time, change)";
        QTest::newRow("event key misspelt") << "[scheduler]\nevents = [{ time = 7, chnage = \"up\" }]\n"
                                            << "x.toml:2:23: scheduler.events[0].chnage: unknown key; did you mean "
                                               "change? (known: time, change)";
        QTest::newRow("event not a table") << "[scheduler]\nevents = [3]\n"
                                           << "x.toml:2:11: scheduler.events[0]: expected a table";
        QTest::newRow("start_time at budget")
            << "[scheduler]\nbudget = 60\nstart_time = 60\n"
            << "x.toml:3:14: scheduler.start_time: 60 is outside the budget [0, 60)";
        QTest::newRow("negative start_time") << "[scheduler]\nstart_time = -1\n"
                                             << "x.toml:2:14: scheduler.start_time: -1 is outside the budget";
        QTest::newRow("batch_size 0") << "[job]\nbatch_size = 0\n"
                                      << "x.toml:2:14: job.batch_size: must be at least 1, got 0";
        QTest::newRow("lr 0") << "[job]\nlr = 0\n"
                              << "x.toml:2:6: job.lr: must be in (0, 1.8e+19], got 0";
        QTest::newRow("lr inf") << "[job]\nlr = inf\n"
                                << "x.toml:2:6: job.lr: must be in (0, 1.8e+19], got inf";
        QTest::newRow("lr_decay above 1") << "[job]\nlr_decay = 1.5\n"
                                          << "x.toml:2:12: job.lr_decay: must be in (0, 1], got 1.5";
        QTest::newRow("lr_decay 0") << "[job]\nlr_decay = 0.0\n"
                                    << "x.toml:2:12: job.lr_decay: must be in (0, 1], got 0";
        QTest::newRow("optimizer")
            << "[job]\noptimizer = \"rmsprop\"\n"
            << "x.toml:2:13: job.optimizer: unknown value \"rmsprop\" (allowed: \"adam\", \"sgd\")";
        QTest::newRow("device")
            << "[job]\ndevice = \"gpu\"\n"
            << "x.toml:2:10: job.device: unknown device \"gpu\" (allowed: \"cpu\", \"cuda\", \"cuda:N\")";
        QTest::newRow("device index") << "[job]\ndevice = \"cuda:x\"\n"
                                      << "x.toml:2:10: job.device: unknown device \"cuda:x\"";
        QTest::newRow("dataset kind") << "[dataset]\nkind = \"imagenet\"\n"
                                      << "x.toml:2:8: dataset.kind: unknown value \"imagenet\" (allowed: "
                                         "\"synthetic\", \"cifar10\", \"fashion-mnist\", \"mnist\")";
        QTest::newRow("normalization") << "[dataset]\nnormalization = \"z\"\n"
                                       << "x.toml:2:17: dataset.normalization: unknown value \"z\" (allowed: "
                                          "\"half\", \"dataset\", \"none\")";
        QTest::newRow("clock")
            << "[scheduler]\nclock = \"cpu\"\n"
            << "x.toml:2:9: scheduler.clock: unknown value \"cpu\" (allowed: \"virtual\", \"wall\")";
        QTest::newRow("agent kind") << "[agent]\nkind = \"smart\"\n"
                                    << "x.toml:2:8: agent.kind: unknown value \"smart\" (allowed: \"fixed\", "
                                       "\"random\", \"none\", \"policy\", \"simulation\")";
        QTest::newRow("step_cost 0")
            << "[scheduler]\nstep_cost = 0\n"
            << "x.toml:2:13: scheduler.step_cost: must be positive for the virtual clock, got 0";
        QTest::newRow("step_cost negative")
            << "[scheduler]\nclock = \"virtual\"\nstep_cost = -0.1\n"
            << "x.toml:3:13: scheduler.step_cost: must be positive for the virtual clock";
        QTest::newRow("shape of 2") << "[dataset]\nshape = [3, 32]\n"
                                    << "x.toml:2:9: dataset.shape: expected 3 positive integers [channels, "
                                       "height, width], got [3, 32]";
        QTest::newRow("shape with 0") << "[dataset]\nshape = [3, 0, 32]\n"
                                      << "x.toml:2:9: dataset.shape: expected 3 positive integers";
        QTest::newRow("shape of floats") << "[dataset]\nshape = [3, 32.0, 32]\n"
                                         << "x.toml:2:13: dataset.shape[1]: expected an integer, got a float";
        QTest::newRow("train_subset") << "[dataset]\ntrain_subset = -1\n"
                                      << "x.toml:2:16: dataset.train_subset: must be at least 0, got -1";
        QTest::newRow("test_subset") << "[dataset]\ntest_subset = -3\n"
                                     << "x.toml:2:15: dataset.test_subset: must be at least 0, got -3";
        QTest::newRow("max_decisions") << "[trainer]\nmax_decisions = -1\n"
                                       << "x.toml:2:17: trainer.max_decisions: must be at least 0, got -1";
        QTest::newRow("distill_weight") << "[trainer]\ndistill_weight = 1.5\n"
                                        << "x.toml:2:18: trainer.distill_weight: must be in [0, 1], got 1.5";
        QTest::newRow("distill_decay") << "[trainer]\ndistill_decay = -0.1\n"
                                       << "x.toml:2:17: trainer.distill_decay: must be in [0, 1], got -0.1";
        QTest::newRow("negative action") << "[agent]\nkind = \"fixed\"\nsequence = [0, -1]\n"
                                         << "x.toml:3:16: agent.sequence[1]: must not be negative";
        QTest::newRow("policy without file") << "[agent]\nkind = \"policy\"\n"
                                             << "x.toml:2:8: agent.policy: a policy file is required";
        QTest::newRow("seed negative") << "[job]\nseed = -1\n"
                                       << "x.toml:2:8: job.seed: must be at least 0, got -1";
        QTest::newRow("policy size") << "[policy]\nhidden_size = 0\n"
                                     << "x.toml:2:15: policy.hidden_size: must be at least 1, got 0";
        QTest::newRow("first in file order") << "[job]\nlr = 0\n[dataset]\nkind = \"x\"\n"
                                             << "x.toml:2:6: job.lr:";
        // The original schema: messages use the key as written.
        QTest::newRow("running_time 0") << "[scheduler]\nrunning_time = 0\n"
                                        << "x.toml:2:16: scheduler.running_time: must be in (0, 1000000000], got 0";
        QTest::newRow("gpu_changes past budget")
            << "[scheduler]\nrunning_time = 70\ngpu_changes = [{ time = 70, change = \"up\" }]\n"
            << "x.toml:3:25: scheduler.gpu_changes[0].time: 70 is outside the budget [0, 70)";
        QTest::newRow("budget twice")
            << "[scheduler]\nbudget = 60\nrunning_time = 70\n"
            << "x.toml:3:16: scheduler.running_time: sets the same value as scheduler.budget (line 2)";
        QTest::newRow("name twice") << "name = \"a\"\n[runner]\nfolder = \"b\"\n"
                                    << "x.toml:3:10: runner.folder: sets the same value as name (line 1)";
        QTest::newRow("runner agent") << "[runner]\nagent = \"Foo\"\n"
                                      << "x.toml:2:9: runner.agent: unknown value \"Foo\" (allowed: "
                                         "\"RandomAgent\", \"Agent\", \"SimulationAgent\")";
        QTest::newRow("original Agent without policy")
            << "[runner]\nagent = \"Agent\"\n"
            << "x.toml:2:9: agent.policy: a policy file is required";
        QTest::newRow("negative GPU index")
            << "[agent]\ndevice = -1\n"
            << "x.toml:2:10: agent.device: a GPU index must be at least 0, got -1";
        QTest::newRow("num_actions") << "[agent]\nnum_actions = -2\n"
                                     << "x.toml:2:15: agent.num_actions: must be at least 0, got -2";
        QTest::newRow("sweep backend")
            << "[sweep]\nbackend = \"pbs\"\n"
            << "x.toml:2:11: sweep.backend: unknown value \"pbs\" (allowed: \"local\", \"slurm\")";
        QTest::newRow("sweep workers") << "[sweep]\nworkers = -1\n"
                                       << "x.toml:2:11: sweep.workers: must be at least 0, got -1";
        QTest::newRow("sweep threads") << "[sweep]\nthreads_per_task = 0\n"
                                       << "x.toml:2:20: sweep.threads_per_task: must be at least 1, got 0";
        QTest::newRow("sweep retries") << "[sweep]\nmax_retries = -1\n"
                                       << "x.toml:2:15: sweep.max_retries: must be at least 0, got -1";
        QTest::newRow("sweep time limit")
            << "[sweep]\ntime_limit = \"1:00\"\n"
            << "x.toml:2:14: sweep.time_limit: expected [D-]HH:MM:SS";
        QTest::newRow("sweep time limit minutes") << "[sweep]\ntime_limit = \"01:60:00\"\n"
                                                  << "x.toml:2:14: sweep.time_limit: expected";
        QTest::newRow("sweep poll") << "[sweep]\npoll_seconds = 0\n"
                                    << "x.toml:2:16: sweep.poll_seconds: must be in (0, 1000000000], got 0";
        QTest::newRow("sweep sbatch_args")
            << "[sweep]\nsbatch_args = [\"-A\", 1]\n"
            << "x.toml:2:22: sweep.sbatch_args[1]: expected a string, got an integer";
        QTest::newRow("sweep unknown key") << "[sweep]\nnodes = 2\n"
                                           << "x.toml:2:1: sweep.nodes: unknown key (known: backend,"; // none near
        QTest::newRow("syntax") << "[job]\nlr = \n"
                                << "x.toml:2:6: ";
        QTest::newRow("syntax header") << "[job\n"
                                       << "x.toml:1:";
    }
    void validation_failures_name_file_line_column_and_key()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QString msg = parse_error(text);
        QVERIFY2(!msg.isEmpty(), "no error");
        QVERIFY2(msg.startsWith(expected), qPrintable(msg));
        QVERIFY2(!msg.contains('\n'), qPrintable(msg));
    }

    void original_schema_files_all_parse()
    {
        QDirIterator it(original(""), {"*.toml"}, QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        QSet<QString> sections;
        const QRegularExpression header(QStringLiteral("^\\[(\\w+)\\]\\s*$"),
                                        QRegularExpression::MultilineOption);
        while (it.hasNext()) {
            const QString path = it.next();
            try {
                const ExperimentConfig c = load_experiment(path.toStdString());
                QVERIFY2(same_settings(parse_experiment(to_toml(c), "x"), c), qPrintable(path));
                QVERIFY2(find_problems(c).empty(), qPrintable(path));
            } catch (const ConfigError& e) {
                QFAIL(e.what());
            }
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            for (auto m = header.globalMatch(QString::fromUtf8(f.readAll())); m.hasNext();)
                sections.insert(m.next().captured(1));
            ++files;
        }
        QCOMPARE(files, 5);
        // Between them, the files use every section of the original schema, and nothing else.
        QCOMPARE(sections, (QSet<QString>{"runner", "scheduler", "trainer", "job", "agent", "simulation"}));
    }

    void original_training_config_maps_to_our_settings()
    {
        const auto c = load_experiment(original("warmup/convnet3_middle.toml").toStdString());
        QCOMPARE(c.scheduler.budget, 200.0);
        QCOMPARE(c.job.seed, std::uint64_t{7});
        QCOMPARE(c.job.model, std::string("ConvNet3"));
        QVERIFY(c.dataset.kind == DatasetKind::Cifar10);
        QVERIFY(c.agent.kind == AgentKind::Random);
        QCOMPARE(c.job.device, std::string("cuda:1"));
        QCOMPARE(c.name, std::string("warmup_convnet3_middle"));
        QCOMPARE(c.runner.total_episodes, std::int64_t{1});
        QVERIFY(c.scheduler.events.empty());
        QVERIFY(c.warnings.empty());
        const auto early = load_experiment(original("warmup/convnet2_early.toml").toStdString());
        QCOMPARE(early.scheduler.budget, 70.0);
        QCOMPARE(early.job.seed, std::uint64_t{11});
        QCOMPARE(early.job.model, std::string("ConvNet2"));
        QCOMPARE(early.job.device, std::string("cuda:0"));
        QCOMPARE(early.name, std::string("warmup_convnet2_early"));
        QVERIFY(early.warnings.empty());
    }

    void original_simulation_config_maps_and_warns()
    {
        const std::string path = original("simulate/convnet3_middle.toml").toStdString();
        const auto c = load_experiment(path);
        QCOMPARE(c.scheduler.budget, 300.0);
        QCOMPARE(c.scheduler.start_time, 120.0);
        QCOMPARE(c.scheduler.events.size(), std::size_t{1});
        QCOMPARE(c.scheduler.events[0].time, 120.0);
        QVERIFY(c.scheduler.events[0].change == Change::Up);
        QVERIFY(c.agent.kind == AgentKind::Simulation);
        QCOMPARE(c.job.model, std::string("ConvNet3"));
        QCOMPARE(c.job.device, std::string("cuda:1"));
        QCOMPARE(c.trainer.max_decisions, 2);
        QCOMPARE(c.policy.action_set_size, std::int64_t{4});
        QCOMPARE(c.runner.total_episodes, std::int64_t{16});
        QVERIFY(c.runner.save);
        QCOMPARE(c.name, std::string("simulate_convnet3_middle"));
        QCOMPARE(c.warnings.size(), std::size_t{3});
        QVERIFY(any_warning_names(c, "trainer.weights"));
        QVERIFY(any_warning_names(c, "trainer.runtimes"));
        QVERIFY(any_warning_names(c, "agent.save_file"));
        for (const auto& w : c.warnings) {
            const QString s = QString::fromStdString(w);
            QVERIFY2(s.startsWith(QString::fromStdString(path) + ":"), qPrintable(s));
            QVERIFY2(s.contains(": not used: "), qPrintable(s));
            QVERIFY2(!s.contains('\n'), qPrintable(s));
        }
        QVERIFY(QString::fromStdString(c.warnings[0])
                    .startsWith(QString::fromStdString(path) + ":10:11: trainer.weights: "));
    }

    void original_learning_config_maps_policy_settings()
    {
        const auto c = load_experiment(original("learn/convnet2_late_then_early.toml").toStdString());
        QVERIFY(c.agent.kind == AgentKind::Policy);
        QCOMPARE(c.agent.temperature, 100.0);
        QCOMPARE(c.agent.policy, std::string("../out/learn_convnet2_late/agent.finalmodel.pth"));
        QCOMPARE(c.simulation.table, std::string("../out/simulate_convnet2_early/data.pkl"));
        QCOMPARE(c.runner.total_episodes, std::int64_t{5000});
        QCOMPARE(c.job.seed, std::uint64_t{3});
        QCOMPARE(c.policy.vocab, std::string("models"));
        QCOMPARE(c.policy.embedding_size, std::int64_t{8});
        QCOMPARE(c.policy.hidden_size, std::int64_t{40});
        QCOMPARE(c.policy.decider_lstm_size, std::int64_t{12});
        QCOMPARE(c.policy.decider_linear_size, std::int64_t{96});
        QCOMPARE(c.policy.time_encoding_size, std::int64_t{6});
        QCOMPARE(c.policy.max_actions, std::int64_t{4});
        QCOMPARE(c.policy.alpha, 5e-4);
        QCOMPARE(c.policy.learning_rate_decay, 0.95);
        QCOMPARE(c.policy.decay_freq, std::int64_t{250});
        // The pickles are mapped but flagged: the workbench cannot read them.
        QCOMPARE(c.warnings.size(), std::size_t{2});
        QVERIFY(any_warning_names(c, "agent.policyfile"));
        QVERIFY(any_warning_names(c, "simulation.datafile"));
        // From scratch, a learning run needs no policy file.
        const auto scratch = load_experiment(original("learn/convnet2_late.toml").toStdString());
        QVERIFY(scratch.agent.kind == AgentKind::Policy);
        QVERIFY(scratch.agent.policy.empty());
        QCOMPARE(scratch.agent.temperature, AgentConfig{}.temperature);
        QCOMPARE(scratch.runner.total_episodes, std::int64_t{20000});
        QCOMPARE(scratch.policy.hidden_size, std::int64_t{40});
        QCOMPARE(scratch.warnings.size(), std::size_t{1}); // the .pkl table only
        QVERIFY(any_warning_names(scratch, "simulation.datafile"));
    }

    void relative_paths_resolve_next_to_the_config_file()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = dir.path().toStdString();
        QVERIFY(QDir(dir.path()).mkpath("exp/models"));
        std::ofstream(root + "/exp/models/net.toml") << "# a model\n";
        std::ofstream(root + "/exp/policy.pt") << "x";
        std::ofstream(root + "/exp/run.toml") << "[job]\nmodel = \"models/net.toml\"\n"
                                              << "[agent]\nkind = \"policy\"\npolicy = \"policy.pt\"\n"
                                              << "[simulation]\ntable = \"missing.csv\"\n";
        const auto c = load_experiment(root + "/exp/run.toml");
        QCOMPARE(c.job.model, root + "/exp/models/net.toml");
        QCOMPARE(c.agent.policy, root + "/exp/policy.pt");
        QCOMPARE(c.simulation.table, std::string("missing.csv")); // not there: left for the caller
        std::ofstream(root + "/exp/ConvNet3") << "a file named like a zoo model";
        std::ofstream(root + "/exp/zoo.toml") << "[job]\nmodel = \"ConvNet3\"\n";
        QCOMPARE(load_experiment(root + "/exp/zoo.toml").job.model, std::string("ConvNet3"));
    }

    void overrides_set_one_value_with_the_file_checks()
    {
        ExperimentConfig c =
            parse_experiment("[scheduler]\nevents = [{ time = 50, change = \"up\" }]\n", "x.toml");
        apply_override(c, "dataset.kind=\"cifar10\"");
        apply_override(c, "scheduler.budget=60");
        apply_override(c, "agent.sequence=[0,1]");
        apply_override(c, " job.lr = 0.5 ");
        apply_override(c, "name=\"sweep-1\"");
        apply_override(c, "scheduler.running_time=55"); // the original spelling works too
        apply_override(c, "policy={ hidden_size = 20, alpha = 0.001 }");
        QVERIFY(c.dataset.kind == DatasetKind::Cifar10);
        QCOMPARE(c.scheduler.budget, 55.0);
        QCOMPARE(c.agent.sequence, (std::vector<int>{0, 1}));
        QCOMPARE(c.job.lr, 0.5);
        QCOMPARE(c.name, std::string("sweep-1"));
        QCOMPARE(c.policy.hidden_size, std::int64_t{20});
        QCOMPARE(c.scheduler.events.size(), std::size_t{1}); // untouched keys stay
        apply_override(c, "scheduler.events=[{time=10, change=\"down\"}, {time=20, change=\"up\"}]");
        QCOMPARE(c.scheduler.events.size(), std::size_t{2});
        QVERIFY(c.scheduler.events[0].change == Change::Down);
        apply_override(c, "trainer.weights=\"w.pth\"");
        QCOMPARE(c.warnings.size(), std::size_t{1});
        QVERIFY(QString::fromStdString(c.warnings[0])
                    .startsWith("--set trainer.weights=\"w.pth\": trainer.weights: not used: "));
    }

    void sweep_settings_read_and_set()
    {
        ExperimentConfig c = parse_experiment("[sweep]\nbackend = \"slurm\"\ntime_limit = \"3-00:00:00\"\n"
                                              "sbatch_args = [\"--account=x\"]\npoll_seconds = 5\n",
                                              "x.toml");
        QVERIFY(c.sweep.backend == SweepBackend::Slurm);
        QCOMPARE(c.sweep.time_limit, std::string("3-00:00:00"));
        QCOMPARE(c.sweep.sbatch_args, (std::vector<std::string>{"--account=x"}));
        QCOMPARE(c.sweep.poll_seconds, 5.0);
        QCOMPARE(c.sweep.workers, 0); // untouched keys keep their defaults
        QCOMPARE(c.sweep.threads_per_task, 1);
        apply_override(c, "sweep.workers=3");
        apply_override(c, "sweep.backend=\"local\"");
        apply_override(c, "sweep.gres=\"gpu:2\"");
        QCOMPARE(c.sweep.workers, 3);
        QVERIFY(c.sweep.backend == SweepBackend::Local);
        QCOMPARE(c.sweep.gres, std::string("gpu:2"));
        QVERIFY(config_error([&] { apply_override(c, "sweep.threads_per_task=0"); })
                    .startsWith("--set sweep.threads_per_task=0: sweep.threads_per_task: must be at least 1"));
        QVERIFY(config_error([&] { apply_override(c, "sweep.time_limit=\"soon\""); })
                    .startsWith("--set sweep.time_limit=\"soon\": sweep.time_limit: expected [D-]HH:MM:SS"));
        QCOMPARE(c.sweep.threads_per_task, 1);
        // A backend is an enum: an unknown name is refused where it is parsed, and cannot reach validate().
        ExperimentConfig d;
        QVERIFY(config_error([&] { apply_override(d, "sweep.backend=\"grid\""); })
                    .startsWith("--set sweep.backend=\"grid\": sweep.backend: unknown value \"grid\""));
        QVERIFY(d.sweep.backend == SweepBackend::Local);
    }

    // A string whose quotes the shell took (--set agent.kind="policy" in bash) is read as a string;
    // the key's reader still checks it, and a number or a list keeps its TOML meaning.
    void a_bare_word_in_an_override_is_a_string()
    {
        ExperimentConfig c;
        apply_overrides(c, {"agent.kind=policy", "agent.policy=runs/learn-quick/policy.pt"});
        QVERIFY(c.agent.kind == AgentKind::Policy);
        QCOMPARE(c.agent.policy, std::string("runs/learn-quick/policy.pt"));
        apply_override(c, "agent.policy=/abs/policy.pt");
        QCOMPARE(c.agent.policy, std::string("/abs/policy.pt"));
        apply_override(c, "job.model=FeedForwardNet2");
        QCOMPARE(c.job.model, std::string("FeedForwardNet2"));
        QVERIFY(config_error([&] { apply_override(c, "job.lr=fast"); }).startsWith("--set job.lr=fast: job.lr: "));
        QVERIFY(config_error([&] { apply_override(c, "dataset.kind=foo"); }).contains("unknown value \"foo\""));
    }

    void override_errors_name_the_assignment_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bad value")
            << "dataset.kind=\"foo\""
            << "--set dataset.kind=\"foo\": dataset.kind: unknown value \"foo\" (allowed:";
        QTest::newRow("unquoted string") << "dataset.kind=foo"
                                         << "--set dataset.kind=foo: dataset.kind: ";
        QTest::newRow("unknown key") << "job.foo=1"
                                     << "--set job.foo=1: job.foo: unknown key (known: model, "; // none near
        QTest::newRow("misspelt key") << "job.batchsize=64"
                                      << "--set job.batchsize=64: job.batchsize: unknown key; did you mean "
                                         "job.batch_size? (known: model, ";
        QTest::newRow("unknown section") << "jobs.lr=1"
                                         << "--set jobs.lr=1: jobs: unknown section; did you mean [job]? (known: ";
        QTest::newRow("wrong type")
            << "job.batch_size=\"64\""
            << "--set job.batch_size=\"64\": job.batch_size: expected an integer, got a string";
        QTest::newRow("no equals") << "job.lr"
                                   << "--set job.lr: expected section.key=value";
        QTest::newRow("no value") << "job.lr="
                                  << "--set job.lr=: expected a value";
        QTest::newRow("deep key") << "a.b.c=1"
                                  << "--set a.b.c=1: \"a.b.c\" is not a section.key name";
        QTest::newRow("budget under an event")
            << "scheduler.budget=40"
            << "--set scheduler.budget=40: scheduler.events[0].time: 50 is outside the budget [0, 40)";
        QTest::newRow("smuggled second key")
            << "job.lr=1\n[agent]\nkind=\"x\""
            << "--set job.lr=1\\n[agent]\\nkind=\"x\": expected exactly one value";
        QTest::newRow("negative action")
            << "agent.sequence=[1,-2]"
            << "--set agent.sequence=[1,-2]: agent.sequence[1]: must not be negative";
    }
    void override_errors_name_the_assignment()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, expected);
        ExperimentConfig c =
            parse_experiment("[scheduler]\nevents = [{ time = 50, change = \"up\" }]\n", "x.toml");
        const ExperimentConfig before = c;
        const QString msg = config_error([&] { apply_override(c, assignment.toStdString()); });
        QVERIFY2(msg.startsWith(expected), qPrintable(msg));
        QVERIFY2(!msg.contains('\n'), qPrintable(msg));
        QVERIFY(c == before); // unchanged on error
    }

    void validate_checks_configs_built_in_code()
    {
        ExperimentConfig c;
        validate(c);
        c.job.lr = -1.0;
        c.agent.kind = AgentKind::Policy;
        QCOMPARE(config_error([&] { validate(c); }), QString("job.lr: must be in (0, 1.8e+19], got -1"));
        const auto problems = find_problems(c);
        QCOMPARE(problems.size(), std::size_t{2});
        QCOMPARE(problems[1].key, std::string("agent.policy"));
        c.job.lr = 0.1;
        c.simulation.table = "t.csv"; // a learning run may start from scratch
        validate(c);
        c.scheduler.clock = ClockKind::Wall;
        c.scheduler.step_cost = 0.0; // only the virtual clock charges steps
        validate(c);
        c.job.seed = ~std::uint64_t{0};
        QVERIFY(
            config_error([&] { validate(c); }).startsWith("job.seed: must be at most 9223372036854775807"));
        QVERIFY(is_device_name("cuda:12") && !is_device_name("cuda:") && !is_device_name("CPU"));
    }

    void load_errors_name_the_file()
    {
        QVERIFY(config_error([] {
                    load_experiment("/nonexistent/exp.toml");
                }).startsWith("/nonexistent/exp.toml: no such file"));
    }

    void example_experiments_parse()
    {
        const auto d = load_experiment(RLDA_SOURCE_DIR "/config/default.toml");
        QVERIFY(d.warnings.empty());
        QCOMPARE(d.job.model, std::string("ConvNet2"));
        QVERIFY(d.dataset.kind == DatasetKind::FashionMnist);
        QVERIFY(d.job.head == model::OutputHead::Logits);
        QCOMPARE(d.dataset.train_subset, std::int64_t{10000});
        QCOMPARE(d.dataset.test_subset, std::int64_t{0}); // the whole test set
        QCOMPARE(d.job.batch_size, std::int64_t{32});
        QVERIFY(d.job.optimizer == Optimizer::Adam);
        QCOMPARE(d.job.lr, 0.002);
        QCOMPARE(d.job.lr_decay, 0.9);
        QVERIFY(d.scheduler.clock == ClockKind::Virtual);
        QCOMPARE(d.scheduler.budget, 60.0);
        QCOMPARE(d.scheduler.step_cost, 0.025);
        QCOMPARE(d.scheduler.events, (std::vector<AllocationEventConfig>{{20.0, Change::Up}}));
        QVERIFY(d.agent.kind == AgentKind::Fixed);
        QCOMPARE(d.agent.sequence, (std::vector<int>{1, 2, 3}));
        const auto q = load_experiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml");
        QVERIFY(q.warnings.empty());
        QVERIFY(q.dataset.kind == DatasetKind::Synthetic);
        QVERIFY(q.scheduler.budget <= 10.0);
        QCOMPARE(q.scheduler.events.size(), std::size_t{1});
    }

    void overrides_apply_together_in_any_order()
    {
        const ExperimentConfig file =
            parse_experiment("[scheduler]\nevents = [{ time = 50, change = \"up\" }]\n", "x.toml");
        // The kind first used to fail: a policy agent without a policy file yet.
        ExperimentConfig a = file;
        ExperimentConfig b = file;
        apply_overrides(a, {"agent.kind=\"policy\"", "agent.policy=\"p.pt\""});
        apply_overrides(b, {"agent.policy=\"p.pt\"", "agent.kind=\"policy\""});
        QVERIFY(a == b);
        QVERIFY(a.agent.kind == AgentKind::Policy);
        QCOMPARE(a.agent.policy, std::string("p.pt"));
        // A budget below the event is fine when the event moves too, in either order.
        ExperimentConfig c = file;
        ExperimentConfig d = file;
        apply_overrides(c, {"scheduler.budget=30", "scheduler.events=[{time=10, change=\"up\"}]"});
        apply_overrides(d, {"scheduler.events=[{time=10, change=\"up\"}]", "scheduler.budget=30"});
        QVERIFY(c == d);
        QCOMPARE(c.scheduler.budget, 30.0);
        // Two assignments to one key: the later wins.
        ExperimentConfig e = file;
        apply_overrides(e, {"job.lr=0.5", "job.lr=0.25"});
        QCOMPARE(e.job.lr, 0.25);
        ExperimentConfig none = file;
        apply_overrides(none, {});
        QVERIFY(none == file);
    }

    void overrides_applied_together_name_the_assignment_at_fault()
    {
        const ExperimentConfig file =
            parse_experiment("[scheduler]\nevents = [{ time = 50, change = \"up\" }]\n", "x.toml");
        const auto error = [&](const std::vector<std::string>& assignments) {
            ExperimentConfig c = file;
            const QString msg = config_error([&] { apply_overrides(c, assignments); });
            if (!(c == file))
                return QString("changed on error");
            return msg.contains('\n') ? QString("more than one line") : msg;
        };
        QVERIFY(error({"agent.seed=1", "agent.kind=\"policy\""})
                    .startsWith("--set agent.kind=\"policy\": agent.policy: a policy file is required"));
        // The assignment without which the problem goes away, not the latest in the section.
        QCOMPARE(error({"scheduler.budget=40", "scheduler.step_cost=0.1"}),
                 QString("--set scheduler.budget=40: scheduler.events[0].time: 50 is outside the budget [0, 40)"));
        QCOMPARE(error({"scheduler.step_cost=0.1", "scheduler.budget=40"}),
                 QString("--set scheduler.budget=40: scheduler.events[0].time: 50 is outside the budget [0, 40)"));
        QVERIFY(error({"job.lr=0.5", "job.lr=-1"}).startsWith("--set job.lr=-1: job.lr: must be in (0, 1.8e+19]"));
        // Types and keys fail at their own assignment, before any check of the whole.
        QVERIFY(error({"agent.kind=\"policy\"", "job.batch_size=\"64\""})
                    .startsWith("--set job.batch_size=\"64\": job.batch_size: expected an integer, got a string"));
        QVERIFY(error({"job.lr=0.5", "job.foo=1"}).startsWith("--set job.foo=1: job.foo: unknown key"));
    }

    // The acceptance test of "one declaration per key": a key declared in one place, bound to
    // storage of its own, is read, written, validated and overridden with no other change.
    void a_key_declared_once_is_read_written_and_checked()
    {
        auto patience = std::make_shared<double>(3.0);
        const Schema schema = rlda::test::with_patience(patience);
        const auto error = [&](const std::string& text) {
            return config_error([&] { parse_experiment(text, "x.toml", schema); });
        };

        // Read from a file.
        const ExperimentConfig c = parse_experiment("[trainer]\nmax_decisions = 2\npatience = 7.5\n", "x.toml", schema);
        QCOMPARE(*patience, 7.5);
        QCOMPARE(c.trainer.max_decisions, 2);
        // Written, with its help and range, at the end of its section.
        const QString text = QString::fromStdString(to_toml(c, schema));
        QVERIFY2(text.contains(QRegularExpression("\nwarm_start_checkpoint = [^\n]*\npatience = 7\\.5 +"
                                                  "# Epochs without progress before stopping; in \\[0, 100\\]\n")),
                 qPrintable(text));
        QVERIFY(text.indexOf("\npatience = ") < text.indexOf("\n[agent]"));
        *patience = 0.0;
        QVERIFY(same_settings(parse_experiment(text.toStdString(), "x", schema), c));
        QCOMPARE(*patience, 7.5);
        // Validated: its range and type, one line naming the file position and the key.
        QCOMPARE(error("[trainer]\npatience = 250\n"), QString("x.toml:2:12: trainer.patience: must be in [0, 100], got 250"));
        QCOMPARE(error("[trainer]\npatience = \"long\"\n"),
                 QString("x.toml:2:12: trainer.patience: expected a number, got a string"));
        *patience = -1.0;
        const auto problems = find_problems(ExperimentConfig{}, schema);
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems[0].key, std::string("trainer.patience"));
        QVERIFY(find_problems(ExperimentConfig{}).empty()); // the experiment schema does not know it
        // Overridden with --set, with the same checks.
        ExperimentConfig d;
        apply_overrides(d, {"trainer.patience=12"}, schema);
        QCOMPARE(*patience, 12.0);
        QCOMPARE(config_error([&] { apply_overrides(d, {"trainer.patience=101"}, schema); }),
                 QString("--set trainer.patience=101: trainer.patience: must be in [0, 100], got 101"));
        // Unknown to the experiment schema, which suggests its own keys.
        QVERIFY(parse_error("[trainer]\npatience = 1\n").startsWith("x.toml:2:1: trainer.patience: unknown key"));
        QVERIFY(error("[trainer]\nnope = 1\n").contains(", patience)"));
        // Declared once: a second declaration, or one in a section that does not exist, is refused.
        Schema again = schema;
        QVERIFY_THROWS_EXCEPTION(Error, again.add(Key{.name = "trainer.patience", .type = Type::Flag}));
        QVERIFY_THROWS_EXCEPTION(Error, again.add(Key{.name = "runner.seed", .type = Type::Flag}));
        QVERIFY_THROWS_EXCEPTION(Error, again.add(Key{.name = "stopping.patience", .type = Type::Flag}));
        QCOMPARE(again.keys.size(), schema.keys.size());
    }

    void the_schema_declares_every_key_once()
    {
        const Schema& schema = experiment_schema();
        QSet<QString> seen;
        for (const auto& k : schema.keys) {
            QVERIFY2(!seen.contains(QString::fromStdString(k.name)), k.name.c_str());
            seen.insert(QString::fromStdString(k.name));
            QVERIFY2(!k.help.empty(), k.name.c_str());
            QVERIFY2(k.section().empty() || schema.find_section(k.section()), k.name.c_str());
            // The default a file gets is one the declaration allows.
            if (k.type == Type::Choice) {
                const auto v = std::get<Binding<std::string>>(k.value).get(ExperimentConfig{});
                QVERIFY2(std::find(k.choices.begin(), k.choices.end(), v) != k.choices.end(), k.name.c_str());
            }
        }
        QVERIFY(check_keys(ExperimentConfig{}, schema).empty());
        // Every original spelling sets one of ours (or is reported as not used), and shadows none.
        for (const auto& a : schema.aliases) {
            QVERIFY2(a.key.empty() ? !a.note.empty() : schema.find(a.key) != nullptr, a.name.c_str());
            QVERIFY2(!schema.find(a.name), a.name.c_str());
        }
        // The enums' names: one table each, read back to the same value; the choices are those names.
        for (const auto& n : names<Optimizer>())
            QCOMPARE(to_string(from_string<Optimizer>(n).value()), n);
        for (const auto& n : names<AgentKind>())
            QCOMPARE(to_string(from_string<AgentKind>(n).value()), n);
        QCOMPARE(schema.find("job.optimizer")->choices, names<Optimizer>());
        QCOMPARE(schema.find("dataset.kind")->choices, names<DatasetKind>());
        QCOMPARE(schema.find("dataset.normalization")->choices, names<Normalization>());
        QCOMPARE(schema.find("scheduler.clock")->choices, names<ClockKind>());
        QCOMPARE(schema.find("agent.kind")->choices, names<AgentKind>());
        QCOMPARE(schema.find("sweep.backend")->choices, names<SweepBackend>());
        QVERIFY(!from_string<Optimizer>("Adam")); // case-sensitive: "adam"
        // A kind parsed once: the optimizer is Adam or SGD, nothing else reaches the trainer.
        QVERIFY(parse_experiment("[job]\noptimizer = \"sgd\"\n", "x").job.optimizer == Optimizer::Sgd);
        QCOMPARE(parse_error("[job]\noptimizer = \"SGD\"\n"),
                 QString("x.toml:2:13: job.optimizer: unknown value \"SGD\" (allowed: \"adam\", \"sgd\")"));
    }

    void output_head_is_read_written_and_checked()
    {
        QVERIFY(ExperimentConfig{}.job.head == model::OutputHead::Relu); // the original's
        const ExperimentConfig c = parse_experiment("[job]\nhead = \"logits\"\n", "x.toml");
        QVERIFY(c.job.head == model::OutputHead::Logits);
        const std::string text = to_toml(c);
        QVERIFY2(QString::fromStdString(text).contains("\nhead = \"logits\" "), text.c_str());
        QVERIFY(same_settings(parse_experiment(text, "x"), c));
        QVERIFY(QString::fromStdString(to_toml(ExperimentConfig{})).contains("\nhead = \"relu\" "));
        QVERIFY(parse_experiment("[job]\nhead = \"relu\"\n", "x.toml").job.head == model::OutputHead::Relu);
        QCOMPARE(parse_error("[job]\nhead = \"softmax\"\n"),
                 QString("x.toml:2:8: job.head: unknown value \"softmax\" (allowed: \"relu\", \"logits\")"));
        QVERIFY(parse_error("[job]\nhead = 1\n").startsWith("x.toml:2:8: job.head: expected a string"));
        ExperimentConfig d;
        apply_override(d, "job.head=\"logits\"");
        QVERIFY(d.job.head == model::OutputHead::Logits);
        QVERIFY(config_error([&] { apply_override(d, "job.head=\"none\""); })
                    .startsWith("--set job.head=\"none\": job.head: unknown value \"none\""));
        // A model file writes its own last block: "logits" there is a mistake, marked on both keys.
        ExperimentConfig f;
        f.job.model = "models/net.toml";
        f.job.head = model::OutputHead::Logits;
        const auto problems = find_problems(f);
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems[0].key, std::string("job.head"));
        QCOMPARE(problems[0].related, std::string("job.model"));
        QVERIFY(parse_error("[job]\nmodel = \"net.toml\"\nhead = \"logits\"\n")
                    .startsWith("x.toml:3:8: job.head: \"logits\" applies to zoo models only"));
        f.job.head = model::OutputHead::Relu; // the file as written
        QVERIFY(find_problems(f).empty());
        QCOMPARE(model::output_head_names(), (std::vector<std::string>{"relu", "logits"}));
        for (const auto& name : model::output_head_names())
            QCOMPARE(model::to_string(model::parse_output_head(name).value()), name);
        QVERIFY(!model::parse_output_head("ReLU"));
    }
};

QTEST_GUILESS_MAIN(TestConfig)
#include "test_config.moc"
