// The paper's figures 7-12: learning curves, rank grids per model, accuracy bars, and their files.
#include "widgets/figures/paper_figures.h"

#include "core/io/run_reader.h"
#include "core/util/statistics.h"

#include "widgets/figures/figure_font.h"
#include "widgets/figures/transfer_chart.h"
#include "widgets/qcp.h"

#include <QDir>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlda::widgets {

namespace {

// The rank over a greedy bar, standing on its whisker; where the chart has no room above it (a
// rank-1 bar is the tallest, its whisker higher still), it hangs from the chart's top edge over
// the bar instead of being cut off. Decided when drawn, at the size drawn (screen or export), and
// left so, so that its anchors say where it was drawn.
class RankLabel : public QCPItemText {
public:
    using QCPItemText::QCPItemText;
    // Where it stands: the bar's key and the top of its whisker, in plot coordinates.
    void setFoot(QPointF foot)
    {
        foot_ = foot;
        position->setCoords(foot);
    }

protected:
    void draw(QCPPainter* painter) override
    {
        position->setCoords(foot_);
        setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        setBrush(Qt::NoBrush);
        const QFontMetricsF metrics(mainFont());
        const double height =
            metrics.boundingRect(QRectF(), static_cast<int>(Qt::TextDontClip | textAlignment()), text())
                .height() +
            padding().top() + padding().bottom();
        if (position->pixelPosition().y() - height < clipRect().top()) {
            position->setPixelPosition(QPointF(position->pixelPosition().x(), clipRect().top() + 1.0));
            setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
            setBrush(QColor(255, 255, 255, 220)); // readable over the bar
        }
        QCPItemText::draw(painter);
    }

private:
    QPointF foot_;
};

QVector<double> toQVector(const std::vector<double>& v) { return {v.begin(), v.end()}; }

void styleAxes(QCustomPlot& plot, QCPAxisRect* rect, const QString& xTitle, const QString& yTitle)
{
    for (auto* axis : {rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft)}) {
        axis->setTickLabelFont(figureFont(plot, 9.5));
        axis->setLabelFont(figureFont(plot, 10.5));
    }
    rect->axis(QCPAxis::atBottom)->setLabel(xTitle);
    rect->axis(QCPAxis::atLeft)->setLabel(yTitle);
}

QCPAxisRect* addRect(QCustomPlot& plot, int row)
{
    auto* rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(row, 0, rect);
    return rect;
}

// A value range that shows the bulk of the raw values and all of the means: a few huge objective
// spikes (a rare action with a tiny probability) would otherwise flatten everything else.
QCPRange robustRange(const std::vector<double>& raw, const std::vector<double>& means)
{
    double lo = raw.empty() ? std::numeric_limits<double>::infinity() : core::quantile(raw, 0.01);
    double hi = raw.empty() ? -std::numeric_limits<double>::infinity() : core::quantile(raw, 0.99);
    for (double m : means) {
        lo = std::min(lo, m);
        hi = std::max(hi, m);
    }
    if (lo > hi)
        return {0.0, 1.0};
    const double span = hi - lo > 1e-12 ? hi - lo : std::max(std::abs(hi), 1.0);
    return {lo - 0.05 * span, hi + 0.08 * span};
}

const std::vector<double>& metricValues(const LearningCurve& c, CurveMetric metric)
{
    return metric == CurveMetric::Objective ? c.objective : c.accuracy;
}

QString metricAxisTitle(CurveMetric metric)
{
    return metric == CurveMetric::Objective ? QStringLiteral("objective (mean of −log p(action) · reward)")
                                            : QStringLiteral("final test accuracy of the sampled sequence");
}

void addStageLines(QCustomPlot& plot, QCPAxisRect* rect, const LearningCurve& curve, const QColor& color)
{
    for (double episode : stageStarts(curve)) {
        auto* line = new QCPItemStraightLine(&plot);
        line->setClipAxisRect(rect);
        for (auto* p : {line->point1, line->point2}) {
            p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            p->setAxisRect(rect);
        }
        line->point1->setCoords(episode, 0);
        line->point2->setCoords(episode, 1);
        line->setPen(QPen(color, 1.2, Qt::DotLine));
    }
}

QString fileSafe(const QString& text)
{
    QString s = text;
    s.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    return s.isEmpty() ? QStringLiteral("tables") : s;
}

