// A replicated table trained fused (sweep.fused, core/sim/fused_table_training.cpp) against the same
// table trained seed by seed: the same rows and time left, accuracies within a few test samples; a
// stopped fused build resumes to the uninterrupted one byte for byte; the choice is part of the
// folder's settings; fused settings that cannot be built as a tree are refused in one line.
#include "core/config/experiment_io.h"
#include "core/sim/build.h"
#include "core/table/open_table.h"
#include "core/table/table.h"
#include "core/util/error.h"
#include "tests/common/suite.h"
#include "tests/common/tiny_sim.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stop_token>
#include <string>
#include <vector>

using namespace rlda::core;
using rlda::test::error_of;
using rlda::test::slurp;

namespace {

// The tiny experiment of the table suites with two seeds (or those given), fused or not.
config::ExperimentConfig replicated(const char* fused, const char* seeds = "5, 6")
{
    const std::string toml =
        std::string(rlda::test::tiny_toml) + "[sweep]\nseeds = [" + seeds + "]\nfused = \"" + fused + "\"\n";
    return config::parse_experiment(toml, "tiny.toml");
}

// Fused and separate training differ in float rounding only (test_fused: parameters within 1e-5
// after 50 steps); over a table's epochs that moves a few of the 64 test samples across a decision
// boundary. Measured here: at most 3 samples in a row (0.047), under 1 on average (0.012).
constexpr double kRowTolerance = 4.0 / 64.0; // absolute accuracy, one row
constexpr double kMeanTolerance = 1.0 / 64.0; // absolute accuracy, the mean over every row

} // namespace

class TestFusedTable : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::filesystem::path folder(const char* name) const { return dir_.filePath(name).toStdString(); }
    std::vector<sim::BuildProgress> separate_reports_; // the progress of the seed-by-seed build

