// ModelGraph: ConvNet2's boxes and shapes on 1x28x28 and 3x32x32 against core's shape inference
// (which test_net2net checks against a LibTorch forward of the same models), original and added
// blocks after a deepening, the steps the architecture inspector marks, tooltips, and the PNG, SVG
// and PDF exports.
#include "core/model/spec.h"
#include "core/model/zoo.h"
#include "tests/common/screenshots.h"
#include "tests/common/suite.h"
#include "widgets/inspect/architecture_inspector.h"
#include "widgets/inspect/model_graph.h"

#include <QFile>
#include <QHelpEvent>
#include <QImage>
#include <QLocale>
#include <QScrollArea>
#include <QSlider>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

namespace m = rlda::core::model;
namespace t = rlda::core::train;
using rlda::widgets::ArchitectureInspector;
using rlda::widgets::ModelGraph;
using Kind = ModelGraph::BoxKind;

namespace {

// Every layer row's shape, outside the input and output boxes.
QStringList graphShapes(const ModelGraph& g)
{
    QStringList out;
    for (const auto& b : g.boxes())
        if (b.kind != Kind::Input && b.kind != Kind::Output)
            for (const auto& r : b.rows)
                out << r.shape;
    return out;
}

QStringList coreShapes(const m::ModelSpec& spec)
{
    QStringList out;
    for (const auto& unit : m::layer_shapes(spec))
        for (const auto& s : unit)
            out << QString::fromStdString(m::shape_string(s));
    return out;
}

QList<Kind> kinds(const ModelGraph& g)
{
    QList<Kind> out;
    for (const auto& b : g.boxes())
        out << b.kind;
    return out;
}

// A run's adaptations on ConvNet2: Deepen(0), Deepen(2), Do Nothing.
std::pair<m::ModelSummary, std::vector<t::AdaptationEvent>> makeDeepenedRun()
{
    m::ModelSpec spec = m::load_model("ConvNet2", {3, 32, 32}, 10);
    const m::ModelSummary initial = m::summarize(spec);
    std::vector<t::AdaptationEvent> events;
    const int actions[] = {0, 2, 3};
    for (int i = 0; i < 3; ++i) {
        t::AdaptationEvent e;
        e.decision = i + 1;
        e.time = 70.0 * (i + 1);
        e.action = actions[i];
        e.before = m::summarize(spec);
        e.did_nothing = m::deepen_spec(spec, actions[i]).did_nothing;
        e.after = m::summarize(spec);
        events.push_back(e);
    }
    return {initial, events};
}

std::vector<int> newUnits(const ModelGraph& g)
{
    std::vector<int> out;
    for (const auto& b : g.boxes())
        if (b.isNew)
            out.push_back(b.unit);
    return out;
}

} // namespace

