// Racing (issue 41, item 4): a table's later seeds only for the sequences still in the confidence set
// for the best. Its rules on hand-made rows (cost, seeds, log, the table with empty seed cells), and
// races of the tiny synthetic table: blocked seeds, resuming to the same bytes, the budget, the CLI.
#include "core/config/experiment_io.h"
#include "core/model/actions.h"
#include "core/sim/race.h"
#include "core/table/judge.h"
#include "core/table/open_table.h"
#include "core/table/race.h"
#include "core/table/reliability.h"
#include "core/table/sequences.h"
#include "core/table/table_folder.h"
#include "core/table/variance_model.h"
#include "core/util/error.h"
#include "core/util/statistics.h"
#include "tests/common/rlda_cli.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_sim.h"

#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stop_token>

using namespace rlda::core;

namespace {

using rlda::test::error_of;
using rlda::test::slurp;
using rlda::test::tiny_config;
using rlda::test::tiny_toml;

// The tiny table raced from seeds 1, 2 and 3, up to `most` seeds: its 16 sequences cannot be told
// apart, so every round gives the new seed to all of them.
config::ExperimentConfig race_config(int most = 5)
{
    auto c = tiny_config();
    c.sweep.seeds = {1, 2, 3};
    c.sweep.race = true;
    c.sweep.race_max_seeds = most;
    return c;
}

// A table whose sequences differ: TinyConvNet3 on Fashion-MNIST (data/fashion-mnist/tables.toml,
// the middle scenario) on 512 training and 1,000 test images, from seeds 42, 43 and 44, up to 6
// seeds. Its race keeps 4 of 16 sequences after the first round, then 4, 4, 3 (about 25 s).
config::ExperimentConfig contest_config()
{
    const std::string here = RLDA_SOURCE_DIR "/data/fashion-mnist";
    auto c = config::load_experiment(here + "/tables.toml");
    c.name = "middle";
    c.job.model = here + "/models/tiny_convnet3.toml";
    config::apply_override(c, "job.head=\"relu\"");
    c.trainer.max_decisions = 2;
    config::apply_override(c, "scheduler.events=[{ time = 4.2, change = \"up\" }]");
    c.dataset.train_subset = 512;
    c.dataset.test_subset = 1000;
    c.scheduler.step_cost = 0.05; // 32 steps an epoch of 1.6 s, as the shipped tables'
    c.sweep.seeds = {42, 43, 44};
    c.sweep.race = true;
    c.sweep.race_max_seeds = 6;
    return c;
}

sim::TableRow row(std::vector<int> actions, std::vector<double> time_left, std::vector<double> seeds)
{
    sim::TableRow r;
    r.actions = std::move(actions);
    r.time_left = std::move(time_left);
    r.total_time = 40.0;
    r.replicates = std::move(seeds);
    r.accuracy = decimal_mean(r.replicates);
    return r;
}

// Every file of a folder (seeds' folders included) but the checkpoints, the lock and the features:
// the bytes a race leaves.
std::map<std::string, std::string> race_files(const std::filesystem::path& out)
{
    std::map<std::string, std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(out)) {
        const auto name = e.path().filename().string();
        if (e.is_regular_file() && (name == "table.csv" || name == "race.csv" || name == "table.json"))
            files[std::filesystem::relative(e.path(), out).string()] = slurp(e.path());
    }
    return files;
}

} // namespace

