// LearningView: incremental rolling means (exact on known data), window changes, bulk episodes.
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/widgets/plot/plot_reading.h"
#include "widgets/plot/learning_view.h"
#include "widgets/plot/series_plot.h"
#include "widgets/qcp.h"

#include <QDir>
#include <QSpinBox>
#include <QTest>

#include <cmath>

using rlda::widgets::LearningView;
using rlda::widgets::RollingSeries;
namespace sim = rlda::core::sim;

namespace {

sim::EpisodeRecord episode(std::int64_t i, double objective, double accuracy)
{
    sim::EpisodeRecord e;
    e.episode = i;
    e.objective = objective;
    e.accuracy = accuracy;
    e.lr = i < 500 ? 0.01 : 0.005;
    e.temperature = i < 300 ? 2.0 : (i < 700 ? 1.0 : 0.5);
    return e;
}

void expectNear(const std::vector<double>& got, const std::vector<double>& want)
{
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(std::abs(got[i] - want[i]) < 1e-12,
                 qPrintable(QStringLiteral("[%1] %2 != %3").arg(i).arg(got[i]).arg(want[i])));
}

// The rolling means drawn for `quantity` ("objective" or "accuracy"), every point.
std::vector<double> means(const LearningView& v, const char* quantity)
{
    return v.plot()->values(QString::fromLatin1(quantity) + QStringLiteral("_mean"));
}

} // namespace

class TestLearningView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rollingMeanWindow3();
    void windowChangeRecomputes();
    void rollingMeanStaysExactOverLongRuns();
    void manyEpisodes();
    void learningRunsOverlaid();
};

void TestLearningView::rollingMeanWindow3()
{
    LearningView v;
    QCOMPARE(v.window(), 75);
    v.setWindow(3);
    const double obj[] = {1, 2, 3, 4, 5, 6};
    const double acc[] = {0.5, 0.7, 0.6, 0.9, 0.2, 0.4};
    for (int i = 0; i < 6; ++i)
        v.addEpisode(episode(i + 1, obj[i], acc[i]));
    expectNear(means(v, "objective"), {1, 1.5, 2, 3, 4, 5});
    expectNear(means(v, "accuracy"), {0.5, 0.6, 0.6, 2.2 / 3, 1.7 / 3, 1.5 / 3});
    QCOMPARE(v.plot()->pointCount(QStringLiteral("objective")), 6);
    QCOMPARE(v.plot()->pointCount(QStringLiteral("temperature")), 6);
    QCOMPARE(plot_reading::line(*v.plot(), QStringLiteral("objective_mean"))->name(), QStringLiteral("objective, mean of 3"));
}

void TestLearningView::windowChangeRecomputes()
{
    LearningView v;
    for (int i = 0; i < 6; ++i)
        v.addEpisode(episode(i + 1, i + 1.0, 0.5));
    expectNear(means(v, "objective"), {1, 1.5, 2, 2.5, 3, 3.5}); // window 75: all so far
    v.setWindow(2);
    expectNear(means(v, "objective"), {1, 1.5, 2.5, 3.5, 4.5, 5.5});
    QCOMPARE(v.findChild<QSpinBox*>()->value(), 2);
    v.findChild<QSpinBox*>()->setValue(3); // the spin box drives the same path
    QCOMPARE(v.window(), 3);
    expectNear(means(v, "objective"), {1, 1.5, 2, 3, 4, 5});
    v.addEpisode(episode(7, 7.0, 0.5)); // and new episodes continue incrementally
    QCOMPARE(means(v, "objective").back(), 6.0);
    QCOMPARE(plot_reading::line(*v.plot(), QStringLiteral("accuracy_mean"))->name(), QStringLiteral("accuracy, mean of 3"));
    v.clear();
    QCOMPARE(v.plot()->pointCount(QStringLiteral("objective")), 0);
    QCOMPARE(v.plot()->pointCount(QStringLiteral("objective_mean")), 0);
}

