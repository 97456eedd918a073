// Experiment configs checked: every validation message with its file, line, column and key, the
// action sequence and operations against the model, and configs built in code.
#include "core/config/experiment_io.h"
#include "tests/common/config_error.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

using namespace rlda::core;
using namespace rlda::core::config;
using rlda::test::config_error;
using rlda::test::parse_error;

class TestConfigValidation : public QObject {
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
                                       "\"random\", \"none\", \"policy\", \"simulation\", \"gradient\", "
                                       "\"loss-drop\", \"first\", \"last\", \"grow-while-improving\")";
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
                                       << "x.toml:2:20: sweep.threads_per_task: must be in [1, 1024], got 0";
        QTest::newRow("sweep retries") << "[sweep]\nmax_retries = -1\n"
                                       << "x.toml:2:15: sweep.max_retries: must be in [0, 100], got -1";
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
};

RLDA_SUITE_GUILESS_MAIN(TestConfigValidation)
#include "test_config_validation.moc"
