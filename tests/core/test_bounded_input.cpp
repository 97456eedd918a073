// Nothing a user hands rlda makes it crash, hang, eat the machine's memory or lie about what went
// wrong (issue 25's probe): deep TOML keys, FIFOs, settings that can never finish, huge and
// inflating files, unreadable files and a full disk, each as a user meets it.
#include "core/config/experiment_io.h"
#include "core/data/idx.h"
#include "core/io/run_fields.h"
#include "core/io/run_reader.h"
#include "core/model/toml_model.h"
#include "core/table/table.h"
#include "core/table/table_meta.h"
#include "core/util/error.h"
#include "core/util/read_file.h"
#include "core/util/toml_parse.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/unprivileged.h"

#include <QtTest/QtTest>

#include <zlib.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

namespace {

namespace fs = std::filesystem;
using rlda::test::rlda_cli;

const QString quick = RLDA_SOURCE_DIR "/config/synthetic-quick.toml";
const QString paper_table = RLDA_PAPER_DIR "/tables/convnet2_early.csv";

void write(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QString error_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const rlda::core::Error& e) {
        return QString::fromStdString(e.what());
    }
    return "(no error)";
}

// A dotted key, or a table header, of `parts` parts: 40,000 of them overflowed toml++'s stack.
std::string deep_key(int parts, bool header)
{
    std::string key = "a";
    for (int i = 1; i < parts; ++i)
        key += ".a";
    return header ? "[" + key + "]\nx = 1\n" : key + " = 1\n";
}

bool refused(const rlda::test::CliResult& r)
{
    return r.code == 1 && r.err.startsWith("rlda: error: ") && r.err.count('\n') == 1;
}

void make_fifo(const QString& path) { QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0644), 0); }

// `bytes` gzip-compressed into `path`.
void write_gz(const QString& path, const std::function<void(gzFile)>& fill)
{
    gzFile f = gzopen(QFile::encodeName(path).constData(), "wb9");
    QVERIFY(f != nullptr);
    fill(f);
    gzclose(f);
}

void put_be32(gzFile f, std::uint32_t v)
{
    const unsigned char b[4] = {static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
                                static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
    gzwrite(f, b, 4);
}

} // namespace

