// Tables that describe themselves: the metadata file round-trips, bad files fail in one line, the
// paper's tables take theirs from the index, and open_table() refuses mismatches and partial tables.
#include "core/config/experiment.h"
#include "core/model/zoo.h"
#include "core/table/open_table.h"
#include "core/table/table_status.h"
#include "core/util/error.h"
#include "tests/common/error_of.h"
#include "tests/common/suite.h"
#include "tests/common/synthetic_table.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using rlda::test::qerror_of;

namespace fs = std::filesystem;
using namespace rlda::core;

namespace {

void write(const fs::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::binary) << text;
}

// A described synthetic table (3 decisions over ConvNet2's 4 actions, for 1x28x28 images).
sim::TableMeta fashion_meta()
{
    config::ExperimentConfig c;
    c.name = "fashion-small";
    c.dataset.kind = config::DatasetKind::FashionMnist;
    c.dataset.train_subset = 512;
    c.scheduler.budget = 30;
    c.scheduler.events = {{10.0, config::Change::Up}};
    c.job.seed = 5;
    return sim::table_meta(c, model::zoo_model("ConvNet2", {1, 28, 28}, 10), 3);
}

} // namespace

class TestTableMeta : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void metadata_round_trips()
    {
        const auto m = fashion_meta();
        QCOMPARE(m.rows, std::int64_t{64});
        QCOMPARE(m.actions, 4);
        QCOMPARE(m.first_up(), 10.0);
        QCOMPARE(m.input, (model::Shape{1, 28, 28}));
        auto back = sim::parse_table_meta(sim::table_meta_json(m), "t.json");
        QCOMPARE(back.source, std::string("t.json"));
        back.source.clear();
        QVERIFY(back == m);
        // A table tested on the unused training samples too says so; the others' files are as before.
        QVERIFY(sim::table_meta_json(m).find("test_unused_train") == std::string::npos);
        auto pooled = m;
        pooled.dataset.test_unused_train = true;
        const std::string text = sim::table_meta_json(pooled);
        QVERIFY(text.find("\"test_unused_train\": true") != std::string::npos);
        QVERIFY(sim::parse_table_meta(text, "t.json").dataset.test_unused_train);
    }

    void bad_metadata_fails_in_one_line_naming_the_key()
    {
        const std::string good = sim::table_meta_json(fashion_meta());
        const auto fails = [&](std::string text, const char* needle) {
            const QString e = qerror_of([&] { (void)sim::parse_table_meta(text, "m.json"); });
            QVERIFY2(e.startsWith("m.json: ") && e.contains(needle) && !e.contains('\n'), qPrintable(e));
        };
        fails("{", "not valid JSON");
        fails("[1, 2]", "expected a JSON object");
        auto replace = [&](const std::string& from, const std::string& to) {
            std::string t = good;
            const auto at = t.find(from);
            if (at == std::string::npos)
                qFatal("fixture text not found: %s", from.c_str());
            return t.replace(at, from.size(), to);
        };
        fails(replace("\"version\": 1", "\"version\": 7"), "version: 7 is newer");
        fails(replace("\"rows\": 64", "\"rows\": 65"), "rows: 65 rows for 3 decisions over 4 actions");
        fails(replace("\"decisions\": 3", "\"decisions\": 100000000000"), "decisions:");
        fails(replace("\"format\": \"rlda-table\"", "\"format\": \"other\""), "format");
        fails(replace("\"classes\": 10", "\"classes\": \"ten\""), "classes: expected an integer");
        fails(replace("\"change\": \"up\"", "\"change\": \"sideways\""), "scenario.events[0].change");
        fails(replace("\"budget\": 30.0", "\"budget\": -1"), "budget:");
    }

    void tables_of_several_operations_say_which()
    {
        // A deepen-only table's metadata has no operations key: older readers read it as before.
        QVERIFY(sim::table_meta_json(fashion_meta()).find("operations") == std::string::npos);
        config::ExperimentConfig c;
        c.dataset.kind = config::DatasetKind::FashionMnist;
        c.scheduler.events = {{10.0, config::Change::Up}};
        c.trainer.operations = {"widen", "deepen"};
        c.trainer.widen_factor = 1.5;
        const auto spec = model::zoo_model("ConvNet2", {1, 28, 28}, 10);
        const auto m = sim::table_meta(c, spec, 2);
        QCOMPARE(m.actions, 6);
        QCOMPARE(m.rows, std::int64_t{36});
        QCOMPARE(m.operations, (std::vector<std::string>{"deepen", "widen"}));
        const std::string text = sim::table_meta_json(m);
        auto back = sim::parse_table_meta(text, "t.json");
        back.source.clear();
        QVERIFY(back == m);
        const auto space = sim::table_actions(m, spec);
        QCOMPARE(space.size(), 6);
        QCOMPARE(space.widen_factor(), 1.5);

        const auto fails = [&](const std::string& from, const std::string& to, const char* needle) {
            std::string t = text;
            const auto at = t.find(from);
            if (at == std::string::npos)
                qFatal("fixture text not found: %s", from.c_str());
            t.replace(at, from.size(), to);
            const QString e = qerror_of([&] { (void)sim::parse_table_meta(t, "m.json"); });
            QVERIFY2(e.startsWith("m.json: ") && e.contains(needle) && !e.contains('\n'), qPrintable(e));
        };
        fails("\"widen\"\n", "\"grow\"\n", "operations: operations: unknown operation \"grow\"");
        fails("\"widen_factor\": 1.5", "\"widen_factor\": 1.0", "widen_factor: 1 is outside (1, 8]");
        fails("\"widen_factor\": 1.5", "\"widen_factor\": \"wide\"", "widen_factor: expected a number");

        // Metadata whose action count is not the model's for its operations is refused on open.
        QTemporaryDir dir;
        const fs::path csv = fs::path(dir.path().toStdString()) / "t.csv";
        write(csv, "a1,a2,t1,t2,total_time,accuracy\n");
        sim::TableMeta wrong = m;
        wrong.operations = {"deepen"};
        sim::save_table_meta(sim::meta_file_for(csv), wrong);
        const QString e = qerror_of([&] { (void)sim::open_table(csv, {}, /*allow_incomplete=*/true); });
        QVERIFY2(e.contains("says 6 actions per decision, but ConvNet2 has 4 for the operations deepen"), qPrintable(e));
    }

    void paper_tables_take_their_metadata_from_the_index()
    {
        const auto m = sim::find_table_meta(RLDA_PAPER_DIR "/tables/convnet3_middle.csv");
        QVERIFY(m.has_value());
        QCOMPARE(m->model, std::string("ConvNet3"));
        QCOMPARE(m->scenario, std::string("middle"));
        QCOMPARE(m->first_up(), 200.0);
        QCOMPARE(m->scheduler.budget, 400.0);
        QCOMPARE(m->input, (model::Shape{3, 32, 32}));
        QVERIFY(m->dataset.kind == config::DatasetKind::Cifar10);
        QCOMPARE(m->decisions, 3);
        QCOMPARE(m->actions, 4);
        const auto t = sim::open_table(RLDA_PAPER_DIR "/tables/convnet3_middle.csv");
        QVERIFY(t.described && t.complete());
        QCOMPARE(model::original_block_count(t.model), 3);
    }

    void a_model_or_input_that_does_not_match_names_both()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.filePath("t").toStdString();
        fs::create_directories(folder);
        rlda::test::write_synthetic_table((folder / "table.csv").string());
        sim::save_table_meta(folder / "table.json", fashion_meta());
        const auto t = sim::open_table(folder); // a folder means its table.csv
        QCOMPARE(t.model.input, (model::Shape{1, 28, 28}));
        QCOMPARE(t.meta.scenario, std::string("fashion-small"));
        // The same model said again is fine; another is not.
        (void)sim::open_table(folder, {"ConvNet2"});
        QString e = qerror_of([&] { (void)sim::open_table(folder, {"ConvNet3"}); });
        QVERIFY2(e.contains("--model ConvNet3 does not match table") && e.contains("built from ConvNet2"),
                 qPrintable(e));
        e = qerror_of([&] { (void)sim::open_table(folder, {"", model::Shape{3, 32, 32}}); });
        QVERIFY2(e.contains("--input 3x32x32 does not match") && e.contains("built for 1x28x28"),
                 qPrintable(e));
        // Fallbacks (the workbench's experiment) give way to the metadata instead of clashing.
        sim::TableOverrides fallbacks{"ConvNet3", model::Shape{3, 32, 32}, 10};
        fallbacks.only_without_metadata = true;
        const auto kept = sim::open_table(folder, fallbacks);
        QCOMPARE(kept.meta.model, std::string("ConvNet2"));
        QCOMPARE(kept.model.input, (model::Shape{1, 28, 28}));
        QVERIFY(kept.assumption().empty());
    }

    void an_incomplete_table_says_so_and_how_to_finish_it()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.filePath("t").toStdString();
        fs::create_directories(folder);
        rlda::test::write_synthetic_table((folder / "full.csv").string());
        // What a killed build leaves: the header and the first rows.
        std::ifstream in(folder / "full.csv");
        std::string text, line;
        for (int i = 0; i < 4 && std::getline(in, line); ++i)
            text += line + "\n";
        write(folder / "table.csv", text);
        write(folder / "config.toml", "");
        sim::save_table_meta(folder / "table.json", fashion_meta());
        const QString e = qerror_of([&] { (void)sim::open_table(folder); });
        QVERIFY2(
            e.contains(QString("table %1 is incomplete: 3 of 64 rows; run rlda simulate %2 --out %3 again to "
                               "finish it")
                           .arg(QString::fromStdString((folder / "table.csv").string()),
                                QString::fromStdString((folder / "config.toml").string()),
                                QString::fromStdString(folder.string()))),
            qPrintable(e));
        const auto partial = sim::open_table(folder, {}, /*allow_incomplete=*/true);
        QVERIFY(!partial.complete());
        const auto status = sim::table_status(folder);
        QCOMPARE(status.rows, std::int64_t{3});
        QCOMPARE(status.expected, std::int64_t{64});
        QVERIFY(!status.complete());
        QVERIFY(status.best.has_value());
    }

    void a_table_without_metadata_is_opened_on_assumptions()
    {
        QTemporaryDir dir;
        const std::string csv = rlda::test::write_synthetic_table(dir.filePath("bare.csv").toStdString());
        const auto t = sim::open_table(csv);
        QVERIFY(!t.described);
        QCOMPARE(t.meta.model, std::string("ConvNet2"));
        QCOMPARE(QString::fromStdString(t.assumption()),
                 QString::fromStdString(csv) +
                     ": no metadata (bare.json): assuming model ConvNet2, input 3x32x32, 10 classes");
        // Without metadata, fallbacks are what is assumed.
        sim::TableOverrides fallbacks{"ConvNet3", model::Shape{1, 28, 28}, 10};
        fallbacks.only_without_metadata = true;
        QCOMPARE(sim::open_table(csv, fallbacks).meta.model, std::string("ConvNet3"));
        QCOMPARE(t.model.input, (model::Shape{3, 32, 32}));
        const auto status = sim::table_status(csv);
        QCOMPARE(status.rows, std::int64_t{64});
        QCOMPARE(status.expected, std::int64_t{0});
        QCOMPARE(status.best->actions, (std::vector<int>{2, 1, 0}));
    }

    void tables_are_named_by_folder_file_or_index_mixed()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.filePath("mine").toStdString();
        fs::create_directories(folder);
        rlda::test::write_synthetic_table((folder / "table.csv").string());
        const std::string paper = RLDA_PAPER_DIR "/tables";
        const auto files =
            sim::expand_tables({folder.string(), paper, paper + "/convnet2_late.csv", paper + "/index.csv"});
        QCOMPARE(files.size(), std::size_t{11}); // the paper's ten once, and mine
        QCOMPARE(files.front(), folder / "table.csv");
        const QString e =
            qerror_of([&] { (void)sim::expand_tables({dir.filePath("nothing").toStdString()}); });
        QVERIFY2(e.contains("nothing: no such table, table folder or index"), qPrintable(e));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestTableMeta)
#include "test_table_meta.moc"