// Models in the order their first table appears.
QStringList modelsOf(const std::vector<RankedTable>& tables)
{
    QStringList models;
    for (const auto& t : tables)
        if (!models.contains(t.model))
            models << t.model;
    return models;
}

std::vector<RankedTable> tablesOf(const std::vector<RankedTable>& tables, const QString& model)
{
    std::vector<RankedTable> out;
    for (const auto& t : tables)
        if (t.model == model)
            out.push_back(t);
    return out;
}

} // namespace

std::optional<LearningCurve> loadLearningCurve(const QString& dir, QString* error)
{
    // The run reader already knows episodes.csv, and skips a row a killed run cut short.
    std::optional<core::io::RunData> run;
    try {
        run = core::io::read_run(dir.toStdString());
    } catch (const std::exception&) {
        // Not a run folder: said below, the way a user can act on it.
    }
    if (!run || run->episodes.empty()) {
        if (error)
            *error = QStringLiteral("%1: not a learning run (no episodes in metrics/episodes.csv)").arg(dir);
        return std::nullopt;
    }
    LearningCurve curve;
    curve.name = QDir(QDir::cleanPath(QFileInfo(dir).absoluteFilePath())).dirName();
    for (const auto& e : run->episodes) {
        curve.episode.push_back(static_cast<double>(e.episode));
        curve.objective.push_back(e.objective);
        curve.accuracy.push_back(e.accuracy);
        curve.temperature.push_back(e.temperature);
    }
    return curve;
}

std::vector<double> stageStarts(const LearningCurve& curve)
{
    std::vector<double> starts;
    for (std::size_t i = 1; i < curve.temperature.size() && i < curve.episode.size(); ++i)
        if (curve.temperature[i] > curve.temperature[i - 1] * (1 + 1e-9))
            starts.push_back(curve.episode[i]);
    return starts;
}

void drawLearningCurves(QCustomPlot& plot, const std::vector<LearningCurve>& curves, CurveMetric metric,
                        int window, const QString& title)
{
    resetPlot(plot);
    auto* rect = addRect(plot, 0);
    auto* x = rect->axis(QCPAxis::atBottom);
    auto* y = rect->axis(QCPAxis::atLeft);
    styleAxes(plot, rect, QStringLiteral("episode"), metricAxisTitle(metric));
    // Per-episode values of many runs would hide each other: only a few runs show them.
    const bool raw = curves.size() <= 3;
    addPlotTitle(plot, title,
                 curves.empty() ? QStringLiteral("no learning runs given")
                 : raw ? QStringLiteral("bold: rolling mean of %1 episodes · faint: every episode").arg(window)
                       : QStringLiteral("rolling mean of %1 episodes").arg(window));
    auto* legend = addLegendRow(plot, raw ? 2 : 4);

    std::vector<double> allRaw, allMeans;
    double first = 0, last = 1;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const auto& c = curves[i];
        const auto& values = metricValues(c, metric);
        const auto means = rollingMeans(values, window);
        const QColor color = palette::run(static_cast<int>(i));
        if (raw) {
            auto* g = new QCPGraph(x, y);
            QColor faint = color;
            faint.setAlpha(60);
            g->setPen(QPen(faint, 1));
            g->setData(toQVector(c.episode), toQVector(values), true);
            g->setName(c.name + QStringLiteral(", every episode"));
            g->addToLegend(legend);
        }
        auto* m = new QCPGraph(x, y);
        m->setPen(QPen(color, 2.5));
        m->setData(toQVector(c.episode), toQVector(means), true);
        m->setName(c.name + QStringLiteral(", rolling mean of %1").arg(window));
        m->addToLegend(legend);
        addStageLines(plot, rect, c, color);
        allRaw.insert(allRaw.end(), values.begin(), values.end());
        allMeans.insert(allMeans.end(), means.begin(), means.end());
        if (!c.episode.empty()) {
            first = i == 0 ? c.episode.front() : std::min(first, c.episode.front());
            last = i == 0 ? c.episode.back() : std::max(last, c.episode.back());
        }
    }
    x->setRange(first, std::max(last, first + 1));
    y->setRange(raw ? robustRange(allRaw, allMeans) : robustRange({}, allMeans));
    plot.replot();
}

