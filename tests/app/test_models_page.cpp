// The Models page: the graph beside the table follows the model, its input and its deepening, and
// exports; $RLDA_SCREENSHOT_DIR/graph-models.png is written when set (docs/screenshots).
#include "app/workbench/models_page.h"
#include "widgets/inspect/model_graph.h"
#include "widgets/model_panel.h"

#include <QImage>
#include <QLocale>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

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

} // namespace

class TestModelsPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

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

        page.setDeepenActions(QStringLiteral("0 2"));
        QCOMPARE(count(g, Kind::Added), 2);
        QCOMPARE(g.summary()->parameters, page.findChild<rlda::widgets::ModelPanel*>()->summary()->parameters);

        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const QImage shot = page.grab().toImage();
        QVERIFY(!shot.isNull());
        if (const QString dir = qEnvironmentVariable("RLDA_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(shot.save(dir + QStringLiteral("/graph-models.png")));

        QTemporaryDir tmp;
        const QString png = tmp.filePath(QStringLiteral("model.png"));
        QVERIFY(page.exportGraph(png, {QSize(500, 800), 96}).isEmpty());
        QCOMPARE(QImage(png).size(), QSize(500, 800));

        // Actions that do not apply leave the model undeepened, as the table does.
        QSignalSpy status(&page, &ModelsPage::statusMessage);
        page.setDeepenActions(QStringLiteral("7"));
        QCOMPARE(count(g, Kind::Added), 0);
        QVERIFY(!status.isEmpty());
        // A model that does not load clears the graph.
        page.setInputShape(QStringLiteral("3x2x2"));
        QVERIFY(!g.summary());
        QVERIFY(g.boxes().empty());
    }
};

QTEST_MAIN(TestModelsPage)
#include "test_models_page.moc"
