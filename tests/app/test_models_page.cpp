// The Models page: the graph beside the table follows the model, its input and its deepening, and
// exports; in the window, the Architecture and Models pages with their graphs, written to
// $RLDA_SCREENSHOT_DIR/graph-architecture.png and graph-models.png when set (docs/screenshots).
// The suite links no LibTorch, and checks what the window does without its engine.
#include "app/workbench/help_menu.h"
#include "app/workbench/main_window.h"
#include "app/workbench/models_page.h"
#include "core/model/zoo.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/model_graph.h"
#include "widgets/model_panel.h"
#include "widgets/run/experiment_editor.h"

#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "tests/common/throwaway_settings.h"

#include <QSettings>

#include <QFileInfo>
#include <QImage>
#include <QLocale>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

namespace m = rlda::core::model;
using rlda::app::MainWindow;
using rlda::app::ModelsPage;
using rlda::widgets::ModelGraph;
using Kind = ModelGraph::BoxKind;

namespace {

int count(const ModelGraph& g, Kind kind)
{
    int n = 0;
    for (const auto& b : g.boxes())
        n += b.kind == kind ? 1 : 0;
    return n;
}

// The window as scripts/screenshots shows it (a 1600x1000 screen), saved when asked.
void shoot(MainWindow& w, const QString& name)
{
    const QImage shot = w.grab().toImage();
    QVERIFY(!shot.isNull());
    if (const QString dir = rlda::test::screenshotDir(); !dir.isEmpty())
        QVERIFY(shot.save(dir + QLatin1Char('/') + name));
}

} // namespace

class TestModelsPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        // Before any QSettings is made: never the user's settings.
        QVERIFY(settings_.isValid());
        rlda::test::use_throwaway_settings(settings_);
    }

    // This suite links no engine (app/workbench/engine.h), as a workbench suite that does not train
    // should: a run started anyway fails in one line saying why, and About says what is missing.
    void without_the_engine_a_run_fails_saying_so()
    {
        QTemporaryDir tmp;
        MainWindow w;
        w.setRunsRoot(tmp.filePath(QStringLiteral("runs")));
        QVERIFY(w.openExperiment(RLDA_SOURCE_DIR "/config/synthetic-quick.toml"));
        QSignalSpy states(&w.controller(), &rlda::app::RunController::stateChanged);
        QVERIFY(w.startTraining());
        QTRY_VERIFY(!w.controller().isActive());
        QCOMPARE(w.controller().state(), rlda::app::RunState::Failed);
        const QString message = states.constLast().at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("linked without the engine")) && !message.contains('\n'),
                 qPrintable(message));
        QVERIFY(rlda::app::aboutText().contains(QStringLiteral("<td>LibTorch</td><td>not linked</td>")));
    }

    void graph_follows_the_model()
    {
        ModelsPage page;
        page.resize(1500, 820);
        page.setInputShape(QStringLiteral("1x28x28"));
        page.showModel(QStringLiteral("ConvNet2"));
        const ModelGraph& g = *page.graph();
        QVERIFY(g.summary());
        QCOMPARE(g.boxes().front().rows.front().shape, QStringLiteral("1x28x28"));
        QCOMPARE(g.boxes()[1].rows.front().shape, QStringLiteral("32x26x26"));
        QCOMPARE(g.boxes().back().rows.front().shape, QStringLiteral("10"));
        QCOMPARE(count(g, Kind::Original), 3);
        QCOMPARE(count(g, Kind::Added), 0);

        page.setInputShape(QStringLiteral("3x32x32"));
        QCOMPARE(g.boxes()[1].rows.front().shape, QStringLiteral("32x30x30"));

        page.setGrowthActions(QStringLiteral("0 2"));
        QCOMPARE(count(g, Kind::Added), 2);
        QCOMPARE(g.summary()->parameters, page.findChild<rlda::widgets::ModelPanel*>()->summary()->parameters);

        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(!page.grab().toImage().isNull());

        QTemporaryDir tmp;
        const QString png = tmp.filePath(QStringLiteral("model.png"));
        QVERIFY(page.exportGraph(png, {QSize(500, 800), 96}).isEmpty());
        QCOMPARE(QImage(png).size(), QSize(500, 800));

        // Actions that do not apply leave the model undeepened, as the table does.
        QSignalSpy status(&page, &ModelsPage::statusMessage);
        page.setGrowthActions(QStringLiteral("7"));
        QCOMPARE(count(g, Kind::Added), 0);
        QVERIFY(!status.isEmpty());
        // A model that does not load clears the graph.
        page.setInputShape(QStringLiteral("3x2x2"));
        QVERIFY(!g.summary());
        QVERIFY(g.boxes().empty());
    }

    // One path for every way an experiment arrives in the editor: a config set in it (as the
    // editor's own Open… does through File -> Open) moves the Models page to its model.
    void the_models_page_follows_an_experiment_set_in_the_editor()
    {
        MainWindow w;
        auto c = w.editor()->config();
        c.job.model = "ConvNet3";
        w.editor()->setConfig(c);
        QVERIFY(w.models()->graph()->summary());
        QCOMPARE(QString::fromStdString(w.models()->graph()->summary()->name), QStringLiteral("ConvNet3"));
        c.job.model = "ConvNet2";
        w.editor()->setConfig(c);
        QCOMPARE(QString::fromStdString(w.models()->graph()->summary()->name), QStringLiteral("ConvNet2"));
    }

    void graphs_in_the_window()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        // A run's steps: ConvNet2 deepened at blocks 0 and 2.
        m::ModelSpec spec = m::load_model("ConvNet2", {3, 32, 32}, 10);
        const m::ModelSummary initial = m::summarize(spec);
        std::vector<rlda::core::train::AdaptationEvent> events;
        for (int a : {0, 2}) {
            rlda::core::train::AdaptationEvent e;
            e.decision = static_cast<int>(events.size()) + 1;
            e.time = 70.0 * e.decision;
            e.action = a;
            e.before = m::summarize(spec);
            m::deepen_spec(spec, a);
            e.after = m::summarize(spec);
            e.max_abs_diff = 2e-7;
            events.push_back(e);
        }
        w.architecture()->setSteps(initial, events);
        w.showPage(MainWindow::Page::Architecture);
        QCOMPARE(count(*w.architecture()->graph(), Kind::Added), 2);
        shoot(w, QStringLiteral("graph-architecture.png"));

        w.previewModel(QStringLiteral("ConvNet2"), QStringLiteral("1x28x28"), 10);
        w.models()->setGrowthActions(QStringLiteral("0 2"));
        w.showPage(MainWindow::Page::Models);
        QCOMPARE(w.models()->graph()->boxes()[1].rows.front().shape, QStringLiteral("32x26x26"));
        QCOMPARE(count(*w.models()->graph(), Kind::Added), 2);
        shoot(w, QStringLiteral("graph-models.png"));

        // Widening and residual insertion preview the same way: "w1" widens block 1 to 64 channels,
        // and deepening a stage of SmallResNet adds a residual block with its identity skip.
        w.models()->setGrowthActions(QStringLiteral("w1 0"));
        QCOMPARE(w.models()->graph()->boxes()[4].rows.front().shape, QStringLiteral("64x11x11")); // input, block 0, added, pool, block 1
        QCOMPARE(count(*w.models()->graph(), Kind::Added), 1);
        shoot(w, QStringLiteral("graph-models-widened.png"));
        w.previewModel(QStringLiteral("SmallResNet"), QStringLiteral("1x28x28"), 10);
        w.models()->setGrowthActions(QStringLiteral("2 w2"));
        const auto& boxes = w.models()->graph()->boxes();
        QCOMPARE(count(*w.models()->graph(), Kind::Added), 1);
        const auto added = std::find_if(boxes.begin(), boxes.end(), [](const auto& b) { return b.kind == Kind::Added; });
        QVERIFY(added->title.startsWith(QStringLiteral("added residual block")));
        QVERIFY(std::any_of(added->rows.begin(), added->rows.end(),
                            [](const auto& r) { return r.label == QStringLiteral("+ skip (identity)"); }));
        shoot(w, QStringLiteral("graph-models-residual.png"));

        // File → Export plot on either page writes its graph.
        QTemporaryDir tmp;
        for (const auto page : {MainWindow::Page::Architecture, MainWindow::Page::Models}) {
            const QString svg = tmp.filePath(QStringLiteral("graph-%1.svg").arg(static_cast<int>(page)));
            QVERIFY2(w.pages()->exportPlot(page, svg, {QSize(600, 900), 96}).isEmpty(), qPrintable(svg));
            QVERIFY(QFileInfo(svg).size() > 0);
        }
    }

private:
    QTemporaryDir settings_;
};

RLDA_SUITE_MAIN(TestModelsPage)
#include "test_models_page.moc"