void drawRunComparison(QCustomPlot& plot, const std::vector<LearningCurve>& curves, int window, const QString& title)
{
    resetPlot(plot);
    auto* top = addRect(plot, 0);
    auto* bottom = addRect(plot, 1);
    auto* margins = new QCPMarginGroup(&plot);
    top->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    bottom->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    styleAxes(plot, top, QString(), QStringLiteral("objective"));
    styleAxes(plot, bottom, QStringLiteral("episode"), QStringLiteral("final test accuracy"));
    bool anyStage = false;
    for (const auto& c : curves)
        anyStage = anyStage || !stageStarts(c).empty();
    addPlotTitle(plot, title,
                 curves.empty() ? QStringLiteral("no learning runs given")
                                : QStringLiteral("rolling mean of %1 episodes per run%2")
                                      .arg(window)
                                      .arg(anyStage ? QStringLiteral(" · dotted: a stage raised the temperature")
                                                    : QString()));
    auto* legend = addLegendRow(plot, std::min<int>(4, std::max<int>(1, static_cast<int>(curves.size()))));

    std::vector<double> objectives, accuracies;
    double first = 0, last = 1;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const auto& c = curves[i];
        const QColor color = palette::run(static_cast<int>(i));
        const auto o = rollingMeans(c.objective, window);
        const auto a = rollingMeans(c.accuracy, window);
        auto* go = new QCPGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
        go->setPen(QPen(color, 2));
        go->setData(toQVector(c.episode), toQVector(o), true);
        go->setName(c.name);
        go->addToLegend(legend);
        auto* ga = new QCPGraph(bottom->axis(QCPAxis::atBottom), bottom->axis(QCPAxis::atLeft));
        ga->setPen(QPen(color, 2));
        ga->setData(toQVector(c.episode), toQVector(a), true);
        addStageLines(plot, top, c, color);
        addStageLines(plot, bottom, c, color);
        objectives.insert(objectives.end(), o.begin(), o.end());
        accuracies.insert(accuracies.end(), a.begin(), a.end());
        if (!c.episode.empty()) {
            first = i == 0 ? c.episode.front() : std::min(first, c.episode.front());
            last = i == 0 ? c.episode.back() : std::max(last, c.episode.back());
        }
    }
    for (auto* rect : {top, bottom})
        rect->axis(QCPAxis::atBottom)->setRange(first, std::max(last, first + 1));
    top->axis(QCPAxis::atLeft)->setRange(robustRange({}, objectives));
    bottom->axis(QCPAxis::atLeft)->setRange(robustRange({}, accuracies));
    bottom->axis(QCPAxis::atLeft)->setNumberFormat(QStringLiteral("f"));
    bottom->axis(QCPAxis::atLeft)->setNumberPrecision(3);
    plot.replot();
}

