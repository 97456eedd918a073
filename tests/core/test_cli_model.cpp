// `rlda model show` as a user runs it: its output, and one-line errors with a non-zero exit code.
#include "core/util/memory.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>

namespace {

using rlda::test::CliResult;

using rlda::test::rlda_cli;

} // namespace

class TestCliModel : public QObject {
    Q_OBJECT

    // A user's own model whose first block ends in Tanh (f(f(x)) != f(x)): it cannot be deepened,
    // and the original encoder knows neither its Tanh nor its layers' sizes.
    static QString tanh_net(const QTemporaryDir& dir)
    {
        const QString path = dir.filePath("tanh_net.toml");
        QFile m(path);
        if (!m.open(QIODevice::WriteOnly))
            return {};
        m.write("[model]\nname = \"TanhNet\"\n"
                "[[model.layers]]\nblock = [{ type = \"Conv2d\", out_channels = 4, kernel_size = 3, padding "
                "= 1 },\n"
                "         { type = \"Tanh\" }]\n"
                "[[model.layers]]\nblock = [{ type = \"Conv2d\", out_channels = 4, kernel_size = 3, padding "
                "= 1 },\n"
                "         { type = \"ReLU\" }]\n"
                "[[model.layers]]\ntype = \"Flatten\"\n"
                "[[model.layers]]\nblock = [{ type = \"Linear\", out_features = \"classes\" }]\n");
        return path;
    }

