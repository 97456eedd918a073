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
#include "core/transfer/files.h"
#include "core/transfer/summary.h"
#include "core/util/error.h"
#include "core/util/excerpt.h"
#include "core/util/read_file.h"
#include "core/util/toml_parse.h"
#include "tests/common/error_of.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"
#include "tests/common/unprivileged.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

using rlda::test::qerror_of;

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
            const QString experiment =
                qerror_of([&] { rlda::core::config::parse_experiment(text, "deep.toml"); });
            QVERIFY2(experiment.startsWith("deep.toml:1:") && experiment.contains("nested deeper than 64 levels"),
                     qPrintable(experiment));
            const QString model = qerror_of([&] {
                rlda::core::model::parse_toml_model(text, "m.toml", {3, 32, 32}, 10);
            });
            QVERIFY2(model.contains("nested deeper than 64 levels"), qPrintable(model));
        }
        // The bound is on depth, not on dots: 64 levels pass, 65 do not; dots inside strings, in a
        // quoted key or a value, are no levels at all.
        QCOMPARE(qerror_of([&] { check_toml_depth(deep_key(64, false), "f"); }), QString("(no error)"));
        QVERIFY(qerror_of([&] { check_toml_depth(deep_key(65, false), "f"); }).contains("deeper than 64"));
        QVERIFY(qerror_of([&] { check_toml_depth(deep_key(65, true), "f"); }).contains("deeper than 64"));
        const std::string dots(100000, '.');
        QCOMPARE(qerror_of([&] {
                     check_toml_depth(
                         "\"" + dots + "\" = 1\nx = '" + dots + "'\ny = \"\"\"\n" + dots + "\"\"\"\n", "f");
                 }),
                 QString("(no error)"));
        // Inline tables count with the keys inside them.
        std::string nested = "x = ";
        for (int i = 0; i < 40; ++i)
            nested += "{ a.b = ";
        nested += "1" + std::string(40, '}') + "\n";
        QVERIFY(qerror_of([&] { check_toml_depth(nested, "f"); }).contains("deeper than 64"));
        // --set: the value is TOML too.
        rlda::core::config::ExperimentConfig c;
        const QString set = qerror_of([&] {
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
        QVERIFY(qerror_of([&] {
                    rlda::core::read_text_file(dir.filePath("fifo.csv").toStdString());
                }).contains("not a regular file (a FIFO)"));
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

    // Issue 42, item 12: a 16 MB events.jsonl of junk kept a message per line (1.2 GB); the first
    // kMaxListedProblems are listed, the rest counted.
    void junk_lines_of_a_run_are_counted_not_kept()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath("run");
        write(run + "/config.toml", "name = \"run\"\n");
        write(run + "/events.jsonl", QByteArray("x\n").repeated(200000));
        write(run + "/metrics/test_acc.csv", "epoch,time,value\n" + QByteArray("1,2\n").repeated(1000) +
                                                 QByteArray(",").repeated(100000) + "\n");
        const auto data = rlda::core::io::read_run(run.toStdString());
        QCOMPARE(data.problems.size(), rlda::core::io::kMaxListedProblems + 1);
        QCOMPARE(data.problems_not_listed, std::int64_t{200000 + 1000 + 1} - std::int64_t{100});
        QCOMPARE(data.problems.back(), std::string("... and 200901 more problems like these"));

        // Valid objects of a type no rlda run writes were kept verbatim, one string each: they are
        // problems too. A learning run's own types are kept.
        write(run + "/events.jsonl", QByteArray("{\"type\":\"junk-of-many-characters\"}\n").repeated(100000) +
                                         "{\"type\":\"stage\",\"index\":0}\n");
        QVERIFY(QFile::remove(run + "/metrics/test_acc.csv"));
        const auto typed = rlda::core::io::read_run(run.toStdString());
        QCOMPARE(typed.other_events, std::vector<std::string>{R"({"type":"stage","index":0})"});
        QCOMPARE(typed.problems_not_listed, std::int64_t{100000 - 100});
        QCOMPARE(typed.problems.front(),
                 std::string("events.jsonl:1: bad \"junk-of-many-characters\" record (no rlda "
                             "run writes events of this type); line skipped"));
    }

    // Issue 42, items 11 and 25: a header of commas (30 MB took 4.24 GB and gave a 383 MB message)
    // is refused before a field is made, in a short line; CR-only line ends are named as such.
    void a_table_header_is_bounded_before_it_is_split()
    {
        QTemporaryDir dir;
        write(dir.filePath("commas.csv"), QByteArray(",").repeated(3000000) + "\n");
        const QString e = qerror_of(
            [&] { rlda::core::sim::SimulationTable::load(dir.filePath("commas.csv").toStdString()); });
        QVERIFY2(e.endsWith(":1: header: 3000001 columns, more than the 1062 a table can have"),
                 qPrintable(e));
        QFile paper(paper_table);
        QVERIFY(paper.open(QIODevice::ReadOnly));
        write(dir.filePath("cr.csv"), paper.readAll().replace('\n', '\r'));
        const QString cr =
            qerror_of([&] { rlda::core::sim::SimulationTable::load(dir.filePath("cr.csv").toStdString()); });
        QVERIFY2(cr.endsWith(
                     "its lines end in CR alone (an old Mac text file); save it with LF or CRLF line ends"),
                 qPrintable(cr));
    }

    // Issue 42, items 13, 25 and 28: a study's files. A file of tiny fields (16 MB took 600 MB) is
    // refused past a million fields; a byte-order mark is skipped; impossible values are refused
    // by their column when read.
    void a_study_s_files_are_bounded_and_checked()
    {
        QTemporaryDir dir;
        const QString shipped = RLDA_SOURCE_DIR "/data/fashion-mnist/study/state";
        const auto copy = [&](const QString& name) {
            QDir(dir.filePath(name)).removeRecursively();
            QDir().mkpath(dir.filePath(name));
            for (const char* f : {"folds.csv", "ranks.csv", "references.csv"})
                QFile::copy(shipped + "/" + f, dir.filePath(name) + "/" + f);
            return dir.filePath(name);
        };
        const auto read = [](const QString& folder) {
            return qerror_of([&] { rlda::core::run::read_transfer(folder.toStdString()); });
        };
        const auto edit = [](const QString& file, const QByteArray& from, const QByteArray& to) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray b = f.readAll();
            QVERIFY2(b.contains(from), from.constData());
            b.replace(b.indexOf(from), from.size(), to);
            f.resize(0);
            f.seek(0);
            f.write(b);
        };
        QString study = copy("bom");
        QFile folds(study + "/folds.csv");
        QVERIFY(folds.open(QIODevice::ReadOnly));
        const QByteArray text = folds.readAll();
        folds.close();
        write(study + "/folds.csv", "\xef\xbb\xbf" + text);
        QCOMPARE(read(study), QString("(no error)"));

        study = copy("tiny-fields");
        QFile refs(study + "/references.csv");
        QVERIFY(refs.open(QIODevice::Append));
        refs.write(QByteArray(",,,,,,,,,\n").repeated(120000));
        refs.close();
        QVERIFY2(read(study).endsWith(
                     "references.csv: more than 1000000 fields; no file rlda reads this way holds "
                     "that many"),
                 qPrintable(read(study)));

        const QList<std::tuple<QString, QByteArray, QByteArray, QString>> impossible = {
            {"folds.csv", "FeedForwardNet2,27,", "FeedForwardNet2,-27,",
             "sequences: \"-27\" is outside 1..2147483647"},
            {"folds.csv", "FeedForwardNet2,27,14,", "FeedForwardNet2,27,nan,",
             "random_rank: \"nan\" is outside 1..27"},
            {"folds.csv", "FeedForwardNet2,27,14,10,", "FeedForwardNet2,27,14,inf,",
             "random_mean_low: \"inf\" is outside 0..27"},
            {"ranks.csv", ",early,42,7,27,", ",early,42,-5,27,", "rank: \"-5\" is outside 1..27"},
            {"ranks.csv", ",early,42,7,27,", ",early,42,2147483647,27,",
             "rank: \"2147483647\" is outside 1..27"},
        };
        for (const auto& [file, from, to, named] : impossible) {
            study = copy("impossible");
            edit(study + "/" + file, from, to);
            QVERIFY2(read(study).contains(named), qPrintable(read(study)));
        }
    }

    // Issue 42, item 15: a study of 20,000 tables took more than 300 s to summarize (each cell
    // searched every rank); its summary is now one pass.
    void a_large_study_is_summarized()
    {
        namespace run = rlda::core::run;
        run::TransferResult r;
        run::TransferFold fold;
        fold.model = "M";
        fold.sequences = 27;
        for (int t = 0; t < 20000; ++t) {
            const std::string table = "t" + std::to_string(t) + ".csv";
            fold.tables.push_back(table);
            for (std::uint64_t seed : {1, 2}) {
                run::TransferRank rank;
                rank.model = "M";
                rank.seed = seed;
                rank.table = table;
                rank.scenario = "s" + std::to_string(t);
                rank.evaluation.rank = 1 + t % 27;
                rank.evaluation.sequences = 27;
                r.ranks.push_back(rank);
            }
        }
        r.folds.push_back(fold);
        const auto summary = run::summarize_transfer(r);
        QCOMPARE(summary.size(), std::size_t{1});
        QCOMPARE(summary.front().rows.size(), std::size_t{20000});
        QCOMPARE(summary.front().seeds, (std::vector<std::uint64_t>{1, 2}));
        QCOMPARE(*summary.front().rows[26].ranks[1], 27);
    }

    // Issue 42, items 13 and 21: a policy file padded to gigabytes is refused from its header,
    // before its bytes are read (2.2 GB before); values a file could carry past the command line's
    // bounds (a temperature of 1e308, an episode counter of 2^63 - 1) are refused by name.
    void a_policy_file_is_checked_before_and_as_it_is_read()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath("run");
        const auto learned = rlda_cli(
            {"learn", "--table", paper_table, "--model", "ConvNet2", "--episodes", "2", "--out", run});
        QVERIFY2(learned.code == 0, qPrintable(learned.err));
        QFile original(run + "/policy.pt");
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray bytes = original.readAll();
        const auto evaluate = [&](const QString& policy) {
            return rlda_cli({"evaluate", "--policy", policy, "--table", paper_table, "--model", "ConvNet2"});
        };
        write(dir.filePath("padded.pt"), bytes);
        QVERIFY(QFile::resize(dir.filePath("padded.pt"), qint64{2} << 30));
        auto r = evaluate(dir.filePath("padded.pt"));
        QVERIFY2(refused(r) && r.err.contains("padded.pt: corrupt (") &&
                     r.err.contains("bytes after the last tensor)"),
                 qPrintable(r.err));
        // The same file's header with one value changed, its length and checksum made right again.
        const auto crafted = [&](const char* key, const nlohmann::json& value) {
            std::uint64_t length = 0;
            std::memcpy(&length, bytes.constData() + 16, 8);
            auto header = nlohmann::json::parse(bytes.mid(24, static_cast<qsizetype>(length)).toStdString());
            header["meta"][key] = value;
            const std::string text = header.dump();
            QByteArray out = bytes.left(24) + QByteArray::fromStdString(text) +
                             bytes.mid(24 + static_cast<qsizetype>(length));
            const std::uint64_t now = text.size();
            std::memcpy(out.data() + 16, &now, 8);
            const auto crc = static_cast<std::uint32_t>(crc32(
                0, reinterpret_cast<const Bytef*>(out.constData()) + 24, static_cast<uInt>(out.size() - 24)));
            std::memcpy(out.data() + 12, &crc, 4);
            const QString file = dir.filePath(QStringLiteral("%1.pt").arg(key));
            write(file, out);
            return file;
        };
        r = evaluate(crafted("temperature", 1e308));
        QVERIFY2(refused(r) && r.err.contains("temperature: must be from 5.6e-20 to 1.8e+19, got 1e+308"),
                 qPrintable(r.err));
        r = evaluate(crafted("episode", std::int64_t{9223372036854775807}));
        QVERIFY2(refused(r) && r.err.contains("episode: must be from 0 to 1000000000000"), qPrintable(r.err));
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
        QVERIFY(qerror_of([&] {
                    rlda::core::data::read_idx_labels(bomb.toStdString());
                }).contains(bomb + ": more bytes than 10 labels"));
        // A declaration past the bound is refused from the header alone.
        const QString huge = dir.filePath("images.gz");
        write_gz(huge, [](gzFile f) {
            put_be32(f, 2051);
            put_be32(f, 0xFFFFFFFFu);
            put_be32(f, 28);
            put_be32(f, 28);
        });
        const QString message = qerror_of([&] { rlda::core::data::read_idx_images(huge.toStdString()); });
        QVERIFY2(message.contains(huge + ": the header promises 4294967295 images of 28x28") &&
                     message.contains("more than the 1.0 GiB rlda reads from one IDX file"),
                 qPrintable(message));
    }

    void a_duplicate_row_names_the_line_of_its_first_copy()
    {
        QTemporaryDir dir;
        const QString table = dir.filePath("t.csv");
        write(table, "a1,timeleft1,totaltime,accuracy\n0,5,10,0.5\n1,5,10,0.6\n\n0,5,10,0.7\n");
        QCOMPARE(qerror_of([&] { rlda::core::sim::SimulationTable::load(table.toStdString(), 2); }),
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

    // Issue 42, items 7-10: no name reaches the terminal raw. Refused where it is written (a run's
    // name) or read (a study's folds.csv, a table's scenario), and escaped in the message that
    // says so.
    void control_characters_never_reach_the_terminal()
    {
        QTemporaryDir dir;
        const auto clean = [](const rlda::test::CliResult& r) {
            return r.code == 1 && r.err.count('\n') == 1 && !r.err.contains(QChar(0x1b)) &&
                   !r.err.contains(QChar(0x07)) && !r.err.contains(QChar(0)) && !r.out.contains(QChar(0x1b));
        };
        auto r = rlda_cli({"train", quick, "--set", "name=\"x\\u001b]2;PWNED\\u0007\\u001b[31mred\"", "--out",
                           dir.filePath("run")});
        QVERIFY2(clean(r), qPrintable(r.err));
        QVERIFY2(r.err.contains("no control characters"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("run")));

        // A shared study folder whose model name would retitle the terminal, or holds a NUL.
        const QString study = RLDA_SOURCE_DIR "/data/fashion-mnist/study/state";
        for (const QByteArray& name : {QByteArray("Feed\x1b]2;PWNED\x07Net2"), QByteArray("Feed\0Net2", 9)}) {
            const QString copy = dir.filePath("study");
            QDir(copy).removeRecursively();
            QVERIFY(QDir().mkpath(copy));
            for (const char* f : {"folds.csv", "ranks.csv", "references.csv"})
                QVERIFY(QFile::copy(study + "/" + f, copy + "/" + f));
            QFile folds(copy + "/folds.csv");
            QVERIFY(folds.open(QIODevice::ReadOnly));
            QByteArray bytes = folds.readAll();
            folds.close();
            bytes.replace("\nFeedForwardNet2,", "\n" + name + ",");
            write(copy + "/folds.csv", bytes);
            r = rlda_cli({"transfer-compare", copy, copy});
            QVERIFY2(clean(r), qPrintable(r.err));
            QVERIFY2(r.err.contains("/folds.csv:2: a field: \"Feed\\x") &&
                         r.err.contains("holds a control character"),
                     qPrintable(r.err));
        }

        // A study folder named with an escape sequence: its label is printed escaped.
        const QString named = dir.filePath(QString::fromUtf8("st\x1b[31mate"));
        QVERIFY(QDir().mkpath(named));
        for (const char* f : {"folds.csv", "ranks.csv", "references.csv"})
            QVERIFY(QFile::copy(study + "/" + f, named + "/" + f));
        r = rlda_cli({"transfer-compare", named, named, "--markdown"});
        QVERIFY2(r.code == 0 && !r.out.contains(QChar(0x1b)) && r.out.contains("st\\x1b[31mate"),
                 qPrintable(r.err));

        // A table whose scenario would recolour the terminal, given to `rlda noise`.
        const QString tables = RLDA_SOURCE_DIR "/data/fashion-mnist/tables";
        QVERIFY(QFile::copy(tables + "/convnet_early.csv", dir.filePath("t.csv")));
        QFile meta(tables + "/convnet_early.json");
        QVERIFY(meta.open(QIODevice::ReadOnly));
        QByteArray json = meta.readAll();
        QVERIFY(json.contains("\"name\": \"early\""));
        json.replace("\"name\": \"early\"", "\"name\": \"ear\\u001b[31mly\"");
        write(dir.filePath("t.json"), json);
        r = rlda_cli({"noise", dir.filePath("t.csv")});
        QVERIFY2(clean(r), qPrintable(r.err));
        QVERIFY2(r.err.contains("scenario.name: holds a control character"), qPrintable(r.err));
    }

    void printable_escapes_every_control_character()
    {
        using rlda::core::printable;
        QCOMPARE(printable("plain ÷ é"), std::string("plain ÷ é"));
        QCOMPARE(printable(std::string_view("a\x1b[31mb\x07\0c\n\x7f", 12)),
                 std::string("a\\x1b[31mb\\x07\\x00c\\x0a\\x7f"));
        QCOMPARE(printable("\xc2\x9b"
                           "1m"),
                 std::string("\\xc2\\x9b"
                             "1m")); // C1 CSI in UTF-8
        QCOMPARE(rlda::core::first_control_character("fine"), -1);
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

RLDA_SUITE_GUILESS_MAIN(TestBoundedInput)
#include "test_bounded_input.moc"