void drawAccuracyBars(QCustomPlot& plot, const std::vector<RankedTable>& tables, const QString& title)
{
    resetPlot(plot);
    auto* rect = addRect(plot, 0);
    auto* x = rect->axis(QCPAxis::atBottom);
    auto* y = rect->axis(QCPAxis::atLeft);
    styleAxes(plot, rect, QStringLiteral("scenario (when the allocation goes up)"),
              QStringLiteral("final test accuracy"));
    const bool replicated = std::any_of(tables.begin(), tables.end(),
                                        [](const RankedTable& t) { return t.evaluation.reliability.known(); });
    addPlotTitle(plot, title,
                 tables.empty() ? QStringLiteral("no evaluated tables")
                 : replicated   ? QStringLiteral("above the greedy bars: rank (1 = best), its 95 % interval over the seeds · "
                                                 "± sd over the seeds · the axis does not start at 0")
                                : QStringLiteral("numbers above the greedy bars: its rank among all sequences "
                                                 "(1 = best) · the accuracy axis does not start at 0"));
    auto* legend = addLegendRow(plot, 4);

    const QStringList models = modelsOf(tables);
    bool oneAgent = true;
    for (const auto& t : tables)
        oneAgent = oneAgent && t.agent == tables.front().agent;

    struct Series {
        QString name;
        QColor color;
        double (*value)(const core::sim::Evaluation&);
    };
    const Series series[] = {
        {QStringLiteral("greedy sequence of the policy"), palette::greedy(),
         [](const core::sim::Evaluation& e) { return e.accuracy; }},
        {QStringLiteral("optimal"), palette::optimal(), [](const core::sim::Evaluation& e) { return e.optimal; }},
        {QStringLiteral("no adaptation"), palette::noAdaptation().lighter(250),
         [](const core::sim::Evaluation& e) { return e.no_adaptation; }},
        {QStringLiteral("random mean (10 sequences)"), palette::randomMean(),
         [](const core::sim::Evaluation& e) { return e.random_mean; }},
    };
    constexpr int seriesCount = static_cast<int>(std::size(series));
    const double width = 0.8 / seriesCount;
    double lo = 1.0, hi = 0.0;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int s = 0; s < seriesCount; ++s) {
        auto* bars = new QCPBars(x, y);
        bars->setName(series[s].name);
        bars->setWidth(width * 0.92);
        bars->setPen(Qt::NoPen);
        bars->setBrush(series[s].color);
        QVector<double> keys, values;
        for (std::size_t i = 0; i < tables.size(); ++i) {
            const double v = series[s].value(tables[i].evaluation);
            keys << static_cast<double>(i + 1) + (s - (seriesCount - 1) / 2.0) * width;
            values << v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        bars->setData(keys, values, true);
        bars->addToLegend(legend);
        // A replicated table's sequences: ± the spread of their seeds (the random mean has none).
        if (s < 3) {
            QVector<double> spread;
            bool any = false;
            for (const auto& t : tables) {
                const auto& e = t.evaluation;
                const double sd = seedSpread(t, s == 0 ? e.greedy : s == 1 ? e.optimal_sequence : t.noAdaptation);
                spread << sd;
                any = any || sd > 0.0;
            }
            if (any) {
                auto* err = new QCPErrorBars(x, y);
                err->setDataPlottable(bars);
                err->setData(spread);
                err->setPen(QPen(QColor(60, 60, 60, 170)));
                for (qsizetype i = 0; i < spread.size(); ++i) { // the whiskers inside the chart
                    lo = std::min(lo, values[i] - spread[i]);
                    hi = std::max(hi, values[i] + spread[i]);
                }
            }
        }
    }
    // Labels: the scenario, with the model on a second line when several models share the figure.
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const auto& t = tables[i];
        QString label = t.scenario.isEmpty() ? t.model : t.scenario;
        if (models.size() > 1)
            label += QLatin1Char('\n') + t.model;
        if (!oneAgent && !t.agent.isEmpty())
            label += QLatin1Char('\n') + t.agent;
        ticker->addTick(static_cast<double>(i + 1), label);
    }
    x->setTicker(ticker);
    x->setTickLabelFont(figureFont(plot, tables.size() > 8 ? 8.5 : 9.5));
    x->grid()->setVisible(false);
    x->setRange(0.4, static_cast<double>(tables.size()) + 0.6);
    if (lo > hi) {
        lo = 0.0;
        hi = 1.0;
    }
    const double span = std::max(hi - lo, 0.02);
    setAccuracyAxis(y, std::max(0.0, lo - 0.25 * span), hi + 0.22 * span);

    // The rank over each greedy bar: "rank 5" while the bars are wide, the bare number (the
    // subtitle says what it is) once they get narrow.
    const bool narrow = tables.size() > 6;
    const double greedyKeyOffset = -(seriesCount - 1) / 2.0 * width;
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const auto& e = tables[i].evaluation;
        auto* text = new RankLabel(&plot);
        text->setClipAxisRect(rect);
        text->position->setAxes(x, y);
        text->position->setAxisRect(rect);
        // Above the error bar of a replicated table, with the rank's 95 % interval over its seeds.
        text->setFoot(
            {static_cast<double>(i + 1) + greedyKeyOffset, e.accuracy + seedSpread(tables[i], e.greedy)});
        text->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        QString rank = narrow ? QString::number(e.rank) : QStringLiteral("rank %1").arg(e.rank);
        if (e.reliability.known())
            rank += QStringLiteral("\n(%1–%2)").arg(e.greedy_spread.low).arg(e.greedy_spread.high);
        text->setText(rank);
        text->setFont(figureFont(plot, narrow ? 9 : 10, true));
        text->setColor(palette::greedy().darker(130));
        text->setPadding(QMargins(0, 0, 0, 2));
    }
    plot.replot();
}