class TestModelGraph : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void shapes_of_convnet2_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QStringList>("expected");
        // Conv 3x3 (no padding), BatchNorm, ReLU | AvgPool 2 | Conv 3x3, BatchNorm, ReLU |
        // AdaptiveAvgPool 1x1 | Flatten | Linear, ReLU.
        QTest::newRow("1x28x28") << QStringLiteral("1x28x28")
                                 << QStringList{"32x26x26", "32x26x26", "32x26x26", "32x13x13", "32x11x11", "32x11x11",
                                                "32x11x11", "32x1x1", "32", "10", "10"};
        QTest::newRow("3x32x32") << QStringLiteral("3x32x32")
                                 << QStringList{"32x30x30", "32x30x30", "32x30x30", "32x15x15", "32x13x13", "32x13x13",
                                                "32x13x13", "32x1x1", "32", "10", "10"};
    }

    void shapes_of_convnet2()
    {
        QFETCH(QString, input);
        QFETCH(QStringList, expected);
        const m::ModelSpec spec = m::load_model("ConvNet2", m::parse_shape(input.toStdString()), 10);
        const m::ModelSummary summary = m::summarize(spec);
        ModelGraph g;
        g.setSummary(summary);
        QVERIFY2(g.problem().isEmpty(), qPrintable(g.problem()));

        QCOMPARE(graphShapes(g), expected);
        QCOMPARE(coreShapes(spec), expected);

        const auto& boxes = g.boxes();
        QCOMPARE(boxes.front().kind, Kind::Input);
        QCOMPARE(boxes.front().rows.front().shape, input);
        QCOMPARE(boxes.back().kind, Kind::Output);
        QCOMPARE(boxes.back().rows.front().shape, QStringLiteral("10")); // the logits of one sample
        QCOMPARE(boxes.back().rows.front().shape,
                 QString::fromStdString(m::shape_string(m::infer_output_shape(spec))));

        // One box per unit, in order, with the unit's parameters; each row has its layer's.
        QCOMPARE(boxes.size(), summary.units.size() + 2);
        for (std::size_t u = 0; u < summary.units.size(); ++u) {
            const auto& b = boxes[u + 1];
            QCOMPARE(b.unit, int(u));
            QCOMPARE(b.parameters, summary.units[u].parameters);
            std::int64_t sum = 0;
            for (std::size_t l = 0; l < b.rows.size(); ++l) {
                QCOMPARE(b.rows[l].layer, QString::fromStdString(summary.units[u].layers[l]));
                sum += b.rows[l].parameters;
            }
            QCOMPARE(sum, b.parameters);
        }
        QCOMPARE(boxes[1].title, QStringLiteral("block 0"));
        QCOMPARE(boxes[1].rows[0].label, input.startsWith(QLatin1Char('1')) ? QStringLiteral("Conv2d 1→32 3×3")
                                                                           : QStringLiteral("Conv2d 3→32 3×3"));
        QCOMPARE(boxes[1].rows[0].parameters, input.startsWith(QLatin1Char('1')) ? 320 : 896);
    }

    void original_and_added_blocks_after_deepening()
    {
        m::ModelSpec spec = m::load_model("ConvNet2", {3, 32, 32}, 10);
        const m::ModelSummary before = m::summarize(spec);
        m::deepen_spec(spec, 0);
        m::deepen_spec(spec, 2);
        const m::ModelSummary after = m::summarize(spec);
        ModelGraph g;
        g.setSummary(after);
        // block 0, its identity block, pool, block 1, pool, flatten, block 2, its identity block.
        QCOMPARE(kinds(g), (QList<Kind>{Kind::Input, Kind::Original, Kind::Added, Kind::Layer, Kind::Original,
                                        Kind::Layer, Kind::Layer, Kind::Original, Kind::Added, Kind::Output}));
        QCOMPARE(g.boxes()[2].title, QStringLiteral("added block (Deepen 0)"));
        QCOMPARE(g.boxes()[8].title, QStringLiteral("added block (Deepen 2)"));
        // An identity block keeps the shape of the block it deepens.
        QCOMPARE(g.boxes()[2].rows.back().shape, g.boxes()[1].rows.back().shape);
        QCOMPARE(graphShapes(g), coreShapes(spec));
        QCOMPARE(g.boxes().back().rows.front().shape, QStringLiteral("10"));
        QVERIFY(newUnits(g).empty());
        QVERIFY(g.newLegend().isEmpty());

        // Against the model before: exactly the two added blocks are new.
        g.setSummary(after, before, QStringLiteral("step 0"));
        QCOMPARE(newUnits(g), (std::vector<int>{1, 7}));
        QCOMPARE(g.newLegend(), QStringLiteral("new since step 0"));
    }

    void inspector_marks_what_is_new_since_the_compared_step()
    {
        const auto [initial, events] = makeDeepenedRun();
        ArchitectureInspector w;
        w.setSteps(initial, events);
        ModelGraph* g = w.graph();
        QVERIFY(g);
        QCOMPARE(w.findChild<QSlider*>(QStringLiteral("stepSlider"))->value(), 3);
        // Step 3 against step 0 (the comparison setSteps chooses): both added blocks are new.
        QCOMPARE(w.graphReference(), 0);
        QCOMPARE(g->summary()->units.size(), events.back().after.units.size());
        QCOMPARE(newUnits(*g), (std::vector<int>{1, 7}));
        QCOMPARE(g->newLegend(), QStringLiteral("new since step 0"));

        // Compared from step 1: only the block Deepen(2) added.
        w.setDiffSteps(1, 3);
        QCOMPARE(w.graphReference(), 1);
        QCOMPARE(newUnits(*g), (std::vector<int>{7}));

        // Step 1 shown, compared with later steps only: what step 1 added, against step 0.
        w.setCurrentStep(1);
        QCOMPARE(w.graphReference(), 0);
        QCOMPARE(newUnits(*g), (std::vector<int>{1}));
        QCOMPARE(kinds(*g).count(Kind::Added), 1);

        // Step 0 has nothing to compare with.
        w.setCurrentStep(0);
        w.setDiffSteps(0, 3);
        QCOMPARE(w.graphReference(), -1);
        QVERIFY(newUnits(*g).empty());
        QCOMPARE(kinds(*g).count(Kind::Added), 0);

        w.clear();
        QVERIFY(!g->summary());
        QVERIFY(g->boxes().empty());
    }

    void tooltips_hold_the_full_layer_string()
    {
        const m::ModelSpec spec = m::load_model("ConvNet2", {1, 28, 28}, 10);
        ModelGraph g;
        g.setSummary(m::summarize(spec));
        g.resize(g.sizeHint() + QSize(100, 0)); // centred in a wider widget
        g.show();
        QVERIFY(QTest::qWaitForWindowExposed(&g));
        const QPointF origin((g.width() - g.graphSize().width()) / 2.0, 0);
        int rows = 0;
        for (const auto& b : g.boxes()) {
            if (b.kind == Kind::Input || b.kind == Kind::Output)
                continue;
            for (const auto& r : b.rows) {
                const QPoint at = (r.rect.center() + origin).toPoint();
                const QString tip = g.toolTipAt(at);
                QCOMPARE(tip.section(QLatin1Char('\n'), 0, 0), r.layer);
                QVERIFY2(tip.contains(QStringLiteral("output ") + r.shape), qPrintable(tip));
                ++rows;
            }
        }
        QCOMPARE(rows, 11);
        // A box's title shows all its layers.
        const auto& block0 = g.boxes()[1];
        const QString titleTip = g.toolTipAt((QPointF(block0.rect.center().x(), block0.rect.top() + 3) + origin).toPoint());
        QVERIFY2(titleTip.startsWith(QStringLiteral("block 0\nConv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))\n")),
                 qPrintable(titleTip));
        QVERIFY(g.toolTipAt(QPoint(1, 1)).isEmpty());

        // Through Qt's own tooltip event, as a hovering mouse sends it.
        const auto& conv = g.boxes()[1].rows[0];
        const QPoint at = (conv.rect.center() + origin).toPoint();
        QHelpEvent help(QEvent::ToolTip, at, g.mapToGlobal(at));
        QCoreApplication::sendEvent(&g, &help);
        QTRY_COMPARE(QToolTip::text().section(QLatin1Char('\n'), 0, 0),
                     QStringLiteral("Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))"));
    }

    void exports_png_svg_and_pdf()
    {
        QTemporaryDir tmp;
        m::ModelSpec spec = m::load_model("ConvNet2", {3, 32, 32}, 10);
        const m::ModelSummary before = m::summarize(spec);
        m::deepen_spec(spec, 0);
        ModelGraph g;
        g.setSummary(m::summarize(spec), before, QStringLiteral("step 0"));
        const rlda::widgets::ExportSettings settings{QSize(600, 900), 144};

        const QString png = tmp.filePath(QStringLiteral("graph.png"));
        QVERIFY2(g.exportTo(png, settings).isEmpty(), qPrintable(g.exportTo(png, settings)));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(600, 900)); // the pixels asked for; 144 DPI draws 1.5 times larger
        // Drawn on: the added block's green appears somewhere in the picture.
        bool green = false;
        for (int y = 0; y < image.height() && !green; y += 2)
            for (int x = 0; x < image.width() && !green; x += 2)
                green = image.pixelColor(x, y) == ModelGraph::addedColor();
        QVERIFY(green);

        const QString svg = tmp.filePath(QStringLiteral("graph.svg"));
        QVERIFY(g.exportTo(svg, settings).isEmpty());
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.contains("Conv2d 3→32 3×3"));
        QVERIFY(svgText.contains("32x30x30"));

        const QString pdf = tmp.filePath(QStringLiteral("graph.pdf"));
        QVERIFY(g.exportTo(pdf, settings).isEmpty());
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        const QByteArray pdfBytes = pdfFile.readAll();
        QVERIFY(pdfBytes.startsWith("%PDF-"));
        QVERIFY(pdfBytes.trimmed().endsWith("%%EOF"));
        // One page of the size asked, in points.
        const auto box = pdfBytes.indexOf("/MediaBox");
        QVERIFY(box >= 0);
        QCOMPARE(pdfBytes.mid(box, pdfBytes.indexOf(']', box) + 1 - box), QByteArray("/MediaBox [0 0 600.000000 900.000000]"));

        // The one export path's checks, naming the file.
        const QString bad = tmp.filePath(QStringLiteral("graph.bmp"));
        QVERIFY(g.exportTo(bad, settings).startsWith(bad + QStringLiteral(": unknown export format")));
        QVERIFY(g.exportTo(png, {QSize(8, 8), 96}).contains(QStringLiteral("out of range")));

        // An empty graph exports too, as an empty plot does.
        ModelGraph empty;
        QVERIFY(empty.exportTo(tmp.filePath(QStringLiteral("empty.png")), settings).isEmpty());
    }

    void a_layer_the_graph_cannot_read_is_said()
    {
        m::ModelSummary s = m::summarize(m::load_model("ConvNet2", {3, 32, 32}, 10));
        s.units[0].layers[0] = "Dropout(p=0.5)";
        ModelGraph g;
        g.setSummary(s);
        QVERIFY2(g.problem().contains(QStringLiteral("\"Dropout(p=0.5)\" is not a layer")), qPrintable(g.problem()));
        QVERIFY(g.boxes().back().rows.front().shape.isEmpty());
        QCOMPARE(g.boxes()[1].rows[0].label, QStringLiteral("Dropout"));
        QCOMPARE(g.boxes()[1].rows[0].toolTip, QStringLiteral("Dropout(p=0.5)"));

        // A summary of counts only, as older run folders hold: said, not guessed.
        m::ModelSummary counts;
        counts.parameters = 1300;
        g.setSummary(counts);
        QCOMPARE(g.problem(), QStringLiteral("this summary lists no layers"));
        QCOMPARE(kinds(g), (QList<Kind>{Kind::Input, Kind::Output}));
        QVERIFY(g.boxes().back().rows.front().shape.isEmpty());
    }

    // The Architecture page with the graph beside the table; its export is written to
    // $RLDA_SCREENSHOT_DIR/graph-export.png when set (docs/screenshots).
    void architecture_page_renders()
    {
        const auto [initial, events] = makeDeepenedRun();
        ArchitectureInspector w;
        w.resize(1500, 820);
        w.setSteps(initial, events);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* scroll = w.findChild<QScrollArea*>(QStringLiteral("graphScroll"));
        QVERIFY(scroll);
        QVERIFY(scroll->width() >= 200);
        const QImage shot = w.grab().toImage();
        QCOMPARE(shot.size(), w.size() * w.devicePixelRatio());
        // The page in the window is tests/app/test_models_page's graph-architecture.png; this is
        // File → Export plot on it, as a figure.
        if (const QString dir = rlda::test::screenshotDir(); !dir.isEmpty()) {
            const QString figure = dir + QStringLiteral("/graph-export.png");
            QVERIFY2(w.exportGraph(figure, {w.graph()->graphSize(), 96}).isEmpty(), qPrintable(figure));
        }
    }
};

RLDA_SUITE_MAIN(TestModelGraph)
#include "test_model_graph.moc"
