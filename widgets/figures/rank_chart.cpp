// Rank charts: bars sorted best to worst, the greedy sequence picked out, baselines as lines.
#include "widgets/figures/rank_chart.h"

#include "core/util/statistics.h"

#include "widgets/figures/figure_font.h"
#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rlda::widgets {

namespace {

QCPGraph* horizontalLine(QCPAxisRect* rect, double value, double from, double to, const QPen& pen,
                         const QString& name)
{
    auto* g = new QCPGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    g->setData({from, to}, {value, value}, true);
    g->setPen(pen);
    g->setName(name);
    g->setSelectable(QCP::stNone);
    return g;
}

QString formatAccuracy(double value) { return QString::number(value, 'f', 4); }

// The greedy label: centred over its bar where it fits, otherwise it grows away from the nearer
// edge of the chart, and in a chart too narrow for one line it breaks into two. Decided when
// drawn, because only then are the chart's pixel width (on screen or in an export) known.
class GreedyLabel : public QCPItemText {
public:
    GreedyLabel(QCustomPlot* plot, QString full, QString compact)
        : QCPItemText(plot), full_(std::move(full)), compact_(std::move(compact))
    {
        setText(full_);
    }

protected:
    void draw(QCPPainter* painter) override
    {
        const QRect area = clipRect();
        const double x = position->pixelPosition().x();
        const QFontMetricsF metrics(mainFont());
        Qt::Alignment horizontal = Qt::AlignHCenter;
        for (const QString& candidate : {full_, compact_}) {
            setText(candidate);
            const double w = metrics.boundingRect(QRectF(), Qt::TextDontClip | textAlignment(), candidate).width() +
                             padding().left() + padding().right();
            if (x - w / 2 >= area.left() && x + w / 2 <= area.right()) {
                horizontal = Qt::AlignHCenter;
                break;
            }
            if (x + w <= area.right()) {
                horizontal = Qt::AlignLeft;
                break;
            }
            if (x - w >= area.left()) {
                horizontal = Qt::AlignRight;
                break;
            }
            horizontal = x - area.left() < area.right() - x ? Qt::AlignLeft : Qt::AlignRight;
        }
        setPositionAlignment(Qt::AlignTop | horizontal);
        QCPItemText::draw(painter);
    }

private:
    QString full_, compact_;
};

} // namespace

QString RankedTable::title(bool withAgent) const
{
    QString t = model.isEmpty() ? scenario : scenario.isEmpty() ? model : model + QLatin1Char(' ') + scenario;
    if (withAgent && !agent.isEmpty())
        t += QStringLiteral(" · ") + agent;
    return t;
}

RankedTable makeRankedTable(const QString& model, const QString& scenario, const QString& agent,
                            const core::sim::SimulationTable& table, const core::sim::Evaluation& evaluation)
{
    return {model, scenario, agent, table.rows(), evaluation, table.no_adaptation_sequence()};
}

std::vector<int> rankOrder(const std::vector<core::sim::TableRow>& rows, const std::vector<int>& first)
{
    std::vector<int> order(rows.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (rows[a].accuracy != rows[b].accuracy)
            return rows[a].accuracy > rows[b].accuracy;
        return !first.empty() && rows[a].actions == first && rows[b].actions != first;
    });
    return order;
}

QString greedyLabel(const core::sim::Evaluation& e)
{
    QString label = QStringLiteral("greedy %1 — rank %2/%3")
                        .arg(QString::fromStdString(core::sim::sequence_string(e.greedy)))
                        .arg(e.rank)
                        .arg(e.sequences);
    if (e.reliability.known())
        label += QStringLiteral(" (95 %: %1–%2)").arg(e.greedy_spread.low).arg(e.greedy_spread.high);
    return label;
}

double seedSpread(const core::sim::TableRow& row)
{
    return row.replicates.size() < 2 ? 0.0 : std::sqrt(core::variance_of(row.replicates, 1));
}

