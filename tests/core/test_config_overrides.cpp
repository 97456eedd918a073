// --set: assignments onto an experiment config with the file's checks, one or several together, and
// their errors naming the assignment at fault.
#include "core/config/experiment_io.h"
#include "tests/common/config_error.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

using namespace rlda::core;
using namespace rlda::core::config;
using rlda::test::config_error;

class TestConfigOverrides : public QObject {
    Q_OBJECT

private Q_SLOTS:
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
        QVERIFY(
            config_error([&] {
                apply_override(c, "sweep.threads_per_task=0");
            }).startsWith("--set sweep.threads_per_task=0: sweep.threads_per_task: must be in [1, 1024]"));
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
};

RLDA_SUITE_GUILESS_MAIN(TestConfigOverrides)
#include "test_config_overrides.moc"