std::vector<PaperFigure> paperFigures(const FigureInputs& inputs)
{
    std::vector<PaperFigure> figures;
    if (!inputs.curves.empty()) {
        figures.push_back({QStringLiteral("fig07_objective"), 7, QStringLiteral("Learning: the objective per episode")});
        figures.push_back({QStringLiteral("fig08_accuracy"), 8,
                           QStringLiteral("Learning: final accuracy of the sequence sampled in each episode")});
        figures.push_back({QStringLiteral("fig09_runs"), 9, QStringLiteral("Learning runs compared")});
    }
    const QStringList models = modelsOf(inputs.tables);
    for (int i = 0; i < models.size(); ++i) {
        const int number = i == 0 ? 10 : 11;
        figures.push_back({QStringLiteral("fig%1_ranks_%2").arg(number).arg(fileSafe(models[i])), number,
                           QStringLiteral("%1: rank of the greedy sequence per scenario")
                               .arg(models[i].isEmpty() ? QStringLiteral("Tables") : models[i])});
    }
    if (!inputs.tables.empty())
        figures.push_back({QStringLiteral("fig12_accuracy"), 12,
                           QStringLiteral("Final accuracy per scenario: the greedy sequence against the baselines")});
    for (const auto& t : inputs.transfers) {
        const QString model = QString::fromStdString(t.fold.model);
        figures.push_back({QStringLiteral("transfer_%1").arg(fileSafe(model)), 0,
                           QStringLiteral("Transfer to %1, a model the policy never saw").arg(model)});
    }
    if (!inputs.study.empty())
        figures.push_back({QStringLiteral("transfer_study"), 0,
                           QStringLiteral("Transfer to models never seen: %1").arg(inputs.study_labels.join(QStringLiteral(", ")))});
    return figures;
}

bool drawPaperFigure(QCustomPlot& plot, const FigureInputs& inputs, const QString& file)
{
    for (const auto& f : paperFigures(inputs)) {
        if (f.file != file)
            continue;
        const QString title = f.paper > 0 ? QStringLiteral("Figure %1 — %2").arg(f.paper).arg(f.title) : f.title;
        if (f.file == QLatin1String("transfer_study")) {
            drawTransferStudyChart(plot, inputs.study, inputs.study_labels, title);
        } else if (f.paper == 0) {
            for (const auto& t : inputs.transfers)
                if (f.file == QStringLiteral("transfer_%1").arg(fileSafe(QString::fromStdString(t.fold.model))))
                    drawTransferChart(plot, t, title);
        } else if (f.paper == 7)
            drawLearningCurves(plot, inputs.curves, CurveMetric::Objective, inputs.window, title);
        else if (f.paper == 8)
            drawLearningCurves(plot, inputs.curves, CurveMetric::Accuracy, inputs.window, title);
        else if (f.paper == 9)
            drawRunComparison(plot, inputs.curves, inputs.window, title);
        else if (f.paper == 12)
            drawAccuracyBars(plot, inputs.tables, title);
        else {
            const QStringList models = modelsOf(inputs.tables);
            for (const auto& model : models)
                if (f.file.endsWith(QLatin1Char('_') + fileSafe(model))) {
                    drawRankGrid(plot, tablesOf(inputs.tables, model), title);
                    plot.replot();
                    break;
                }
        }
        return true;
    }
    return false;
}

QStringList renderPaperFigures(const FigureInputs& inputs, const QString& outDir, const QStringList& formats,
                               const ExportSettings& settings, QString* error)
{
    QStringList written;
    auto fail = [&](const QString& reason) {
        if (error)
            *error = reason;
        return written;
    };
    if (formats.isEmpty())
        return fail(QStringLiteral("no output format given (use png, pdf or svg)"));
    for (const auto& format : formats)
        if (!exportSuffixes().contains(format.toLower()))
            return fail(QStringLiteral("unknown format '%1' (use png, pdf or svg)").arg(format));
    const auto figures = paperFigures(inputs);
    if (figures.empty())
        return fail(QStringLiteral("nothing to draw: no learning runs and no evaluated tables"));
    if (!QDir().mkpath(outDir))
        return fail(QStringLiteral("%1: cannot create the folder").arg(outDir));

    QCustomPlot plot;
    plot.resize(settings.size);
    const QDir dir(outDir);
    for (const auto& f : figures) {
        drawPaperFigure(plot, inputs, f.file);
        for (const auto& format : formats) {
            const QString path = dir.filePath(f.file + QLatin1Char('.') + format.toLower());
            if (const QString reason = exportPlot(plot, path, settings); !reason.isEmpty())
                return fail(reason);
            written << path;
        }
    }
    if (error)
        error->clear();
    return written;
}

} // namespace rlda::widgets