class TestRace : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    sim::RaceResult reference_; // the uninterrupted race in folder "a"

    std::filesystem::path folder(const char* name) const { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void the_cost_of_a_tree_is_read_from_its_rows()
    {
        // 2 decisions over 3 actions: decision 1 at 30 s left, decision 2 at 26 s, except after action
        // 2, where the run ended before the second decision (0 left).
        sim::SimulationTable t(2, 3);
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                t.add(row({a, b}, {30.0, a == 2 ? 0.0 : 26.0}, {}));
        // Every prefix once: 3 first segments (4 s, 4 s, and 30 s for the run that ended), then the
        // last segments of the 6 sequences that reached decision 2 (26 s each) and 3 of none.
        const std::vector<std::int64_t> all{0, 1, 2, 3, 4, 5, 6, 7, 8};
        QCOMPARE(sim::tree_seconds(t, all), 4.0 + 4.0 + 30.0 + 6 * 26.0);
        const std::vector<std::int64_t> two{0, 1}; // [0 0] and [0 1] share their first segment
        QCOMPARE(sim::tree_seconds(t, two), 4.0 + 2 * 26.0);
        QCOMPARE(sim::warm_start_seconds(t), 10.0);
        const std::vector<std::int64_t> none{9};
        QCOMPARE(error_of([&] { sim::tree_seconds(t, none); }).find("no row") != std::string::npos, true);

        QCOMPARE(sim::race_seeds({5, 2}, 4), (std::vector<std::uint64_t>{5, 2, 6, 7}));
        QCOMPARE(sim::race_seeds({5, 2}, 1), (std::vector<std::uint64_t>{5, 2}));

        const std::vector<sim::RaceRound> rounds{{{1, 2, 3}, 16, 12.5, 12.5, 5, {}},
                                                 {{4}, 5, 3.25, 15.75, 1, sim::RaceEnd::Named}};
        const auto file = folder("race.csv");
        std::ofstream(file) << sim::race_log_text(rounds);
        const auto back = sim::read_race_log(file);
        QCOMPARE(back.size(), std::size_t{2});
        QCOMPARE(back[0].seeds, (std::vector<std::uint64_t>{1, 2, 3}));
        QCOMPARE(back[1].total_epochs, 15.75);
        QCOMPARE(back[1].contenders, std::int64_t{1});
        QVERIFY(!back[0].end && back[1].end == sim::RaceEnd::Named);
        QVERIFY(slurp(file).ends_with("2,4,5,3.250000,15.750000,1,named\n"));
        std::ofstream(file) << "round,seeds,sequences,epochs,total_epochs,contenders,end\n1,1 x,16,1,1,2,\n";
        QCOMPARE(QString::fromStdString(error_of([&] { sim::read_race_log(file); })),
                 QString::fromStdString(file.string() + ":2: seeds: not a number: \"1 x\""));
    }

    void a_table_with_missing_seeds_reads_writes_and_is_modelled()
    {
        // Seeds 1, 2, 3; the third only for [0 0] and [0 1]: empty cells elsewhere.
        sim::SimulationTable t(2, 2);
        t.set_seeds({1, 2, 3});
        t.add(row({0, 0}, {30.0, 26.0}, {0.5, 0.52, 0.51}));
        t.add(row({0, 1}, {30.0, 26.0}, {0.6, 0.61, 0.62}));
        t.add(row({1, 0}, {30.0, 26.0}, {0.4, 0.43, sim::kMissingSeed}));
        t.add(row({1, 1}, {30.0, 26.0}, {0.3, 0.31, sim::kMissingSeed}));
        QCOMPARE(t.seeds_held_by_every_row(), (std::vector<std::size_t>{0, 1}));
        const auto file = folder("missing.csv");
        t.save(file.string());
        const std::string text = slurp(file);
        QVERIFY2(text.find("1,0,30.000000,26.000000,40,0.415,0.4,0.43,\r\n") != std::string::npos,
                 text.c_str());
        const auto back = sim::SimulationTable::load(file.string());
        back.save(folder("missing-again.csv").string());
        QCOMPARE(slurp(folder("missing-again.csv")), text);
        QVERIFY(std::isnan(back.at({1, 1}).replicates[2]));
        QCOMPARE(back.at({1, 1}).accuracy, 0.305); // the mean of the seeds it holds

        // The seed-blocked model reads the unequal counts; the bootstrap, whole seeds only.
        const auto r = sim::accuracies_by_seed(back);
        const auto m = sim::fit_variance_model(r);
        QVERIFY(!m.balanced);
        QCOMPARE(m.counts, (std::vector<int>{3, 3, 2, 2}));
        QCOMPARE(m.observations, std::int64_t{10});
        sim::ReplicateAccuracies storage;
        QCOMPARE(r.held_by_all(storage).replicates(), 2);
        const auto b = sim::bootstrap_ranks(r, 100, 1);
        QCOMPARE(b.resamples, 4); // every one of the 2^2 resamples of the two whole seeds
        QVERIFY(std::ranges::none_of(r.sd(), [](double sd) { return std::isnan(sd); }));

        // Learning draws only the seeds every row holds, and centres on them.
        const sim::LearnTask task{&back,   nullptr, model::ActionSpace(1), sim::RewardDraw::Replicate, 7,
                                  nullptr, {}};
        for (std::int64_t e = 0; e < 200; ++e)
            QVERIFY(sim::episode_replicate(task, e) < 2);
        QCOMPARE(sim::seed_offsets(back)[2], 0.0);

        // A row with no seed at all is refused, naming the line.
        std::ofstream(folder("none.csv"))
            << "a1,a2,timeleft1,timeleft2,totaltime,accuracy,accuracy_seed1,accuracy_seed2\r\n"
               "0,0,30,26,40,0.5,,\r\n";
        QCOMPARE(error_of([&] { sim::SimulationTable::load(folder("none.csv").string()); }),
                 folder("none.csv").string() +
                     ":2: every accuracy_seed<S> cell is empty; a row holds at least one seed's accuracy");
    }

    void a_race_gives_each_new_seed_to_the_contenders_alone()
    {
        QVERIFY(dir_.isValid());
        if (!std::filesystem::exists("/usr/share/datasets/fashion-mnist"))
            QSKIP("dataset-fashion-mnist is not installed (scripts/test installs it)");
        const auto out = folder("a");
        reference_ = sim::race_table(contest_config(), out, false);
        const auto& result = reference_;
        qInfo("race: %zu rounds, %.2f epochs, ended: %s, %zu contenders", result.rounds.size(),
              result.rounds.back().total_epochs, sim::race_end_text(result.end).c_str(),
              result.contenders.size());
        QVERIFY(result.end != sim::RaceEnd::Stopped);
        QVERIFY2(result.rounds.size() >= 3, "the race should run at least two rounds after the first");
        QCOMPARE(result.rounds.front().seeds, (std::vector<std::uint64_t>{42, 43, 44}));
        QCOMPARE(result.rounds.front().sequences, std::int64_t{16});
        QVERIFY2(result.rounds[1].sequences < 16, "the first round should leave some sequences behind");

        // Round r + 1 trained at one new seed exactly the sequences in the set after round r, and its
        // cost is theirs as a tree (warm start included) in epochs of 1.6 s (32 steps of 0.05 s).
        const auto& table = result.table;
        QCOMPARE(table.seeds().size(), std::size_t{2 + result.rounds.size()});
        const double epoch = 1.6, warm = sim::warm_start_seconds(table);
        for (std::size_t i = 1; i < result.rounds.size(); ++i) {
            const auto& round = result.rounds[i];
            QCOMPARE(round.sequences, result.rounds[i - 1].contenders);
            QCOMPARE(round.seeds, (std::vector<std::uint64_t>{44 + i}));
            const auto seed_table =
                sim::SimulationTable::load((sim::seed_folder(out, 44 + i) / "table.csv").string(), 4);
            QCOMPARE(static_cast<std::int64_t>(seed_table.rows().size()), round.sequences);
            std::vector<std::int64_t> codes;
            for (const auto& r : seed_table.rows())
                codes.push_back(sim::sequence_code(r.actions, 4));
            QCOMPARE(round.epochs, (warm + sim::tree_seconds(table, codes)) / epoch);
            // The race's table: that seed's accuracy for those rows, an empty cell for the others.
            const std::size_t column = 2 + i;
            for (const auto& r : table.rows())
                if (const auto* at_seed = seed_table.find(r.actions))
                    QCOMPARE(r.replicates[column], at_seed->accuracy);
                else
                    QVERIFY(std::isnan(r.replicates[column]));
        }
        // Blocked: a sequence holding a later seed holds every seed before it.
        for (const auto& r : table.rows())
            for (std::size_t s = 1; s < r.replicates.size(); ++s)
                QVERIFY(std::isnan(r.replicates[s]) || !std::isnan(r.replicates[s - 1]));
        if (result.end == sim::RaceEnd::Named)
            QCOMPARE(result.contenders.size(), std::size_t{1});
        else
            QCOMPARE(result.end, sim::RaceEnd::MostSeeds);

        // The folder opens as a table, its metadata listing the seeds, and its statistics read the
        // unequal counts; race.csv holds the rounds.
        const auto opened = sim::open_table(out);
        QCOMPARE(opened.table.seeds(), table.seeds());
        const auto model = sim::fit_variance_model(sim::accuracies_by_seed(opened.table));
        QVERIFY(!model.balanced);
        QCOMPARE(
            model.observations, std::int64_t{48} /* 16 sequences at 3 seeds */ + [&] {
                std::int64_t later = 0;
                for (std::size_t i = 1; i < result.rounds.size(); ++i)
                    later += result.rounds[i].sequences;
                return later;
            }());
        const auto trust = sim::table_trust(opened.table);
        QCOMPARE(trust.best_set.size(), result.contenders.size());
        // The table's reliability is at its sequences' mean count of seeds, and says so.
        QCOMPARE(trust.reliability.fewest_seeds, 3);
        QCOMPARE(trust.reliability.most_seeds, static_cast<int>(table.seeds().size()));
        QVERIFY2(sim::reliability_text(trust.reliability).find("the table's seeds (3 to ") !=
                     std::string::npos,
                 sim::reliability_text(trust.reliability).c_str());
        const auto log = sim::read_race_log(out / "race.csv");
        QCOMPARE(log.size(), result.rounds.size());
        QVERIFY(log.back().end == result.end);
        QCOMPARE(log.back().contenders, static_cast<std::int64_t>(result.contenders.size()));
        QCOMPARE(sim::contenders(opened.table), result.contenders);
    }

    void a_stopped_race_resumes_to_the_same_bytes()
    {
        if (reference_.rounds.empty())
            QSKIP("needs the race of a_race_gives_each_new_seed_to_the_contenders_alone");
        // Stopped in its third round, after that round's first row; then run again.
        const auto out = folder("b");
        std::stop_source stop;
        const auto stopped = sim::race_table(
            contest_config(), out, false,
            [&](const sim::RaceProgress& p) {
                if (p.round == 3 && p.build.row)
                    stop.request_stop();
            },
            stop.get_token());
        QCOMPARE(stopped.end, sim::RaceEnd::Stopped);
        QCOMPARE(stopped.rounds.size(), std::size_t{2});
        QVERIFY(sim::open_table(out).table.complete()); // what a stopped race leaves opens
        const auto resumed = sim::race_table(contest_config(), out, false);
        QCOMPARE(resumed.end, reference_.end);
        QCOMPARE(race_files(out), race_files(folder("a")));
    }

    void a_budget_ends_the_race_before_a_round_that_would_pass_it()
    {
        // The tiny table: a seed costs 110.5 epochs of 4 s (a warm start of 10 s, then its 16 sequences
        // as a tree: 4 first segments of 4 s and 16 last ones of 26 s), so its first round 331.5. A
        // budget of 400 allows the first round, not the second.
        auto c = race_config();
        c.sweep.race_budget_epochs = 400.0;
        const auto out = folder("c");
        const auto cut = sim::race_table(c, out, false);
        QCOMPARE(cut.end, sim::RaceEnd::Budget);
        QCOMPARE(cut.rounds.size(), std::size_t{1});
        QCOMPARE(cut.rounds.front().total_epochs, 331.5);
        QCOMPARE(cut.contenders.size(), std::size_t{16});
        // Raising the budget of a finished race lets it go on, here to its most seeds: the same bytes
        // as the race run without a budget.
        const auto on = sim::race_table(race_config(), out, false);
        QCOMPARE(on.end, sim::RaceEnd::MostSeeds);
        QCOMPARE(on.rounds.size(), std::size_t{3});
        QCOMPARE(on.rounds.back().total_epochs, 5 * 110.5);
        sim::race_table(race_config(), folder("d"), false);
        QCOMPARE(race_files(out), race_files(folder("d")));
    }

    void settings_a_race_cannot_run_are_refused_first()
    {
        auto c = race_config();
        c.sweep.seeds = {1};
        QCOMPARE(
            error_of([&] { sim::race_table(c, folder("bad"), false); }),
            std::string("sweep.race: the first round needs at least 2 seeds in sweep.seeds (rlda simulate "
                        "--race gives job.seed and the next 2)"));
        c = race_config(2);
        QCOMPARE(error_of([&] { sim::race_table(c, folder("bad"), false); }),
                 std::string("sweep.race_max_seeds: 2 is fewer than the 3 seeds of sweep.seeds"));
        c = race_config();
        c.sweep.fused = config::FusedReplicates::On;
        QVERIFY(error_of([&] {
                    sim::race_table(c, folder("bad"), false);
                }).starts_with("sweep.race: a race trains"));
        QVERIFY(!std::filesystem::exists(folder("bad")));
    }

    void rlda_simulate_races_with_the_workers()
    {
        const QString config = dir_.filePath("tiny.toml");
        std::ofstream(config.toStdString()) << tiny_toml;
        const auto out = dir_.filePath("cli");
        const auto [code, text, err] =
            rlda::test::rlda_cli({"simulate", config, "--race", "--seeds", "1", "2", "3", "--set",
                                  "sweep.race_max_seeds=5", "--workers", "2", "--out", out});
        QVERIFY2(code == 0, qPrintable(err));
        QVERIFY2(
            text.contains("race round 2: seed 4 for the 16 sequences in the confidence set for the best") &&
                text.contains("race: 3 rounds, 552.5 epochs; ended: the most seeds allowed") &&
                text.contains("confidence set for the best (95 %): ["),
            qPrintable(text));
        // Its first round on two worker processes, the same bytes as in-process.
        QCOMPARE(race_files(out.toStdString()), race_files(folder("d")));
        const auto [bad, o, e] =
            rlda::test::rlda_cli({"simulate", config, "--race", "--backend", "slurm", "--out", out});
        QCOMPARE(bad, 1);
        QVERIFY2(e.contains("sweep.race: a race runs its rounds on this machine; use --backend local"),
                 qPrintable(e));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestRace)
#include "test_race.moc"