double seedSpread(const RankedTable& table, const std::vector<int>& sequence)
{
    for (const auto& row : table.rows)
        if (row.actions == sequence)
            return seedSpread(row);
    return 0.0;
}

namespace palette {
QColor sequences() { return QColor(150, 170, 195); }
QColor greedy() { return QColor(220, 80, 30); }
QColor optimal() { return QColor(30, 140, 60); }
QColor noAdaptation() { return QColor(40, 40, 40); }
QColor randomMean() { return QColor(130, 60, 170); }
QColor run(int index)
{
    // Colour-blind-safe (Okabe-Ito), then repeated darker.
    static const QColor colors[] = {QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115),
                                    QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233),
                                    QColor(120, 120, 120), QColor(0, 0, 0)};
    constexpr int n = static_cast<int>(std::size(colors));
    const QColor c = colors[std::abs(index) % n];
    return index >= n ? c.darker(140) : c;
}
} // namespace palette

void resetPlot(QCustomPlot& plot)
{
    plot.clearPlottables();
    plot.clearItems();
    plot.plotLayout()->clear();
    for (auto* group : plot.findChildren<QCPMarginGroup*>(QString(), Qt::FindDirectChildrenOnly))
        delete group;
    plot.setAutoAddPlottableToLegend(false);
}

void addPlotTitle(QCustomPlot& plot, const QString& title, const QString& subtitle)
{
    // Title rows take their text's height; a tiny stretch factor leaves the rest to the charts.
    auto* layout = plot.plotLayout();
    int row = 0;
    if (!title.isEmpty()) {
        layout->insertRow(row);
        layout->addElement(row, 0, new QCPTextElement(&plot, title, figureFont(plot, 13, true)));
        layout->setRowStretchFactor(row++, 0.001);
    }
    if (!subtitle.isEmpty()) {
        layout->insertRow(row);
        auto* s = new QCPTextElement(&plot, subtitle, figureFont(plot, 9.5));
        s->setTextColor(QColor(70, 70, 70));
        layout->addElement(row, 0, s);
        layout->setRowStretchFactor(row, 0.001);
    }
}

QCPLegend* addLegendRow(QCustomPlot& plot, int columns)
{
    // The legend sits centred between two empty cells, at its own size, below everything else.
    auto* layout = plot.plotLayout();
    const int row = layout->rowCount();
    auto* holder = new QCPLayoutGrid;
    layout->addElement(row, 0, holder);
    layout->setRowStretchFactor(row, 0.001);
    auto* legend = new QCPLegend;
    holder->addElement(0, 0, new QCPLayoutElement(&plot));
    holder->addElement(0, 1, legend);
    holder->addElement(0, 2, new QCPLayoutElement(&plot));
    holder->setColumnStretchFactors({1.0, 0.001, 1.0});
    legend->setLayer(QStringLiteral("legend"));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(std::max(1, columns));
    legend->setFont(figureFont(plot, 9.5));
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setColumnSpacing(18);
    return legend;
}

void setAccuracyAxis(QCPAxis* axis, double lo, double hi)
{
    axis->setRange(lo, hi);
    const double span = hi - lo;
    double step = 0.5;
    for (double candidate : {0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5})
        if (span / candidate <= 7) {
            step = candidate;
            break;
        }
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(step);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("f"));
    axis->setNumberPrecision(step < 0.01 ? 3 : step < 0.1 ? 2 : 1);
}