    // An experiment on tanh_net.toml, one decision after an "up", `trainer` added to its [trainer].
    static QString tanh_experiment(const QTemporaryDir& dir, const QString& name, const QString& trainer)
    {
        const QString path = dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(("name = \"tanh\"\n[job]\nmodel = \"tanh_net.toml\"\nbatch_size = 16\nseed = 1\n"
                 "[dataset]\nkind = \"synthetic\"\nshape = [1, 8, 8]\nclasses = 4\ntrain_size = 64\n"
                 "test_size = 32\n[scheduler]\nbudget = 2.0\nevents = [{ time = 1.0, change = \"up\" }]\n"
                 "step_cost = 0.05\n[trainer]\nmax_decisions = 1\n" +
                 trainer + "[agent]\nkind = \"simulation\"\n")
                    .toUtf8());
        return path;
    }

private Q_SLOTS:
    void show_prints_parameters_blocks_and_layers()
    {
        const CliResult r = rlda_cli({"model", "show", "ConvNet2"});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines[0], QString("parameters: 10602"));
        QCOMPARE(lines[1], QString("blocks: 3"));
        QCOMPARE(lines[2], QString("input: 3x32x32, 10 classes (assumed, CIFAR-10's; pass --input CxHxW and "
                                   "--classes N, or --dataset NAME)"));
        QCOMPARE(lines[3], QString("Conv2d(3, 32, kernel_size=(3, 3), stride=(1, 1))"));
        QCOMPARE(lines.size(), 14);
        QCOMPARE(lines.last(),
                 QString("actions: every block can be deepened, and every block but the last widened"));
        QVERIFY(r.err.isEmpty());
    }

    // Issue 27: a model file shown without --input counted its parameters at 3x32x32 silently,
    // against the workbench's count for the same file on Fashion-MNIST. The input line says what
    // the count is for, and --dataset takes a dataset's shape and classes.
    void the_input_is_shown_and_a_dataset_gives_it()
    {
        const QString file = RLDA_SOURCE_DIR "/config/models/small_convnet.toml";
        const CliResult fashion = rlda_cli({"model", "show", file, "--dataset", "fashion-mnist"});
        QCOMPARE(fashion.code, 0);
        QVERIFY(fashion.err.isEmpty());
        const CliResult typed = rlda_cli({"model", "show", file, "--input", "1x28x28", "--classes", "10"});
        QCOMPARE(typed.code, 0);
        QStringList a = fashion.out.split('\n'), b = typed.out.split('\n');
        QCOMPARE(a[2], QString("input: 1x28x28, 10 classes (fashion-mnist)"));
        QCOMPARE(b[2], QString("input: 1x28x28, 10 classes"));
        a.removeAt(2);
        b.removeAt(2);
        QCOMPARE(a, b); // the same model, the same count
        const CliResult assumed = rlda_cli({"model", "show", file});
        QVERIFY(assumed.out.split('\n')[2].startsWith("input: 3x32x32, 10 classes (assumed"));
        QVERIFY(assumed.out.section('\n', 0, 0) != fashion.out.section('\n', 0, 0));
        QCOMPARE(rlda_cli({"model", "show", "ConvNet2", "--dataset", "cifar10"}).out.split('\n')[2],
                 QString("input: 3x32x32, 10 classes (cifar10)"));
        // Half given: the other half is named as assumed.
        QCOMPARE(rlda_cli({"model", "show", file, "--input", "1x28x28"}).out.split('\n')[2],
                 QString("input: 1x28x28, 10 classes (classes assumed; pass --classes N)"));
        QCOMPARE(rlda_cli({"model", "show", file, "--classes", "5"}).out.split('\n')[2],
                 QString("input: 3x32x32, 5 classes (input assumed, CIFAR-10's; pass --input CxHxW)"));
    }

    // Issue 27: --check with nothing grown printed max_abs_diff: 0 as if a growth had been checked.
    void check_without_growth_says_so()
    {
        CliResult r = rlda_cli({"model", "show", "ConvNet2", "--check"});
        QCOMPARE(r.code, 0);
        QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines[lines.size() - 2], QString("max_abs_diff: 0"));
        QCOMPARE(lines.last(), QString("note: no --deepen or --grow was given, so the model was compared with itself "
                                       "and max_abs_diff is 0 by construction; add one, e.g. --deepen \"0\""));
        r = rlda_cli({"model", "show", "ConvNet2", "--check", "--deepen", "0"});
        QCOMPARE(r.code, 0);
        QVERIFY2(!r.out.contains("note:"), qPrintable(r.out));
        QVERIFY(r.out.trimmed().split('\n').last().startsWith("max_abs_diff: "));
        r = rlda_cli({"model", "show", "ConvNet2", "--check", "--grow", "w0"});
        QVERIFY2(r.code == 0 && !r.out.contains("note:"), qPrintable(r.out));
    }

    void check_reports_function_preservation()
    {
        const CliResult r = rlda_cli({"model", "show", "ConvNet", "--deepen", "0 3 1", "--check"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("parameters: 38648\nblocks: 4\n"));
        const QString last = r.out.trimmed().split('\n').last();
        QVERIFY2(last.startsWith("max_abs_diff: "), qPrintable(last));
        QVERIFY(last.mid(14).toDouble() <= 1e-5);
    }

    void grow_deepens_and_widens_residual_models_too()
    {
        CliResult r = rlda_cli({"model", "show", "ConvNet2", "--grow", "w1 0 w0", "--check"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Conv2d(32, 64, kernel_size=(3, 3), stride=(1, 1))\n"));
        QVERIFY(r.out.contains("Linear(in_features=64, out_features=10, bias=True)"));
        QVERIFY(r.out.trimmed().split('\n').last().mid(14).toDouble() <= 1e-5);
        r = rlda_cli({"model", "show", RLDA_SOURCE_DIR "/config/models/small_resnet.toml", "--input", "1x28x28",
                      "--grow", "1 w1 w0", "--check"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("blocks: 4\n"));
        QVERIFY(r.out.trimmed().split('\n').last().mid(14).toDouble() <= 1e-5);
        // The file is the zoo's SmallResNet written out.
        const CliResult zoo = rlda_cli({"model", "show", "SmallResNet", "--input", "1x28x28"});
        const CliResult file = rlda_cli({"model", "show", RLDA_SOURCE_DIR "/config/models/small_resnet.toml", "--input", "1x28x28"});
        QCOMPARE(file.out, zoo.out);
    }

    void input_and_classes_and_toml_file()
    {
        CliResult r = rlda_cli({"model", "show", "FeedForwardNet2", "--input", "1x28x28", "--classes", "5"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Linear(in_features=784, out_features=32, bias=True)"));
        QVERIFY(r.out.contains("Linear(in_features=32, out_features=5, bias=True)"));
        r = rlda_cli({"model", "show", RLDA_SOURCE_DIR "/config/models/small_convnet.toml", "--input",
                  "1x28x28", "--deepen", "0 1 2 3", "--check"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("parameters: "));
        QVERIFY(r.out.contains("blocks: 3\n"));
    }

    void bad_input_is_one_line_on_stderr_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown model") << QStringList{"model", "show", "ResNet50"} << "known models: ConvNet, ConvNet2";
        QTest::newRow("bad deepen") << QStringList{"model", "show", "ConvNet2", "--deepen", "0 x"} << "bad action \"x\"";
        QTest::newRow("out of range") << QStringList{"model", "show", "ConvNet2", "--deepen", "0 4"} << "action 4 is out of range";
        QTest::newRow("bad input") << QStringList{"model", "show", "ConvNet2", "--input", "3by32"} << "--input: 3by32: must be CxHxW";
        QTest::newRow("too small") << QStringList{"model", "show", "ConvNet", "--input", "3x6x6"} << "smaller than the kernel";
        QTest::newRow("bad classes") << QStringList{"model", "show", "ConvNet2", "--classes", "0"} << "--classes";
        QTest::newRow("missing file") << QStringList{"model", "show", "/nonexistent/m.toml"} << "/nonexistent/m.toml: no such file";
        QTest::newRow("no model") << QStringList{"model", "show"} << "MODEL";
        QTest::newRow("unknown option") << QStringList{"model", "show", "ConvNet2", "--depth", "2"} << "--depth";
        QTest::newRow("bad grow") << QStringList{"model", "show", "ConvNet2", "--grow", "w1 q"} << "bad step \"q\"";
        QTest::newRow("widen the head") << QStringList{"model", "show", "ConvNet2", "--grow", "w2"} << "last block of ConvNet2";
        QTest::newRow("dataset and input") << QStringList{"model", "show", "ConvNet2", "--dataset", "mnist", "--input", "1x28x28"}
                                           << "--input excludes --dataset";
        QTest::newRow("synthetic dataset") << QStringList{"model", "show", "ConvNet2", "--dataset", "synthetic"}
                                           << "--dataset: synthetic not in {cifar10,fashion-mnist,mnist}";
        QTest::newRow("widen a resnet's head") << QStringList{"model", "show", "SmallResNet", "--input", "1x28x28", "--grow", "w3"}
                                               << "last block of SmallResNet";
    }
    void bad_input_is_one_line_on_stderr()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CliResult r = rlda_cli(args);
        QVERIFY2(r.code > 0, qPrintable(QString::number(r.code)));
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.out.isEmpty());
    }

    // Numbers that do not fit are refused as typed (app/cli/numbers.h), before a count could wrap:
    // 99999999999999999999 classes printed a negative parameter count.
    void numbers_out_of_range_name_the_option_and_its_limit_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("classes overflow")
            << QStringList{"model", "show", "ConvNet2", "--classes", "99999999999999999999"}
            << "rlda: error: --classes: 99999999999999999999: must be a whole number from 1 to 1000000 (see rlda --help)\n";
        QTest::newRow("classes fraction") << QStringList{"model", "show", "ConvNet2", "--classes", "2.5"}
                                          << "rlda: error: --classes: 2.5: must be a whole number from 1 to 1000000 (see rlda --help)\n";
        QTest::newRow("input overflow")
            << QStringList{"model", "show", "ConvNet2", "--input", "2147483648x32x32"}
            << "rlda: error: --input: 2147483648x32x32: must be CxHxW (or one N), each a whole number from 1 to 65536 "
               "(see rlda --help)\n";
    }
    void numbers_out_of_range_name_the_option_and_its_limit()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const CliResult r = rlda_cli(args);
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, expected);
        QVERIFY(r.out.isEmpty());
    }

    void the_largest_numbers_allowed_still_count_correctly()
    {
        const CliResult r =
            rlda_cli({"model", "show", "ConvNet2", "--input", "65536x65536x65536", "--classes", "1000000"});
        QCOMPARE(r.code, 0);
        // Conv2d(65536, 32) 18874400 + BatchNorm 64 + Conv2d(32, 32) 9248 + BatchNorm 64 + Linear(32, 10^6)
        // 33000000: H and W only size the activations.
        QVERIFY2(r.out.startsWith("parameters: 51883776\n"), qPrintable(r.out));
    }

    // Every size of a model file has its limit (core/model/limits.h): each file of
    // tests/fixtures/models-bad is refused in one line naming file, line:col, key, limit and value,
    // even with --check, which would build and train the model. Before, 10^9 output channels were
    // counted and printed, and a pool kernel of 2^63-1, eps of 2^63-1 or momentum 3.5 ended in a
    // LibTorch trace, "bad optional access" or "max_abs_diff: -nan".
    void bad_model_files_are_refused_at_their_key_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(RLDA_SOURCE_DIR "/tests/fixtures/models-bad");
        const QStringList files = dir.entryList({"*.toml"}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 15);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void bad_model_files_are_refused_at_their_key()
    {
        QFETCH(QString, path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString first = QString::fromUtf8(f.readLine()).trimmed();
        QVERIFY2(first.startsWith("# expect: "), qPrintable(first));
        const CliResult r = rlda_cli({"model", "show", path, "--check"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err, "rlda: error: " + path + first.mid(10) + "\n");
        QVERIFY(r.out.isEmpty());
    }

    void the_limits_themselves_are_accepted()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("edges.toml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "[model]\nname = \"Edges\"\n[[model.layers]]\n"
            "block = [{ type = \"Conv2d\", out_channels = 4, kernel_size = 1, stride = 1, padding = 0 },\n"
            "         { type = \"BatchNorm2d\", eps = 1, momentum = 0 }, { type = \"ReLU\" }]\n"
            "[[model.layers]]\ntype = \"AdaptiveAvgPool2d\"\noutput_size = 1\n"
            "[[model.layers]]\ntype = \"Flatten\"\n"
            "[[model.layers]]\nblock = [{ type = \"Linear\", out_features = 1000000 }]\n");
        f.close();
        const CliResult r = rlda_cli({"model", "show", path, "--classes", "1000000", "--check"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("BatchNorm2d(4, eps=1.0, momentum=0.0, affine=True"), qPrintable(r.out));
        QVERIFY2(r.out.contains("max_abs_diff: 0\nnote: no --deepen or --grow"), qPrintable(r.out));
    }

    // Issue 43, item 16: a block that ends in Tanh passed `model show`, then failed at the first
    // deepening after the warm start, and simulate retried each part three times. `model show` names
    // what cannot be done to it, and train and simulate refuse it in one line before anything
    // trains, whenever deepening is allowed; a run that only widens takes it.
    void a_block_that_cannot_be_deepened_is_named_and_refused()
    {
        QTemporaryDir dir;
        const QString model = tanh_net(dir);
        const CliResult show = rlda_cli({"model", "show", model, "--input", "1x8x8", "--classes", "4"});
        QCOMPARE(show.code, 0);
        QVERIFY2(show.out.contains("\ncannot: deepen block 0: activation Tanh() is not idempotent"),
                 qPrintable(show.out));
        QVERIFY2(!show.out.contains("cannot: deepen block 1"), qPrintable(show.out));

        const QString deepens = tanh_experiment(dir, "deepens.toml", {});
        for (const QStringList& command :
             {QStringList{"train", deepens, "--out", dir.filePath("run")},
              QStringList{"simulate", deepens, "--out", dir.filePath("table")}}) {
            const CliResult r = rlda_cli(command);
            QCOMPARE(r.code, 1);
            const QString e = r.err.trimmed();
            QVERIFY2(!e.contains('\n'), qPrintable(e));
            QVERIFY2(e.startsWith("rlda: error: " + deepens +
                                  ": job.model: TanhNet cannot take every action it is allowed: deepen "
                                  "block 0: activation Tanh() is not idempotent"),
                     qPrintable(e));
            QVERIFY2(e.endsWith("leave its operation out of trainer.operations"), qPrintable(e));
        }
        QVERIFY(!QFileInfo::exists(dir.filePath("table/table.csv")));
        // Widening alone never repeats the Tanh: the table builds.
        const QString widens = tanh_experiment(dir, "widens.toml", "operations = [\"widen\"]\n");
        const CliResult w = rlda_cli({"simulate", widens, "--out", dir.filePath("widened")});
        QVERIFY2(w.code == 0, qPrintable(w.err));

        // Item 6: the default (original) encoder reads a user's own layers as <unk>, and learning
        // says so before its episodes, with what to use instead; the structural encoder reads them.
        const CliResult original = rlda_cli({"learn", "--table", dir.filePath("widened"), "--episodes", "5",
                                             "--out", dir.filePath("learned-original")});
        QVERIFY2(original.code == 0, qPrintable(original.err));
        const QString warning =
            "rlda: warning: the original encoder reads 3 of the 5 layers of TanhNet as <unk> (";
        QVERIFY2((original.out + original.err).contains(warning), qPrintable(original.out + original.err));
        QVERIFY2((original.out + original.err).contains("learn with --encoder structural"),
                 qPrintable(original.err));
        const CliResult structural =
            rlda_cli({"learn", "--table", dir.filePath("widened"), "--episodes", "5", "--encoder",
                      "structural", "--out", dir.filePath("learned-structural")});
        QVERIFY2(structural.code == 0, qPrintable(structural.err));
        QVERIFY2(!(structural.out + structural.err).contains("<unk>"),
                 qPrintable(structural.out + structural.err));
    }

    // Memory is estimated from the spec before LibTorch allocates: a forward too large for this
    // machine is one line with the figure and the limit, not the allocator's 27-line trace.
    void a_forward_beyond_memory_is_refused_with_its_size()
    {
        if (rlda::core::physical_memory_bytes() >= std::uint64_t{480} << 30)
            QSKIP("this machine has 480 GiB of memory or more");
        const CliResult r = rlda_cli({"model", "show", "ConvNet2", "--input", "3x65536x65536", "--check"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith(
                     "rlda: error: ConvNet2 at 3x65536x65536: a forward of 16 samples needs 32.7 TiB, "
                     "more than this machine's "),
                 qPrintable(r.err));
        QVERIFY2(r.err.endsWith(" of memory\n"), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.out.isEmpty());
        // Its parameters alone: Linear(3 x 65536 x 65536, 10) is refused before it is built.
        const CliResult p =
            rlda_cli({"model", "show", "FeedForwardNet", "--input", "3x65536x65536", "--check"});
        QCOMPARE(p.code, 1);
        QVERIFY2(p.err.startsWith(
                     "rlda: error: FeedForwardNet at 3x65536x65536: a model of 128849018890 parameters needs "
                     "480.0 GiB, more than this machine's "),
                 qPrintable(p.err));
        QCOMPARE(p.err.count('\n'), 1);
        // Without --check nothing is allocated, so the count is printed as before.
        QVERIFY(rlda_cli({"model", "show", "FeedForwardNet", "--input", "3x65536x65536"})
                    .out.startsWith("parameters: 128849018890\n"));
    }

    void broken_toml_model_gives_file_line_col()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.toml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[model]\nname = \"Broken\"\n[[model.layers]]\ntype = \"Conv2d\"\nout_channels = 4\nkernel = 3\n");
        f.close();
        const CliResult r = rlda_cli({"model", "show", path});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err, "rlda: error: " + path + ":6:1: model.layers[0].kernel: unknown key; did you mean kernel_size?\n");
        QCOMPARE(r.err.count('\n'), 1);
    }
};

RLDA_SUITE_GUILESS_MAIN(TestCliModel)
#include "test_cli_model.moc"