void TestLearningView::rollingMeanStaysExactOverLongRuns()
{
    RollingSeries r(50);
    std::vector<double> values;
    std::uint64_t state = 12345; // seeded LCG: deterministic
    for (int i = 0; i < 20000; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        values.push_back(double(state >> 11) / double(1ULL << 53) * 1000.0);
        r.push(values.back());
    }
    for (std::size_t i = 0; i < values.size(); i += 997) {
        const std::size_t from = i + 1 >= 50 ? i + 1 - 50 : 0;
        double sum = 0;
        for (std::size_t k = from; k <= i; ++k)
            sum += values[k];
        QVERIFY(std::abs(r.means()[i] - sum / double(i + 1 - from)) < 1e-9);
    }
}

void TestLearningView::manyEpisodes()
{
    LearningView v;
    v.resize(1100, 560);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setWindow(50);
    std::vector<sim::EpisodeRecord> batch;
    std::uint64_t state = 7;
    for (int i = 1; i <= 20000; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double noise = double(state >> 11) / double(1ULL << 53) - 0.5;
        const double level = 0.55 + 0.3 * (1.0 - std::exp(-i / 4000.0));
        batch.push_back(episode(i, level + 0.2 * noise, level + 0.1 * noise));
    }
    v.addEpisodes(batch);
    v.plot()->flush();
    QCOMPARE(v.plot()->pointCount(QStringLiteral("objective_mean")), 20000);
    const int px = v.plot()->plot()->axisRect()->width();
    QVERIFY(v.plot()->displayedPointCount(QStringLiteral("objective")) <= 2 * px + 4);
    const QString dir = rlda::test::screenshotDir();
    if (!dir.isEmpty()) {
        QDir().mkpath(dir);
        QCoreApplication::processEvents(); // pending layouts and paints, then the grab
        v.grab().save(dir + QStringLiteral("/learning.png"));
    }
}

// Issue 43, item 17: learning runs overlaid, each run's rolling means in a colour of its own and
// named in the legend; the window recomputes them; a live run (clear()) drops them.
void TestLearningView::learningRunsOverlaid()
{
    LearningView v;
    v.resize(1100, 560);
    v.setWindow(3);
    QList<rlda::core::io::RunData> runs;
    for (const double level : {0.5, 0.7}) {
        rlda::core::io::RunData run;
        run.name = level < 0.6 ? "seed-1" : "seed-2";
        run.kind = rlda::core::io::RunKind::Learning;
        for (int i = 1; i <= 6; ++i)
            run.episodes.push_back(episode(i, level + 0.01 * i, level));
        runs.push_back(run);
    }
    v.setRuns(runs);
    QCOMPARE(v.overlayNames(), (QStringList{QStringLiteral("seed-1"), QStringLiteral("seed-2")}));
    expectNear(v.plot()->values(QStringLiteral("seed-2/objective")), {0.71, 0.715, 0.72, 0.73, 0.74, 0.75});
    expectNear(v.plot()->values(QStringLiteral("seed-1/accuracy")), std::vector<double>(6, 0.5));
    QCOMPARE(v.plot()->pointCount(QStringLiteral("objective_mean")), 0); // the one-run series stay empty
    v.setWindow(1);
    expectNear(v.plot()->values(QStringLiteral("seed-2/objective")), {0.71, 0.72, 0.73, 0.74, 0.75, 0.76});
    const QString dir = rlda::test::screenshotDir();
    if (!dir.isEmpty()) {
        QDir().mkpath(dir);
        v.grab().save(dir + QStringLiteral("/learning-overlay.png"));
    }
    v.clear();
    QVERIFY(v.overlayNames().isEmpty());
    QCOMPARE(v.plot()->pointCount(QStringLiteral("seed-1/objective")), 0);
}

RLDA_SUITE_MAIN(TestLearningView)
#include "test_learning_view.moc"