class TestBoundedInput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void deep_keys_are_refused_before_toml_sees_them()
    {
        using rlda::core::check_toml_depth;
        for (const bool header : {false, true}) {
            const std::string text = deep_key(40000, header);
            const QString experiment = error_of([&] { rlda::core::config::parse_experiment(text, "deep.toml"); });
            QVERIFY2(experiment.startsWith("deep.toml:1:") && experiment.contains("nested deeper than 64 levels"),
                     qPrintable(experiment));
            const QString model = error_of([&] { rlda::core::model::parse_toml_model(text, "m.toml", {3, 32, 32}, 10); });
            QVERIFY2(model.contains("nested deeper than 64 levels"), qPrintable(model));
        }
        // The bound is on depth, not on dots: 64 levels pass, 65 do not; dots inside strings, in a
        // quoted key or a value, are no levels at all.
        QCOMPARE(error_of([&] { check_toml_depth(deep_key(64, false), "f"); }), QString("(no error)"));
        QVERIFY(error_of([&] { check_toml_depth(deep_key(65, false), "f"); }).contains("deeper than 64"));
        QVERIFY(error_of([&] { check_toml_depth(deep_key(65, true), "f"); }).contains("deeper than 64"));
        const std::string dots(100000, '.');
        QCOMPARE(error_of([&] { check_toml_depth("\"" + dots + "\" = 1\nx = '" + dots + "'\ny = \"\"\"\n" + dots + "\"\"\"\n", "f"); }),
                 QString("(no error)"));
        // Inline tables count with the keys inside them.
        std::string nested = "x = ";
        for (int i = 0; i < 40; ++i)
            nested += "{ a.b = ";
        nested += "1" + std::string(40, '}') + "\n";
        QVERIFY(error_of([&] { check_toml_depth(nested, "f"); }).contains("deeper than 64"));
        // --set: the value is TOML too.
        rlda::core::config::ExperimentConfig c;
        const QString set = error_of([&] {
            rlda::core::config::apply_override(c, "job.model={" + deep_key(40000, false).substr(0, 80001) + "}");
        });
        QVERIFY2(set.contains("nested deeper than 64 levels"), qPrintable(set));
    }

    void deep_keys_in_every_file_that_holds_toml()
    {
        QTemporaryDir dir;
        const QByteArray deep = QByteArray::fromStdString(deep_key(40000, false));
        // An experiment file and a model file, through the command line.
        write(dir.filePath("deep.toml"), deep);
        for (const QStringList& args : {QStringList{"train", dir.filePath("deep.toml"), "--out", dir.filePath("o")},
                                        QStringList{"model", "show", dir.filePath("deep.toml"), "--input", "3x32x32"}}) {
            const auto r = rlda_cli(args);
            QVERIFY2(refused(r) && r.err.contains("nested deeper than 64 levels"), qPrintable(r.err));
        }
        // A table's metadata that embeds a model's text.
        rlda::core::sim::TableMeta meta;
        meta.model = "Deep";
        meta.model_toml = deep.toStdString();
        meta.decisions = 3;
        meta.actions = 4;
        meta.rows = 64;
        QVERIFY(QFile::copy(paper_table, dir.filePath("t.csv")));
        rlda::core::sim::save_table_meta(dir.filePath("t.json").toStdString(), meta);
        const auto learn = rlda_cli({"learn", "--table", dir.filePath("t.csv"), "--episodes", "1", "--out", dir.filePath("l")});
        QVERIFY2(refused(learn) && learn.err.contains("nested deeper than 64 levels"), qPrintable(learn.err));
        // A run folder's config.toml, as the Runs page reads it: a problem, not a crash.
        write(dir.filePath("runs/r/config.toml"), deep);
        write(dir.filePath("runs/r/events.jsonl"), "");
        const auto run = rlda::core::io::read_run(dir.filePath("runs/r").toStdString());
        (void)rlda::core::io::run_fields(run);
    }

    void a_fifo_is_refused_not_waited_on()
    {
        QTemporaryDir dir;
        make_fifo(dir.filePath("fifo.toml"));
        make_fifo(dir.filePath("fifo.csv"));
        make_fifo(dir.filePath("fifo.pt"));
        QVERIFY(QDir().mkpath(dir.filePath("idx")));
        for (const char* name : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                                 "t10k-labels-idx1-ubyte"})
            make_fifo(dir.filePath(QString("idx/") + name));
        const QList<QStringList> cases = {
            {"train", dir.filePath("fifo.toml"), "--out", dir.filePath("o1")},
            {"train", quick, "--set", "job.model=\"" + dir.filePath("fifo.toml") + "\"", "--out", dir.filePath("o2")},
            {"train", quick, "--set", "dataset.kind=\"fashion-mnist\"", "--set",
             "dataset.path=\"" + dir.filePath("idx") + "\"", "--out", dir.filePath("o3")},
            {"learn", "--table", dir.filePath("fifo.csv"), "--model", "ConvNet2", "--episodes", "1", "--out", dir.filePath("o4")},
            {"evaluate", "--policy", dir.filePath("fifo.pt"), "--table", paper_table, "--model", "ConvNet2"},
            {"model", "show", dir.filePath("fifo.toml"), "--input", "3x32x32"},
        };
        for (const auto& args : cases) {
            const auto r = rlda_cli(args, 60000); // a hang is a timeout, and fails here
            QVERIFY2(refused(r), qPrintable(args.join(' ') + ": " + r.err));
            QVERIFY2(r.err.contains("not a regular file (a FIFO)"), qPrintable(args.join(' ') + ": " + r.err));
        }
        QVERIFY(error_of([&] { rlda::core::read_text_file(dir.filePath("fifo.csv").toStdString()); })
                    .contains("not a regular file (a FIFO)"));
    }

    void settings_that_could_never_finish_are_refused_by_key()
    {
        const QList<QPair<QString, QString>> cases = {
            {"scheduler.step_cost=1e-300", "scheduler.step_cost: 1e-300 s a step reaches the budget of 4 s only after"},
            {"job.batch_size=9223372036854775807",
             "job.batch_size: 9223372036854775807 is more than the 256 training samples of the synthetic dataset"},
            {"dataset.noise=1e308", "dataset.noise: must be in [0, 1.8e+19], got 1e+308"},
            {"job.lr=1e308", "job.lr: must be in (0, 1.8e+19], got 1e+308"},
            {"trainer.distill_temperature=1e300", "trainer.distill_temperature: must be in [5.6e-20, 1.8e+19]"},
            {"agent.temperature=1e-300", "agent.temperature: must be in [5.6e-20, 1.8e+19], got 1e-300"},
            {"scheduler.eval_cost=1e300", "scheduler.eval_cost: must be in [0, 1000000000], got 1e+300"},
        };
        QTemporaryDir dir;
        for (const auto& [set, message] : cases) {
            const auto r = rlda_cli({"train", quick, "--set", set, "--out", dir.filePath("o")}, 60000);
            QVERIFY2(refused(r) && r.err.contains(message), qPrintable(set + ": " + r.err));
            QVERIFY(!QFileInfo::exists(dir.filePath("o")));
        }
    }

    void a_batch_beyond_a_dataset_on_disk_is_refused_once_it_is_known()
    {
        // The IDX files' size is known only once they are read.
        QTemporaryDir dir;
        const auto r = rlda_cli({"train", quick, "--set", "dataset.kind=\"fashion-mnist\"", "--set",
                                 "dataset.train_subset=100", "--set", "job.batch_size=1000", "--out", dir.filePath("o")});
        QVERIFY2(refused(r) && r.err.contains("job.batch_size: 1000 is more than the 100 training samples"),
                 qPrintable(r.err));
    }

    void a_huge_metrics_file_is_read_with_a_cap()
    {
        // A 4 GiB sparse metrics file in a watched run: whole lines of the first 128 MiB, and a problem.
        QTemporaryDir dir;
        const QString run = dir.filePath("run");
        write(run + "/config.toml", "name = \"run\"\n");
        write(run + "/metrics/test_acc.csv", "epoch,time,value\n1,0.5,0.25\n");
        QVERIFY(QFile::resize(run + "/metrics/test_acc.csv", qint64{4} << 30));
        const auto data = rlda::core::io::read_run(run.toStdString());
        QCOMPARE(data.series.at("test_acc").size(), std::size_t{1});
        bool told = false;
        for (const auto& p : data.problems)
            told = told || p == "metrics/test_acc.csv: larger than 128.0 MiB; only its first 128.0 MiB read";
        QVERIFY(told);
    }

    void a_gzip_bomb_is_refused_before_it_is_inflated()
    {
        QTemporaryDir dir;
        // 10 labels declared, 64 MiB of zeros after them: reading stops after the 11th byte.
        const QString bomb = dir.filePath("labels.gz");
        write_gz(bomb, [](gzFile f) {
            put_be32(f, 2049);
            put_be32(f, 10);
            const std::vector<char> zeros(1 << 20, 0);
            for (int i = 0; i < 64; ++i)
                gzwrite(f, zeros.data(), static_cast<unsigned>(zeros.size()));
        });
        QVERIFY(QFileInfo(bomb).size() < 1 << 20);
        QVERIFY(error_of([&] { rlda::core::data::read_idx_labels(bomb.toStdString()); })
                    .contains(bomb + ": more bytes than 10 labels"));
        // A declaration past the bound is refused from the header alone.
        const QString huge = dir.filePath("images.gz");
        write_gz(huge, [](gzFile f) {
            put_be32(f, 2051);
            put_be32(f, 0xFFFFFFFFu);
            put_be32(f, 28);
            put_be32(f, 28);
        });
        const QString message = error_of([&] { rlda::core::data::read_idx_images(huge.toStdString()); });
        QVERIFY2(message.contains(huge + ": the header promises 4294967295 images of 28x28") &&
                     message.contains("more than the 1.0 GiB rlda reads from one IDX file"),
                 qPrintable(message));
    }

    void a_duplicate_row_names_the_line_of_its_first_copy()
    {
        QTemporaryDir dir;
        const QString table = dir.filePath("t.csv");
        write(table, "a1,timeleft1,totaltime,accuracy\n0,5,10,0.5\n1,5,10,0.6\n\n0,5,10,0.7\n");
        QCOMPARE(error_of([&] { rlda::core::sim::SimulationTable::load(table.toStdString(), 2); }),
                 table + ":5: duplicate sequence [0] (first on line 2)");
    }

    void errors_quote_a_short_excerpt_not_a_file()
    {
        // A table.csv linking to a file of someone's secrets: the message quotes 32 characters.
        QTemporaryDir dir;
        const QByteArray secret = "root:" + QByteArray(200, 'x') + ":19000:0:99999:7:::";
        write(dir.filePath("secret"), secret + "\n");
        QVERIFY(QFile::link(dir.filePath("secret"), dir.filePath("table.csv")));
        const auto r = rlda_cli({"learn", "--table", dir.filePath("table.csv"), "--model", "ConvNet2", "--episodes",
                                 "1", "--out", dir.filePath("o")});
        QVERIFY2(refused(r), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QByteArray(40, 'x')) && r.err.contains(QStringLiteral("(%1 bytes)").arg(secret.size())),
                 qPrintable(r.err));
    }

    void permission_denied_is_named_as_such()
    {
        QTemporaryDir dir;
        rlda::test::open_to_all(dir.path());
        QVERIFY(QDir().mkpath(dir.filePath("bin")));
        rlda::test::open_to_all(dir.filePath("bin"));
        write(dir.filePath("policy.pt"), "RLDATENS");
        QVERIFY(QFile::copy(paper_table, dir.filePath("table.csv")));
        QVERIFY(QFile::copy(quick, dir.filePath("quick.toml")));
        for (const char* f : {"policy.pt", "table.csv", "quick.toml"})
            ::chmod(QFile::encodeName(dir.filePath(f)).constData(), 0);
        const QList<QPair<QStringList, QString>> cases = {
            {{"evaluate", "--policy", dir.filePath("policy.pt"), "--table", paper_table, "--model", "ConvNet2"},
             dir.filePath("policy.pt")},
            {{"learn", "--table", dir.filePath("table.csv"), "--model", "ConvNet2", "--episodes", "1", "--out",
              dir.filePath("o")},
             dir.filePath("table.csv")},
            {{"train", dir.filePath("quick.toml"), "--out", dir.filePath("o")}, dir.filePath("quick.toml")},
        };
        for (const auto& [args, file] : cases) {
            const auto r = rlda::test::rlda_unprivileged(dir.filePath("bin"), args);
            QVERIFY2(refused(r), qPrintable(args.join(' ') + ": " + r.err));
            QVERIFY2(r.err.contains(file + ": cannot open: permission denied"), qPrintable(r.err));
        }
    }

    void a_full_disk_is_named_and_leaves_no_temporary_file()
    {
        // A 96 KiB file system (a tmpfs in a mount namespace of its own): the run's first large
        // file does not fit.
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("disk")));
        QProcess p;
        p.start("unshare", {"-rm", "sh", "-c",
                            "mount -t tmpfs -o size=96k tmpfs \"$0/disk\" || exit 99; \"$1\" train \"$2\" --out "
                            "\"$0/disk/run\" >/dev/null 2>\"$0/err\"; echo \"exit $?\"; find \"$0/disk\" -name '*.tmp'",
                            dir.path(), rlda::test::rlda_program, quick});
        QVERIFY(p.waitForFinished(120000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QFile err(dir.filePath("err"));
        QVERIFY(err.open(QIODevice::ReadOnly));
        const QString message = QString::fromUtf8(err.readAll());
        QCOMPARE(out, QString("exit 1\n")); // no *.tmp listed
        QVERIFY2(message.startsWith("rlda: error: ") && message.count('\n') == 1 &&
                     message.contains(": cannot write: no space left on the device (the disk is full)"),
                 qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestBoundedInput)
#include "test_bounded_input.moc"
