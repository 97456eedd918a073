// Replicate tables and the Fashion-MNIST tables shipped in data/fashion-mnist: the noise report's
// figures on tables made by hand, how replicates are told apart, the transfer summary's rank over
// replicates, and every shipped table loading with its metadata.
#include "core/config/experiment.h"
#include "core/model/spec.h"
#include "core/model/zoo.h"
#include "core/run/transfer_protocol.h"
#include "core/table/open_table.h"
#include "core/table/reliability.h"
#include "core/table/replicates.h"
#include "core/table/table.h"
#include "core/table/variance_model.h"
#include "core/transfer/summary.h"
#include "core/util/data_dir.h"
#include "core/util/error.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"

#include <QtTest/QtTest>
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;
using namespace rlda::core;

namespace {

// 2 decisions over 2 actions: sequences (0 0), (0 1), (1 0), (1 1) with these accuracies.
sim::SimulationTable table_of(const std::vector<double>& acc)
{
    sim::SimulationTable t(2, 2);
    for (int code = 0; code < 4; ++code)
        t.add({{code / 2, code % 2}, {8.0, 4.0}, 10.0, acc[static_cast<std::size_t>(code)]});
    return t;
}

sim::TableMeta meta(std::uint64_t seed, const std::string& scenario = "early")
{
    config::ExperimentConfig c;
    c.name = scenario;
    c.job.model = "FeedForwardNet2";
    c.dataset.kind = config::DatasetKind::FashionMnist;
    c.scheduler.budget = 12.8;
    c.scheduler.events = {{1.0, config::Change::Up}};
    c.job.seed = seed;
    return sim::table_meta(c, model::zoo_model("FeedForwardNet2", {1, 28, 28}, 10), 3);
}

} // namespace