private Q_SLOTS:
    void fused_rows_are_the_separate_rows_within_rounding()
    {
        QVERIFY(sim::fuses_replicates(replicated("on")));
        QVERIFY(!sim::fuses_replicates(replicated("off")));
        QVERIFY(!sim::fuses_replicates(replicated("auto"))); // auto: fused on a GPU only
        const auto separate =
            sim::build_table(replicated("off"), folder("separate"), false,
                             [&](const sim::BuildProgress& p) { separate_reports_.push_back(p); });
        int reports = 0;
        const auto fused = sim::build_table(replicated("on"), folder("fused"), false,
                                            [&](const sim::BuildProgress& p) {
                                                QCOMPARE(p.total, 32); // 16 rows at each of 2 seeds
                                                ++reports;
                                            });
        QVERIFY(reports > 16);
        QVERIFY(fused.complete());
        QCOMPARE(fused.rows().size(), separate.rows().size());
        for (const std::uint64_t seed : {5u, 6u}) {
            const auto a = sim::SimulationTable::load((sim::seed_folder(folder("separate"), seed) / "table.csv").string());
            const auto b = sim::SimulationTable::load((sim::seed_folder(folder("fused"), seed) / "table.csv").string());
            QCOMPARE(b.rows().size(), a.rows().size());
            double worst = 0.0, sum = 0.0;
            for (std::size_t i = 0; i < a.rows().size(); ++i) {
                QCOMPARE(b.rows()[i].actions, a.rows()[i].actions);
                QCOMPARE(b.rows()[i].time_left, a.rows()[i].time_left);
                QCOMPARE(b.rows()[i].total_time, a.rows()[i].total_time);
                const double d = std::abs(b.rows()[i].accuracy - a.rows()[i].accuracy);
                worst = std::max(worst, d);
                sum += d;
            }
            const double mean = sum / static_cast<double>(a.rows().size());
            qInfo("seed %llu: fused vs separate, max |accuracy difference| %.4f, mean %.4f",
                  static_cast<unsigned long long>(seed), worst, mean);
            QVERIFY(worst <= kRowTolerance);
            QVERIFY(mean <= kMeanTolerance);
        }
    }

    // Issue 43, item 19: seeds built one after another report the whole build's rows, and an ETA of
    // every row still to train: at the last row of the first seed it said 0 s, the second seed to come.
    void a_replicated_builds_progress_is_the_whole_builds()
    {
        QVERIFY(!separate_reports_.empty());
        int last_done = 0;
        for (const auto& p : separate_reports_) {
            QCOMPARE(p.total, 32);
            QVERIFY(p.done >= last_done);
            last_done = p.done;
            if (p.row && p.done < p.total)
                QVERIFY2(
                    p.eta > 0.0,
                    qPrintable(QStringLiteral("row %1/%2: ETA %3 s").arg(p.done).arg(p.total).arg(p.eta)));
        }
        QCOMPARE(last_done, 32);
        const auto end_of_first =
            std::find_if(separate_reports_.begin(), separate_reports_.end(),
                         [](const sim::BuildProgress& p) { return p.row && p.done == 16; });
        QVERIFY(end_of_first != separate_reports_.end());
        QCOMPARE(end_of_first->computed, 16);
        QVERIFY(end_of_first->eta > 0.0);
        QCOMPARE(separate_reports_.back().eta, 0.0);
    }

    void a_stopped_fused_build_resumes_to_the_same_table()
    {
        const auto reference = folder("fused"); // the uninterrupted build above
        const auto out = folder("resumed");
        std::stop_source stop;
        const auto partial = sim::build_table(
            replicated("on"), out, false,
            [&](const sim::BuildProgress& p) {
                if (p.done >= 9)
                    stop.request_stop();
            },
            stop.get_token());
        QVERIFY(!partial.complete());
        // Each seed's table on disk parses, with the rows done so far.
        std::size_t kept = 0;
        for (const std::uint64_t seed : {5u, 6u})
            kept += sim::SimulationTable::load((sim::seed_folder(out, seed) / "table.csv").string(), 4).rows().size();
        QVERIFY(kept >= 9 && kept < 32);
        int computed = 0;
        const auto full = sim::build_table(replicated("on"), out, false,
                                           [&](const sim::BuildProgress& p) { computed = p.computed; });
        QVERIFY(full.complete());
        QCOMPARE(computed, static_cast<int>(32 - kept));
        for (const std::uint64_t seed : {5u, 6u})
            QCOMPARE(slurp(sim::seed_folder(out, seed) / "table.csv"), slurp(sim::seed_folder(reference, seed) / "table.csv"));
        QCOMPARE(slurp(out / "table.csv"), slurp(reference / "table.csv"));
    }

    void extending_a_complete_table_leaves_it_whole_until_the_larger_one_is()
    {
        // Issue 43, item 1: a complete table given a third seed, and stopped while that seed trains
        // (fused and not). Its table.csv was left a header only; now table.csv, table.json and
        // features.csv stay byte for byte and open as the complete table they were, until the same
        // build finishes the larger table.
        for (const char* fused : {"off", "on"}) {
            const bool on = std::string_view(fused) == "on";
            const auto out = folder(on ? "extended-fused" : "extended-separate");
            std::filesystem::copy(folder(on ? "fused" : "separate"), out,
                                  std::filesystem::copy_options::recursive);
            const auto files = [&] {
                return std::vector<std::string>{slurp(out / "table.csv"), slurp(out / "table.json"),
                                                slurp(out / "features.csv")};
            };
            const auto before = files();
            QCOMPARE(before[2].empty(), on); // a fused build records no decision features
            std::stop_source stop;
            const auto stopped = sim::build_table(
                replicated(fused, "5, 6, 7"), out, false,
                [&](const sim::BuildProgress& p) {
                    if (p.done >= 35) // 3 rows of seed 7
                        stop.request_stop();
                },
                stop.get_token());
            QVERIFY(!stopped.complete());
            QCOMPARE(files(), before);
            const auto opened = sim::open_table(out);
            QVERIFY(opened.table.complete());
            QCOMPARE(opened.table.seeds(), (std::vector<std::uint64_t>{5, 6}));
            const auto larger = sim::build_table(replicated(fused, "5, 6, 7"), out, false);
            QVERIFY(larger.complete());
            QCOMPARE(sim::open_table(out).table.seeds(), (std::vector<std::uint64_t>{5, 6, 7}));
        }
    }

    void the_choice_is_part_of_the_folders_settings()
    {
        const std::string e = error_of([&] { sim::build_table(replicated("off"), folder("fused"), false); });
        QVERIFY2(e.find("sweep.fused") != std::string::npos, e.c_str());
    }

    void fused_settings_that_are_no_tree_are_refused()
    {
        // Two allocation changes: each sequence's own run, not a tree of shared prefixes.
        std::string toml = std::string(rlda::test::tiny_toml) + "[sweep]\nseeds = [5, 6]\nfused = \"on\"\n";
        const std::string one = "events = [{ time = 10.0, change = \"up\" }]";
        toml.replace(toml.find(one), one.size(),
                     R"(events = [{ time = 10.0, change = "up" }, { time = 30.0, change = "down" }])");
        const auto c = config::parse_experiment(toml, "tiny.toml");
        QVERIFY(!sim::tree_buildable(c));
        QVERIFY(!sim::fuses_replicates(c));
        const auto out = folder("refused");
        const std::string e = error_of([&] { sim::build_table(c, out, false); });
        QVERIFY2(e.find("sweep.fused") != std::string::npos, e.c_str());
        QVERIFY(!std::filesystem::exists(out));
    }
};

RLDA_SUITE_GUILESS_MAIN(TestFusedTable)
#include "test_fused_table.moc"
