// `rlda config keys` as a user runs it: every key of the schema with its type and default on one
// line, what it does and allows under it, section by section, every line within 80 columns.
#include "core/config/schema.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

using namespace rlda::core::config;

namespace {

using rlda::test::CliResult;
using rlda::test::rlda_cli;

// One entry of the listing: its first line's columns (split on runs of two or more spaces) and
// the text indented under it, its lines joined by spaces.
struct Entry {
    QStringList columns;
    QString text;
};

// The entries of `out` by their first column ("job.lr", and "KEY" for the header); section
// headers ("[job]  ...") and blank lines are not entries.
QMap<QString, Entry> entries(const QString& out)
{
    QMap<QString, Entry> map;
    QString last;
    for (const QString& line : out.split('\n')) {
        if (line.startsWith("    ")) {
            Entry& e = map[last];
            e.text += (e.text.isEmpty() ? "" : " ") + line.trimmed();
        } else if (!line.isEmpty() && !line.startsWith('[')) {
            const QStringList columns = line.split(QRegularExpression("\\s{2,}"));
            last = columns.front();
            map[last].columns = columns;
        }
    }
    return map;
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
        const auto map = entries(r.out);
        QCOMPARE(map["KEY"].columns, (QStringList{"KEY", "TYPE", "DEFAULT"}));
        QCOMPARE(map["KEY"].text, QString("WHAT IT DOES; WHAT IT ALLOWS"));
        const auto& keys = experiment_schema().keys;
        QCOMPARE(map.size(), int(keys.size()) + 1);
        for (const auto& k : keys) {
            const Entry e = map.value(QString::fromStdString(k.name));
            QVERIFY2(e.columns.size() == 3 && !e.text.isEmpty(), k.name.c_str());
        }
        // Section by section, each under its header.
        for (const auto& section : experiment_schema().sections)
            QVERIFY2(r.out.contains(QString("\n\n[%1]  %2\n%1.").arg(QString::fromStdString(section.name),
                                                                    QString::fromStdString(section.help))),
                     section.name.c_str());
    }

    void keys_shows_type_default_range_choices_and_help()
    {
        const auto map = entries(rlda_cli({"config", "keys"}).out);
        QCOMPARE(map["job.lr"].columns, (QStringList{"job.lr", "number", "0.01"}));
        QCOMPARE(map["job.lr"].text, QString("Reset to this after every adaptation; in (0, 1.8e+19]"));
        QCOMPARE(map["job.optimizer"].columns, (QStringList{"job.optimizer", "choice", "\"adam\""}));
        QCOMPARE(map["job.optimizer"].text, QString("Adam, or SGD with momentum; one of \"adam\", \"sgd\""));
        QCOMPARE(map["job.lr_decay"].columns.mid(1), (QStringList{"number", "0.9"}));
        QVERIFY(map["job.lr_decay"].text.endsWith("; in (0, 1]"));
        QCOMPARE(map["dataset.shape"].columns.mid(1), (QStringList{"integers", "[3, 32, 32]"}));
        QVERIFY(map["dataset.shape"].text.endsWith("; 3 integers >= 1"));
        QCOMPARE(map["scheduler.events"].columns.mid(1), (QStringList{"events", "[]"}));
        QCOMPARE(map["sweep.backend"].columns.mid(1), (QStringList{"choice", "\"local\""}));
        QVERIFY(map["sweep.backend"].text.endsWith("; one of \"local\", \"slurm\""));
        // A long text is wrapped, and reads back whole.
        QVERIFY(map["agent.kind"].text.endsWith("; one of \"fixed\", \"random\", \"none\", \"policy\", \"simulation\", "
                                                "\"gradient\", \"loss-drop\", \"first\", \"last\", "
                                                "\"grow-while-improving\""));
        QVERIFY(map["agent.kind"].text.startsWith("fixed: a sequence; random; none: always Do Nothing;"));
    }

    // Issue 27: lines were about 190 columns wide.
    void every_line_fits_80_columns_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("keys") << QStringList{"config", "keys"};
        QTest::newRow("original") << QStringList{"config", "keys", "--original"};
    }
    void every_line_fits_80_columns()
    {
        QFETCH(QStringList, args);
        const CliResult r = rlda_cli(args);
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.split('\n');
        QVERIFY(lines.size() > 20);
        for (const QString& line : lines) {
            QVERIFY2(line.size() <= 80, qPrintable(QString("%1 columns: %2").arg(line.size()).arg(line)));
            QVERIFY2(!line.endsWith(' '), qPrintable(line));
        }
    }

    void original_lists_the_original_tools_keys()
    {
        const CliResult r = rlda_cli({"config", "keys", "--original"});
        QCOMPARE(r.code, 0);
        const auto map = entries(r.out);
        QCOMPARE(map.size(), int(experiment_schema().aliases.size()) + 1);
        QCOMPARE(map["ORIGINAL"].columns, (QStringList{"ORIGINAL", "READ AS"}));
        QCOMPARE(map["ORIGINAL"].text, QString("NOTE"));
        QCOMPARE(map["scheduler.running_time"].columns, (QStringList{"scheduler.running_time", "scheduler.budget"}));
        QVERIFY(map["scheduler.running_time"].text.isEmpty());
        QCOMPARE(map["runner.agent"].columns, (QStringList{"runner.agent", "agent.kind"}));
        QCOMPARE(map["trainer.weights"].columns.value(1), QString("(not used)"));
        QVERIFY(map["trainer.weights"].text.startsWith("not used: "));
    }

    void unknown_subcommand_is_an_argument_error()
    {
        const CliResult r = rlda_cli({"config", "values"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("rlda: error: "), qPrintable(r.err));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestCliConfig)
#include "test_cli_config.moc"