RankChartParts drawRankChart(QCustomPlot& plot, QCPAxisRect* rect, const RankedTable& table,
                             const RankChartOptions& options)
{
    RankChartParts parts;
    parts.rect = rect;
    const auto& e = table.evaluation;
    auto* x = rect->axis(QCPAxis::atBottom);
    auto* y = rect->axis(QCPAxis::atLeft);
    const double s = options.fontScale;

    const std::vector<int> order = rankOrder(table.rows, e.greedy);
    const int n = static_cast<int>(order.size());
    QVector<double> keys, values, spreads;
    int greedyPosition = 0; // 1-based; 0 = not in the table
    double greedyAccuracy = 0.0, greedySpread = 0.0;
    double lo = 1.0, hi = 0.0;
    for (int i = 0; i < n; ++i) {
        const auto& row = table.rows[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
        lo = std::min(lo, row.accuracy);
        hi = std::max(hi, row.accuracy);
        if (greedyPosition == 0 && !e.greedy.empty() && row.actions == e.greedy) {
            greedyPosition = i + 1;
            greedyAccuracy = row.accuracy;
            greedySpread = seedSpread(row);
            continue;
        }
        keys << i + 1;
        values << row.accuracy;
        spreads << seedSpread(row);
    }
    for (double v : {e.optimal, e.no_adaptation, e.random_mean})
        if (v > 0) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (lo > hi) {
        lo = 0.0;
        hi = 1.0;
    }
    const double span = std::max(hi - lo, 0.02);

    parts.sequences = new QCPBars(x, y);
    parts.sequences->setName(QStringLiteral("sequences"));
    parts.sequences->setWidth(0.8);
    parts.sequences->setPen(Qt::NoPen);
    parts.sequences->setBrush(palette::sequences());
    parts.sequences->setData(keys, values, true);

    if (greedyPosition > 0) {
        parts.greedy = new QCPBars(x, y);
        parts.greedy->setName(QStringLiteral("greedy sequence"));
        parts.greedy->setWidth(0.9);
        parts.greedy->setPen(QPen(palette::greedy().darker(130), 1));
        parts.greedy->setBrush(palette::greedy());
        parts.greedy->setData({double(greedyPosition)}, {greedyAccuracy}, true);
    }
    // A replicated table: each bar's mean ± the spread of its seeds.
    const bool replicated = !table.rows.empty() && table.rows.front().replicates.size() >= 2;
    if (replicated) {
        const auto bars = [&](QCPBars* on, const QVector<double>& spread, const QString& name) {
            auto* e = new QCPErrorBars(x, y);
            e->setName(name);
            e->setDataPlottable(on);
            e->setData(spread);
            e->setPen(QPen(QColor(60, 60, 60, 170)));
            e->setWhiskerWidth(2.0);
            return e;
        };
        parts.sequencesSpread = bars(parts.sequences, spreads, QStringLiteral("± sd over the seeds"));
        if (parts.greedy)
            parts.greedySpread = bars(parts.greedy, {greedySpread}, QStringLiteral("± sd over the seeds (greedy)"));
    }

    const double from = 0.5, to = std::max(n, 1) + 0.5;
    parts.optimal = horizontalLine(rect, e.optimal, from, to, QPen(palette::optimal(), 2, Qt::DashLine),
                                   QStringLiteral("optimal"));
    parts.noAdaptation = horizontalLine(rect, e.no_adaptation, from, to,
                                        QPen(palette::noAdaptation(), 2, Qt::DashDotLine),
                                        QStringLiteral("no adaptation"));
    parts.randomMean = horizontalLine(rect, e.random_mean, from, to, QPen(palette::randomMean(), 2, Qt::DotLine),
                                      QStringLiteral("random mean (10 sequences)"));

    // Room above the best bar for the greedy label, so that it never covers a bar or a line.
    const double top = hi + 0.32 * span;
    setAccuracyAxis(y, std::max(0.0, lo - 0.08 * span), top);
    x->setRange(from, to);

    // The label hangs from the top of the chart, in the free band above the bars, with an arrow
    // down to the greedy bar; a light background keeps it readable where a baseline passes behind.
    const double labelKey = greedyPosition > 0 ? greedyPosition : (n + 1) / 2.0;
    const QString greedy = QString::fromStdString(core::sim::sequence_string(e.greedy));
    auto* label = greedyPosition > 0
                      ? new GreedyLabel(&plot, greedyLabel(e),
                                        QStringLiteral("greedy %1\nrank %2/%3").arg(greedy).arg(e.rank).arg(e.sequences))
                      : new GreedyLabel(&plot, QStringLiteral("greedy %1 — not in the table").arg(greedy),
                                        QStringLiteral("greedy %1\nnot in the table").arg(greedy));
    parts.greedyText = label;
    label->setClipAxisRect(rect);
    label->position->setAxes(x, y);
    label->position->setAxisRect(rect);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(labelKey, 0.02);
    label->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
    label->setFont(figureFont(plot, 9.5 * s, true));
    label->setColor(palette::greedy().darker(130));
    label->setBrush(QColor(255, 255, 255, 220));
    label->setPadding(QMargins(3, 1, 3, 1));
    if (greedyPosition > 0) {
        auto* arrow = new QCPItemLine(&plot);
        arrow->setClipAxisRect(rect);
        // Straight down from the label's lower edge to the bar: x in plot coordinates, y tied to
        // the label, which may slide sideways or break into two lines when drawn.
        arrow->start->setAxes(x, y);
        arrow->start->setAxisRect(rect);
        arrow->start->setTypeX(QCPItemPosition::ptPlotCoords);
        arrow->start->setTypeY(QCPItemPosition::ptAbsolute);
        arrow->start->setParentAnchorY(label->bottom);
        arrow->start->setCoords(greedyPosition, 0);
        arrow->end->setAxes(x, y);
        arrow->end->setAxisRect(rect);
        arrow->end->setCoords(greedyPosition, greedyAccuracy + 0.01 * span);
        arrow->setHead(QCPLineEnding::esSpikeArrow);
        arrow->setPen(QPen(palette::greedy().darker(120), 1.5));
    }

    const QFont tickFont = figureFont(plot, 9 * s);
    const QFont labelFont = figureFont(plot, 10 * s);
    x->setTickLabelFont(tickFont);
    y->setTickLabelFont(tickFont);
    x->setLabelFont(labelFont);
    y->setLabelFont(labelFont);
    x->setLabel(options.xAxisTitle ? QStringLiteral("sequences, best to worst") : QString());
    y->setLabel(options.yAxisTitle ? options.yTitle : QString());
    // Positions 1 (the best) and every step-th one, so that the best bar is labelled too.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int step = n > 32 ? 8 : n > 16 ? 4 : n > 8 ? 2 : 1;
    ticker->addTick(1, QStringLiteral("1"));
    for (int k = step; k <= n; k += step)
        if (k > 1)
            ticker->addTick(k, QString::number(k));
    x->setTicker(ticker);
    x->setSubTicks(false);
    x->grid()->setVisible(false);

    if (options.title) {
        // A title over each chart inside the layout cell: an axis-rect-relative text keeps it tied
        // to its chart when the grid resizes.
        auto* title = new QCPItemText(&plot);
        title->setClipToAxisRect(false);
        title->position->setType(QCPItemPosition::ptAxisRectRatio);
        title->position->setAxisRect(rect);
        title->position->setCoords(0.5, 0.0);
        title->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        title->setText(table.title(options.withAgent));
        title->setFont(figureFont(plot, 10.5 * s, true));
        title->setPadding(QMargins(0, 0, 0, 3));
        // The rect's top margin must hold it.
        QMargins m = rect->minimumMargins();
        m.setTop(std::max(m.top(), static_cast<int>(24 * s)));
        rect->setMinimumMargins(m);
    }
    return parts;
}

RankChartParts drawRankChart(QCustomPlot& plot, const RankedTable& table, const RankChartOptions& options)
{
    resetPlot(plot);
    auto* rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    RankChartOptions o = options;
    o.title = false; // the plot's own title row says it
    RankChartParts parts = drawRankChart(plot, rect, table, o);
    if (options.title)
        addPlotTitle(plot, QStringLiteral("Rank of the greedy sequence: ") + table.title(options.withAgent));
    const auto& e = table.evaluation;
    parts.optimal->setName(QStringLiteral("optimal %1 (%2)")
                               .arg(formatAccuracy(e.optimal),
                                    QString::fromStdString(core::sim::sequence_string(e.optimal_sequence))));
    parts.noAdaptation->setName(QStringLiteral("no adaptation %1").arg(formatAccuracy(e.no_adaptation)));
    parts.randomMean->setName(QStringLiteral("random mean (10 sequences) %1").arg(formatAccuracy(e.random_mean)));
    if (parts.greedy)
        parts.greedy->setName(QStringLiteral("greedy %1 (%2)")
                                  .arg(QString::fromStdString(core::sim::sequence_string(e.greedy)),
                                       formatAccuracy(e.accuracy)));
    parts.legend = addLegendRow(plot, 5);
    for (QCPAbstractPlottable* p : std::initializer_list<QCPAbstractPlottable*>{
             parts.sequences, parts.greedy, parts.optimal, parts.noAdaptation, parts.randomMean})
        if (p)
            p->addToLegend(parts.legend);
    return parts;
}

std::vector<RankChartParts> drawRankGrid(QCustomPlot& plot, const std::vector<RankedTable>& tables,
                                         const QString& title, int columns, int legendColumns)
{
    resetPlot(plot);
    std::vector<RankChartParts> all;
    const int count = static_cast<int>(tables.size());
    if (count == 0) {
        addPlotTitle(plot, title, QStringLiteral("no evaluated tables"));
        return all;
    }
    if (columns <= 0)
        columns = count <= 3 ? count : count == 4 ? 2 : count <= 6 ? 3 : static_cast<int>(std::ceil(std::sqrt(count)));
    const int rows = (count + columns - 1) / columns;
    // Agents are named per chart only when they differ.
    bool oneAgent = true;
    for (const auto& t : tables)
        oneAgent = oneAgent && t.agent == tables.front().agent;

    auto* grid = new QCPLayoutGrid;
    plot.plotLayout()->addElement(0, 0, grid);
    grid->setColumnSpacing(8);
    grid->setRowSpacing(4);
    auto* margins = new QCPMarginGroup(&plot);
    const double scale = rows * columns > 4 ? 0.9 : 1.0;
    for (int i = 0; i < count; ++i) {
        const int r = i / columns, c = i % columns;
        auto* rect = new QCPAxisRect(&plot);
        grid->addElement(r, c, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight | QCP::msTop | QCP::msBottom, margins);
        RankChartOptions o;
        o.fontScale = scale;
        o.withAgent = !oneAgent;
        // Axis titles once per row and column; the last row may be short, so a chart also gets
        // the x title when nothing sits below it.
        o.xAxisTitle = i + columns >= count;
        o.yAxisTitle = c == 0;
        if (rows > 1)
            o.yTitle = QStringLiteral("accuracy");
        all.push_back(drawRankChart(plot, rect, tables[static_cast<std::size_t>(i)], o));
    }
    // An incomplete last row keeps its cells the width of the others.
    for (int c = count % columns == 0 ? columns : count % columns; c < columns && rows > 1; ++c)
        grid->addElement(rows - 1, c, new QCPLayoutElement(&plot));

    // Two short lines rather than one long one: a title element is at least as wide as its text.
    QString subtitle;
    if (oneAgent && !tables.front().agent.isEmpty())
        subtitle = QStringLiteral("policy: ") + tables.front().agent + QLatin1Char('\n');
    subtitle += QStringLiteral("bars: every action sequence's final accuracy, best to worst; highlighted: "
                               "the policy's greedy sequence");
    addPlotTitle(plot, title, subtitle);

    auto* legend = addLegendRow(plot, legendColumns);
    const RankChartParts* withGreedy = &all.front();
    for (const auto& p : all)
        if (p.greedy) {
            withGreedy = &p;
            break;
        }
    for (QCPAbstractPlottable* p : std::initializer_list<QCPAbstractPlottable*>{
             withGreedy->sequences, withGreedy->greedy, withGreedy->optimal, withGreedy->noAdaptation,
             withGreedy->randomMean})
        if (p)
            p->addToLegend(legend);
    for (auto& p : all)
        p.legend = legend;
    return all;
}

} // namespace rlda::widgets
