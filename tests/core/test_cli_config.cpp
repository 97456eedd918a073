// `rlda config keys` as a user runs it: one line per key of the schema, with its type, default,
// what it allows and its help.
#include "core/config/schema.h"
#include "tests/common/rlda_cli.h"

#include <QtTest/QtTest>

using namespace rlda::core::config;

namespace {

using rlda::test::CliResult;
using rlda::test::rlda_cli;

// The columns of the line for `key`, split on runs of two or more spaces.
QStringList columns(const QStringList& lines, const QString& key)
{
    for (const auto& line : lines)
        if (line.startsWith(key + "  "))
            return line.split(QRegularExpression("\\s{2,}"));
    return {};
}

} // namespace

class TestCliConfig : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keys_lists_every_key_of_the_schema()
    {
        const CliResult r = rlda_cli({"config", "keys"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.isEmpty());
        const QStringList lines = r.out.trimmed().split('\n');
        QVERIFY2(lines[0].startsWith("KEY") && lines[0].contains("TYPE") && lines[0].contains("DEFAULT") &&
                     lines[0].contains("ALLOWED") && lines[0].contains("HELP"),
                 qPrintable(lines[0]));
        const auto& keys = experiment_schema().keys;
        QCOMPARE(lines.size(), int(keys.size()) + 1);
        for (const auto& k : keys)
            QVERIFY2(!columns(lines, QString::fromStdString(k.name)).isEmpty(), k.name.c_str());
    }

    void keys_shows_type_default_range_choices_and_help()
    {
        const QStringList lines = rlda_cli({"config", "keys"}).out.trimmed().split('\n');
        QCOMPARE(columns(lines, "job.lr"),
                 (QStringList{"job.lr", "number", "0.01", "in (0, 1.8e+19]", "Reset to this after every adaptation"}));
        QCOMPARE(columns(lines, "job.optimizer"),
                 (QStringList{"job.optimizer", "choice", "\"adam\"", "\"adam\", \"sgd\"", "Adam, or SGD with momentum"}));
        QCOMPARE(columns(lines, "job.lr_decay").mid(1, 3), (QStringList{"number", "0.9", "in (0, 1]"}));
        QCOMPARE(columns(lines, "dataset.shape").mid(1, 3), (QStringList{"integers", "[3, 32, 32]", "3 integers >= 1"}));
        QCOMPARE(columns(lines, "scheduler.events").mid(1, 2), (QStringList{"events", "[]"}));
        QCOMPARE(columns(lines, "sweep.backend").mid(1, 3),
                 (QStringList{"choice", "\"local\"", "\"local\", \"slurm\""}));
        QCOMPARE(columns(lines, "agent.kind")[3],
                 QString("\"fixed\", \"random\", \"none\", \"policy\", \"simulation\""));
    }

    void original_lists_the_original_tools_keys()
    {
        const CliResult r = rlda_cli({"config", "keys", "--original"});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), int(experiment_schema().aliases.size()) + 1);
        QCOMPARE(columns(lines, "scheduler.running_time"), (QStringList{"scheduler.running_time", "scheduler.budget"}));
        QCOMPARE(columns(lines, "runner.agent"), (QStringList{"runner.agent", "agent.kind"}));
        QVERIFY(columns(lines, "trainer.weights").value(1) == "(not used)");
        QVERIFY(columns(lines, "trainer.weights").value(2).startsWith("not used: "));
    }

    void unknown_subcommand_is_an_argument_error()
    {
        const CliResult r = rlda_cli({"config", "values"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("rlda: error: "), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliConfig)
#include "test_cli_config.moc"