class TestReplicates : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void noise_of_two_replicates_made_by_hand()
    {
        const auto a = table_of({0.50, 0.60, 0.70, 0.80});
        const auto b = table_of({0.52, 0.58, 0.72, 0.78});
        const auto n = sim::replicate_noise({&a, &b});
        QCOMPARE(n.replicates, 2);
        QCOMPARE(n.sequences, std::int64_t{4});
        // Every sequence moves by 0.02 between the two: a sample variance of 0.0002.
        QVERIFY(std::abs(n.within_sd - std::sqrt(0.0002)) < 1e-12);
        QVERIFY(std::abs(n.centred_sd - std::sqrt(0.0002)) < 1e-12); // both tables' mean is 0.65
        // Means 0.51, 0.59, 0.71, 0.79: their sample sd.
        const double m = 0.65;
        const double var = (std::pow(0.51 - m, 2) + std::pow(0.59 - m, 2) + std::pow(0.71 - m, 2) +
                            std::pow(0.79 - m, 2)) / 3.0;
        QVERIFY(std::abs(n.across_sd - std::sqrt(var)) < 1e-12);
        QVERIFY(std::abs(n.ratio() - std::sqrt(0.0002 / var)) < 1e-12);
        QCOMPARE(n.rank_correlation, 1.0); // the same order in both
        QCOMPARE(n.best, (std::vector<int>{1, 1}));
        QCOMPARE(n.best_agrees, 2);
    }

    void replicates_that_disagree_on_the_order()
    {
        // Sums exact in binary, so that every mean is exactly 0.4375.
        const auto a = table_of({0.25, 0.375, 0.5, 0.625});
        const auto b = table_of({0.625, 0.5, 0.375, 0.25});
        const auto n = sim::replicate_noise({&a, &b});
        QCOMPARE(n.rank_correlation, -1.0);
        QCOMPARE(n.across_sd, 0.0); // every mean is 0.65
        QCOMPARE(n.ratio(), 0.0);   // undefined: reported as 0, not a division by zero
        QCOMPARE(n.best_agrees, 1); // the first sequence of best mean, (0 0), is best in one replicate
    }

    // Issue 42, item 25: sequences whose means tie but for rounding (0.1 + 0.7 against 0.7 + 0.1 and
    // the like) have no ratio, not 1.3e15; the confidence set for the best holds every one of them.
    void sequences_that_tie_have_no_ratio()
    {
        const auto a = table_of({0.1, 0.7, 0.3, 0.2});
        const auto b = table_of({0.7, 0.1, 0.2, 0.3});
        const auto c = table_of({0.3, 0.3, 0.6, 0.6});
        const auto n = sim::replicate_noise({&a, &b, &c});
        QVERIFY(!n.sequences_differ());
        QCOMPARE(n.ratio(), 0.0);
        const auto r = sim::accuracies_of({&a, &b, &c}, {1, 2, 3});
        const auto set = sim::best_set(r, sim::fit_variance_model(r));
        QCOMPARE(set.members.size(), std::size_t{4});
    }

    // A replicate that is the first one shifted: all of its move is the level, none the order.
    void a_shifted_replicate_moves_only_its_level()
    {
        const auto a = table_of({0.25, 0.375, 0.5, 0.625});
        const auto b = table_of({0.375, 0.5, 0.625, 0.75});
        const auto n = sim::replicate_noise({&a, &b});
        QVERIFY(std::abs(n.within_sd - std::sqrt(0.0078125)) < 1e-12); // 0.125 apart: variance 0.125^2 / 2
        QVERIFY(n.centred_sd < 1e-12);
        QCOMPARE(n.rank_correlation, 1.0);
    }

    void bad_groups_are_refused_in_one_line()
    {
        const auto a = table_of({0.5, 0.6, 0.7, 0.8});
        QVERIFY_THROWS_EXCEPTION(Error, (void)sim::replicate_noise({&a}));
        sim::SimulationTable other(2, 3);
        for (int code = 0; code < 9; ++code)
            other.add({{code / 3, code % 3}, {8.0, 4.0}, 10.0, 0.5});
        QVERIFY_THROWS_EXCEPTION(Error, (void)sim::replicate_noise({&a, &other}));
        sim::SimulationTable partial(2, 2);
        partial.add({{0, 0}, {8.0, 4.0}, 10.0, 0.5});
        try {
            (void)sim::replicate_noise({&a, &partial});
            QFAIL("an incomplete replicate was accepted");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("incomplete (1 of 4 rows)"), e.what());
        }
    }

    // rlda noise over two replicates written to a folder, and the one-line errors.
    void rlda_noise_reports_each_group()
    {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const auto save = [&](const sim::SimulationTable& t, const sim::TableMeta& m, const std::string& name) {
            sim::SimulationTable full(3, 3); // FeedForwardNet2's 3 decisions over 3 actions
            for (int code = 0; code < 27; ++code)
                full.add({{code / 9, code / 3 % 3, code % 3}, {11.8, 10.2, 8.6}, 12.8,
                          t.accuracy({code / 9 % 2, code % 2}) + 0.001 * (code % 3)});
            full.save((folder / (name + ".csv")).string());
            sim::save_table_meta(folder / (name + ".json"), m);
        };
        save(table_of({0.50, 0.60, 0.70, 0.80}), meta(42), "a");
        save(table_of({0.52, 0.58, 0.72, 0.78}), meta(43), "b");
        auto r = rlda::test::rlda_cli({"noise", QString::fromStdString((folder / "a.csv").string()),
                                       QString::fromStdString((folder / "b.csv").string())});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("FeedForwardNet2") && r.out.contains("early") && r.out.contains("seeds 42 43"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(" 0.0141 "), qPrintable(r.out)); // every sequence moved by 0.02: sd 0.02 / sqrt(2)
        // One table has no replicate: said in one line, exit code 1.
        r = rlda::test::rlda_cli({"noise", QString::fromStdString((folder / "a.csv").string())});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.trimmed().count('\n') == 0 && r.err.contains("no two of the tables given are replicates"),
                 qPrintable(r.err));
    }

    void replicates_differ_in_the_seed_only()
    {
        QVERIFY(sim::replicates_of(meta(42), meta(43)));
        QVERIFY(!sim::replicates_of(meta(42), meta(43, "late")));
        auto wider = meta(43);
        wider.dataset.train_subset = 2048;
        QVERIFY(!sim::replicates_of(meta(42), wider));
        const auto groups = sim::replicate_groups({meta(42), meta(42, "late"), meta(43), meta(44, "late"), wider});
        QCOMPARE(groups, (std::vector<std::vector<std::size_t>>{{0, 2}, {1, 3}, {4}}));
    }

    void the_transfer_summary_gives_the_rank_over_replicates()
    {
        run::TransferResult r;
        run::TransferFold f;
        f.model = "FeedForwardNet2";
        f.tables = {"early.csv", "early_seed43.csv", "late.csv"};
        r.folds.push_back(f);
        const auto rank = [&](std::uint64_t seed, const std::string& table, const std::string& scenario, int value) {
            run::TransferRank x;
            x.model = f.model;
            x.seed = seed;
            x.table = table;
            x.scenario = scenario;
            x.evaluation.rank = value;
            r.ranks.push_back(x);
        };
        rank(1, "early.csv", "early", 4);
        rank(1, "early_seed43.csv", "early", 10);
        rank(1, "late.csv", "late", 3);
        rank(2, "early.csv", "early", 6);
        rank(2, "early_seed43.csv", "early", 12);
        rank(2, "late.csv", "late", 5);
        const auto s = run::summarize_transfer(r).front();
        QCOMPARE(s.replicates.size(), std::size_t{1}); // late has one table: no spread to give
        const auto& sp = s.replicates.front();
        QCOMPARE(sp.scenario, std::string("early"));
        QCOMPARE(sp.tables, 2);
        QCOMPARE(sp.mean, 8.0);               // (4 + 10 + 6 + 12) / 4
        QCOMPARE(sp.sd, std::sqrt(18.0));     // table means 5 and 11
        QCOMPARE(sp.best, 4);
        QCOMPARE(sp.worst, 12);
    }

    // Replicates are judged with their model and never learned from; the summary gives the spread.
    void transfer_judges_the_replicates_of_the_held_out_model()
    {
        // The single-seed tables kept as fixtures: seed 42, and replicates at seeds 43 and 44.
        const fs::path folder = fashion_mnist_tables_dir().parent_path() / "single-seed";
        run::TransferSettings s;
        for (const auto* name : {"feedforwardnet2", "feedforwardnet3"})
            for (const auto* scenario : {"early", "middle", "late"}) {
                s.tables.push_back(folder / fmt::format("{}_{}.csv", name, scenario));
                for (const auto* seed : {"43", "44"})
                    s.replicates.push_back(folder / fmt::format("{}_{}_seed{}.csv", name, scenario, seed));
            }
        s.held_out = {"FeedForwardNet2"};
        s.episodes = 30;
        s.seeds = {1};
        QTemporaryDir dir;
        const fs::path out = fs::path(dir.path().toStdString()) / "t";
        const auto r = run::run_transfer(s, out, false);
        const auto& fold = r.folds.front();
        QCOMPARE(fold.training_tables.size(), std::size_t{3}); // FeedForwardNet3's, its replicates not
        std::size_t ff2_replicates = 0;
        for (const auto& t : s.replicates)
            ff2_replicates += t.filename().string().starts_with("feedforwardnet2") ? 1 : 0;
        QVERIFY(ff2_replicates >= 3);
        QCOMPARE(fold.tables.size(), 3 + ff2_replicates);
        QCOMPARE(r.ranks.size(), fold.tables.size());
        const auto summary = run::summarize_transfer(r).front();
        QCOMPARE(summary.replicates.size(), std::size_t{3}); // early, middle, late
        for (const auto& sp : summary.replicates) {
            QCOMPARE(sp.tables, static_cast<int>(1 + ff2_replicates / 3));
            QVERIFY(sp.best >= 1 && sp.best <= sp.worst && sp.worst <= 27);
        }
        // A table is not its own replicate: refused before anything is written.
        s.replicates = {s.tables.front()};
        const fs::path bad = fs::path(dir.path().toStdString()) / "bad";
        try {
            (void)run::run_transfer(s, bad, false);
            QFAIL("a table given as its own replicate was accepted");
        } catch (const Error& e) {
            QVERIFY2(QString(e.what()).contains("a replicate of none of the tables given"), e.what());
        }
        QVERIFY(!fs::exists(bad));
    }

    // rlda noise --export-means: a replicated table's means in the paper's columns, described by their
    // own metadata (no seeds), and never over a file that is there.
    void the_means_of_a_replicated_table_export_in_the_papers_layout()
    {
        const fs::path table = fashion_mnist_tables_dir() / "feedforwardnet2_middle.csv";
        QTemporaryDir dir;
        const fs::path out = fs::path(dir.path().toStdString()) / "means.csv";
        auto r = rlda::test::rlda_cli({"noise", QString::fromStdString(table.string()), "--export-means",
                                       QString::fromStdString(out.string())});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("the means of 5 seeds"), qPrintable(r.out));
        const auto replicated = sim::open_table(table.string());
        const auto means = sim::open_table(out.string());
        QVERIFY(means.described && !means.table.replicated() && means.meta.seeds.empty());
        QCOMPARE(means.meta.model, replicated.meta.model);
        QCOMPARE(means.table.rows().size(), replicated.table.rows().size());
        for (const auto& row : replicated.table.rows())
            QCOMPARE(means.table.accuracy(row.actions), row.accuracy);
        std::ifstream in(out);
        std::string header;
        std::getline(in, header);
        QVERIFY(header.starts_with("a1,a2,a3,timeleft1,timeleft2,timeleft3,totaltime,accuracy\r"));
        r = rlda::test::rlda_cli({"noise", QString::fromStdString(table.string()), "--export-means",
                                  QString::fromStdString(out.string())});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("already exists") && r.err.trimmed().count('\n') == 0, qPrintable(r.err));
        r = rlda::test::rlda_cli({"noise", QString::fromStdString((fashion_mnist_tables_dir() / "convnet_early.csv").string()),
                                  "--export-means", QString::fromStdString((fs::path(dir.path().toStdString()) / "x.csv").string())});
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("none of the tables given is replicated"), qPrintable(r.err));
    }

    // What the shipped tables support, as `rlda noise` prints it: the global test first, then the
    // components and the confidence set. FeedForwardNet3's three tables cannot tell their sequences
    // apart (p 0.21, 0.62, 0.22: one set of all 64); TinyConvNet3's set is 3 of its 16.
    void noise_says_what_the_shipped_tables_support()
    {
        const auto r =
            rlda::test::rlda_cli({"noise", QString::fromStdString(fashion_mnist_tables_dir().string())});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.out.count("do the 64 sequences differ? not shown"), 3);
        QCOMPARE(r.out.count("at these seeds the table cannot tell its sequences apart"), 4); // and FF2 early
        QCOMPARE(r.out.count("95 % confidence set for the best: all 64 sequences"), 3);
        for (const char* line :
             {"F(63, 252) = 1.16, p = 0.2125", "F(63, 252) = 0.93, p = 0.6223",
              "F(63, 252) = 1.15, p = 0.2216", "95 % confidence set for the best: 3 of 16: (1 1)",
              "sd of accuracy: sequence x seed noise", "P(best) over resamples of the seeds"})
            QVERIFY2(r.out.contains(line), qPrintable(line + QStringLiteral(" not in:\n") + r.out));
        const int test = static_cast<int>(r.out.indexOf("do the 16 sequences differ? yes"));
        QVERIFY(test > 0 &&
                test < r.out.indexOf("95 % confidence set for the best: 3 of 16")); // the test first
    }

    void the_shipped_fashion_mnist_tables_load_with_their_metadata()
    {
        const fs::path folder = fashion_mnist_tables_dir();
        const auto entries = sim::load_table_index((folder / "index.csv").string());
        std::map<std::string, std::set<std::string>> scenarios; // model -> scenarios
        std::set<int> block_counts;
        bool own_model = false;
        std::vector<sim::TableMeta> metas;
        for (const auto& e : entries) {
            const auto t = sim::open_table(e.file);
            const std::string name = fs::path(e.file).filename().string();
            QVERIFY2(t.described && t.meta.source == sim::meta_file_for(e.file).string(), t.meta.source.c_str());
            QVERIFY2(t.complete(), qPrintable(QString::fromStdString(name)));
            QCOMPARE(t.meta.model, e.model);
            QCOMPARE(t.meta.scenario, e.scenario);
            QCOMPARE(t.meta.first_up(), e.adaptation_start);
            QCOMPARE(t.meta.scheduler.budget, e.budget);
            QCOMPARE(t.table.sequences(), std::int64_t{e.sequences});
            QVERIFY(t.meta.dataset.kind == config::DatasetKind::FashionMnist);
            QCOMPARE(t.meta.input, (model::Shape{1, 28, 28}));
            QCOMPARE(t.meta.classes, std::int64_t{10});
            // The table's model builds, and its actions are its blocks and Do Nothing.
            const int blocks = model::original_block_count(t.model);
            QCOMPARE(t.table.num_actions(), blocks + 1);
            QCOMPARE(t.meta.actions, blocks + 1);
            QCOMPARE(t.meta.rows, t.table.sequences());
            scenarios[e.model].insert(e.scenario);
            block_counts.insert(blocks);
            own_model = own_model || !t.meta.model_toml.empty();
            metas.push_back(t.meta);
        }
        // At least four models beyond the paper's two, the zoo's in three scenarios each (the conv
        // models of this project's own in the middle one), model files of our own among them, and
        // block counts no single model has.
        QVERIFY2(scenarios.size() >= 4, qPrintable(QString::number(scenarios.size())));
        for (const auto& [model, s] : scenarios)
            QVERIFY2(s.size() >= 3 || s == std::set<std::string>{"middle"}, model.c_str());
        QVERIFY(own_model);
        QVERIFY(block_counts.size() >= 3);

        // FeedForwardNet2 and 3 are replicated tables: at least 3 seeds each, tested on all 10,000
        // test images, every row's accuracy the mean of its seeds.
        int replicated = 0;
        for (const auto& m : metas) {
            if (m.model != "FeedForwardNet2" && m.model != "FeedForwardNet3")
                continue;
            ++replicated;
            QVERIFY2(m.seeds.size() >= 3, m.source.c_str());
            QCOMPARE(m.dataset.test_subset, std::int64_t{0});
            const auto t = sim::open_table(fs::path(m.source).replace_extension(".csv").string());
            for (const auto& row : t.table.rows()) {
                QCOMPARE(row.replicates.size(), m.seeds.size());
                double sum = 0.0;
                for (double a : row.replicates)
                    sum += a;
                QVERIFY(std::abs(row.accuracy - sum / double(row.replicates.size())) < 1e-6);
            }
        }
        QCOMPARE(replicated, 6);

        // The single-seed fixtures: each _seedS table is one of the seed-42 tables built at another seed.
        const fs::path single = folder.parent_path() / "single-seed" / "index.csv";
        QVERIFY(fs::exists(single));
        std::vector<sim::TableMeta> bases, others;
        for (const auto& e : sim::load_table_index(single.string())) {
            const auto t = sim::open_table(e.file);
            QVERIFY(t.described && t.complete());
            (e.file.find("_seed") == std::string::npos ? bases : others).push_back(t.meta);
        }
        QCOMPARE(bases.size(), std::size_t{6});
        QCOMPARE(others.size(), std::size_t{12});
        for (const auto& o : others) {
            const auto base = std::find_if(bases.begin(), bases.end(),
                                           [&](const sim::TableMeta& m) { return sim::replicates_of(m, o); });
            QVERIFY2(base != bases.end(), o.source.c_str());
            QVERIFY(base->seed != o.seed);
        }
    }
};

RLDA_SUITE_APPLESS_MAIN(TestReplicates)
#include "test_replicates.moc"
