// Numeric options of `rlda learn`, `evaluate` and `simulate` as a user types them: a value out of
// range, NaN or one that overflows its type is refused with one line naming the option, the value
// and the limit, exit code 2, and nothing is written (app/cli/numbers.h). Numbers rlda prints for
// people carry the digits that matter (app/cli/decimal.h), its files every digit.
#include "app/cli/decimal.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

#include <limits>
#include <string>

namespace {

using rlda::test::CliResult;
using rlda::test::rlda_cli;

} // namespace

class TestCliNumbers : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void refused_with_the_option_and_its_limit_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QStringList learn{"learn", "--table", "t", "--out", dir_.filePath("learn")};
        QTest::newRow("learn --episodes overflow")
            << learn + QStringList{"--episodes", "99999999999999999999"}
            << "--episodes: 99999999999999999999: must be a whole number from 1 to 1000000000000";
        QTest::newRow("learn --temperature nan")
            << learn + QStringList{"--temperature", "nan"} << "--temperature: nan: must be a finite number from 5.6e-20 to 1.8e+19";
        QTest::newRow("learn --temperature inf")
            << learn + QStringList{"--temperature", "inf"} << "--temperature: inf: must be a finite number from 5.6e-20 to 1.8e+19";
        QTest::newRow("learn --baseline nan")
            << learn + QStringList{"--baseline", "nan"} << "--baseline: nan: must be a finite number at least 0, below 1";
        QTest::newRow("learn --temperature-decay -1")
            << learn + QStringList{"--temperature-decay", "-1"}
            << "--temperature-decay: -1: must be a finite number above 0, at most 1";
        QTest::newRow("learn --temperature-every fraction")
            << learn + QStringList{"--temperature-every", "1.5"}
            << "--temperature-every: 1.5: must be a whole number from 0 to 1000000000000";
        QTest::newRow("learn --seed -1") << learn + QStringList{"--seed", "-1"}
                                         << "--seed: -1: must be a whole number from 0 to 9223372036854775807";
        QTest::newRow("learn --window -1")
            << learn + QStringList{"--window", "-1"} << "--window: -1: must be a whole number from 1 to 1000000";
        QTest::newRow("learn --classes overflow")
            << learn + QStringList{"--classes", "99999999999999999999"}
            << "--classes: 99999999999999999999: must be a whole number from 1 to 1000000";
        QTest::newRow("simulate --workers -1")
            << QStringList{"simulate", "c.toml", "--out", dir_.filePath("simulate"), "--workers", "-1"}
            << "--workers: -1: must be a whole number from 0 to 65536";
        QTest::newRow("evaluate --seed -1")
            << QStringList{"evaluate", "--policy", "p.pt", "--table", "t", "--seed", "-1"}
            << "--seed: -1: must be a whole number from 0 to 9223372036854775807";
        const QStringList reproduce{"reproduce", "--out", dir_.filePath("reproduce")};
        QTest::newRow("reproduce --episodes overflow")
            << reproduce + QStringList{"--episodes", "99999999999999999999"}
            << "--episodes: 99999999999999999999: must be a whole number from 1 to 1000000000000";
        QTest::newRow("reproduce --baseline nan")
            << reproduce + QStringList{"--baseline", "nan"} << "--baseline: nan: must be a finite number at least 0, below 1";
        QTest::newRow("reproduce --seed -1")
            << reproduce + QStringList{"--seed", "-1"} << "--seed: -1: must be a whole number from 0 to 9223372036854775807";
        // Issue 42, item 18: squared in the objective, bounded as the other squarable values.
        QTest::newRow("learn --entropy-bonus 1e30")
            << learn + QStringList{"--entropy-bonus", "1e30"}
            << "--entropy-bonus: 1e30: must be a finite number from 0 to 1.8e+19";
    }
    void refused_with_the_option_and_its_limit()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CliResult r = rlda_cli(args);
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, "rlda: error: " + expected + " (see rlda --help)\n");
        QVERIFY(r.out.isEmpty());
        QVERIFY(QDir(dir_.path()).isEmpty());
    }

    // Issue 42, item 23: the arguments a command parses itself exit 2 as well, in one line naming
    // the argument, before anything is read or written.
    void arguments_a_command_parses_exit_2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
        const QStringList simulate{"simulate", quick, "--out", dir_.filePath("simulate")};
        for (const char* part : {"0/0", "5/4", "-1/4", "1/2/3"})
            QTest::newRow(part) << simulate + QStringList{"--part", part}
                                << QStringLiteral("--part %1").arg(part);
        QTest::newRow("backend") << simulate + QStringList{"--backend", "nope"}
                                 << "--backend nope: unknown backend";
        QTest::newRow("seeds and replicates")
            << simulate + QStringList{"--seeds", "1", "2", "--replicates", "2"}
            << "--seeds and --replicates: give one of them";
        const QStringList learn{"learn", "--out", dir_.filePath("learn")};
        QTest::newRow("stage episodes") << learn + QStringList{"--stage", "t.csv:9223372036854775807"}
                                        << "--stage \"t.csv:9223372036854775807\": expected TABLE:EPISODES";
        QTest::newRow("stage temperature") << learn + QStringList{"--stage", "t.csv:5:1e300"}
                                           << "--stage \"t.csv:5:1e300\": expected TABLE:EPISODES";
    }
    void arguments_a_command_parses_exit_2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CliResult r = rlda_cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("rlda: error: " + expected) && r.err.count('\n') == 1, qPrintable(r.err));
        QVERIFY(QDir(dir_.path()).isEmpty());
    }

    // Issue 42, items 17-19 and 21: settings that could never finish, or that poison the result.
    void settings_that_cannot_finish_are_refused()
    {
        const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
        for (const auto& [set, named] : {std::pair{"sweep.threads_per_task=100000", "sweep.threads_per_task"},
                                         std::pair{"sweep.max_retries=2147483647", "sweep.max_retries"}}) {
            const CliResult r = rlda_cli({"simulate", quick, "--set", set, "--out", dir_.filePath("t")});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.contains(named) && r.err.count('\n') == 1, qPrintable(r.err));
        }
        const CliResult twice = rlda_cli({"transfer", "--tables", RLDA_PAPER_DIR "/tables", "--seeds", "1",
                                          "1", "--episodes", "1", "--out", dir_.filePath("transfer")});
        QCOMPARE(twice.code, 1);
        QVERIFY2(twice.err.contains("--seeds: the seed 1 is given twice"), qPrintable(twice.err));
        QVERIFY(QDir(dir_.path()).isEmpty());
    }

    // The ends of each range pass the check (and then fail on the missing table, exit code 1).
    void the_limits_themselves_are_allowed_data()
    {
        QTest::addColumn<QStringList>("args");
        const QStringList learn{"learn", "--table", dir_.filePath("none"), "--out", dir_.filePath("learn")};
        QTest::newRow("episodes") << learn + QStringList{"--episodes", "1000000000000"};
        QTest::newRow("temperature") << learn + QStringList{"--temperature", "1e-9"};
        QTest::newRow("baseline") << learn + QStringList{"--baseline", "0.999999"};
        QTest::newRow("temperature-decay") << learn + QStringList{"--temperature-decay", "1"};
        QTest::newRow("seed") << learn + QStringList{"--seed", "9223372036854775807"};
    }
    void the_limits_themselves_are_allowed()
    {
        QFETCH(QStringList, args);
        const CliResult r = rlda_cli(args);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("rlda: error: " + dir_.filePath("none")), qPrintable(r.err));
    }

    void decimal_shows_six_significant_digits_at_most()
    {
        using rlda::app::decimal;
        QCOMPARE(decimal(0.46020000000000005), std::string("0.4602"));
        QCOMPARE(decimal(0.061999999999999944), std::string("0.062"));
        QCOMPARE(decimal(0.6911799999999999), std::string("0.69118"));
        QCOMPARE(decimal(0.123456789), std::string("0.123457"));
        QCOMPARE(decimal(60.0), std::string("60"));
        QCOMPARE(decimal(1e6), std::string("1000000"));
        QCOMPARE(decimal(1e-9), std::string("1e-09"));
        QCOMPARE(decimal(0.999999), std::string("0.999999"));
        QCOMPARE(decimal(-0.25), std::string("-0.25"));
        QCOMPARE(decimal(0.0), std::string("0"));
        QCOMPARE(decimal(std::numeric_limits<double>::quiet_NaN()), std::string("nan"));
    }

    // The evaluation rlda learn prints after learning, against the exact values of its events.jsonl:
    // the terminal gets decimal(value), the file keeps every digit (convnet2_early's random mean is
    // 0.6911799999999999 in binary; the seeded baselines do not depend on what was learned).
    void printed_evaluations_carry_the_digits_that_matter()
    {
        const QString out = dir_.filePath("printed");
        const CliResult r = rlda_cli({"learn", "--table", RLDA_PAPER_DIR "/tables/convnet2_early.csv", "--episodes",
                                      "2", "--seed", "0", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile events(out + "/events.jsonl");
        QVERIFY(events.open(QIODevice::ReadOnly));
        QJsonObject evaluation;
        for (const QByteArray& line : events.readAll().split('\n'))
            if (const auto o = QJsonDocument::fromJson(line).object(); o["type"] == "evaluation")
                evaluation = o["evaluation"].toObject();
        QVERIFY(!evaluation.isEmpty());
        QCOMPARE(evaluation["random_mean"].toDouble(), 0.6911799999999999);
        QVERIFY2(r.out.contains("\nrandom_mean: 0.69118\n"), qPrintable(r.out));
        for (const char* key : {"accuracy", "regret", "optimal", "no_adaptation", "random_mean", "random_expected"}) {
            const QRegularExpression line(QString("\\n%1: (\\S+)").arg(key));
            const auto m = line.match(r.out);
            QVERIFY2(m.hasMatch(), key);
            QCOMPARE(m.captured(1).toStdString(), rlda::app::decimal(evaluation[key].toDouble()));
            QString digits = m.captured(1);
            digits.remove('-').remove('.').remove(QRegularExpression("^0+"));
            QVERIFY2(digits.size() <= 6, qPrintable(m.captured(1)));
        }
    }
};

RLDA_SUITE_GUILESS_MAIN(TestCliNumbers)
#include "test_cli_numbers.moc"
