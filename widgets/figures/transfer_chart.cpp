// The transfer figure, through QCustomPlot like the paper's figures (rank_chart.h's helpers).
#include "widgets/figures/transfer_chart.h"

#include "core/table/results.h"
#include "widgets/figures/figure_font.h"
#include "widgets/figures/rank_chart.h"
#include "widgets/qcp.h"

#include <algorithm>
#include <filesystem>

namespace rlda::widgets {

QString transferSubtitle(const core::run::TransferSummary& s)
{
    const auto& f = s.fold;
    const QString reached = s.mean ? QStringLiteral("mean rank %1 over %2 seed(s) (worst seed %3)")
                                         .arg(*s.mean, 0, 'f', 1)
                                         .arg(s.seeds.size())
                                         .arg(s.worst_seed_mean.value_or(0.0), 0, 'f', 1)
                                   : QStringLiteral("nothing judged yet");
    QString text = QStringLiteral("held out %1: %2; random %3, no adaptation %4, best fixed (%5) %6")
                       .arg(QString::fromStdString(f.model), reached)
                       .arg(f.random_rank, 0, 'f', 1)
                       .arg(f.no_adaptation_rank, 0, 'f', 1)
                       .arg(QString::fromStdString(core::sim::sequence_string(f.best_fixed)))
                       .arg(f.best_fixed_rank, 0, 'f', 1);
    QStringList spread;
    for (const auto& sp : s.replicates)
        spread << QStringLiteral("%1 %2 \u00b1 %3 (%4 tables)")
                      .arg(QString::fromStdString(sp.scenario))
                      .arg(sp.mean, 0, 'f', 1)
                      .arg(sp.sd, 0, 'f', 1)
                      .arg(sp.tables);
    if (!spread.isEmpty())
        text += QStringLiteral("\nover replicates (tables built at other seeds): ") + spread.join(QStringLiteral(", "));
    return text;
}

namespace {

// A cleared plot laid out for one chart: the title and subtitle, one axis rect with its axes
// labelled, and a legend row of three columns below (two rows: six entries do not fit one beside
// the Transfer tab's table).
struct Frame {
    QCPAxis* x = nullptr;
    QCPAxis* y = nullptr;
    QCPLegend* legend = nullptr;
};

Frame newFrame(QCustomPlot& plot, const QString& title, const QString& subtitle, const QString& xLabel,
               const QString& yLabel)
{
    resetPlot(plot);
    auto* rect = new QCPAxisRect(&plot);
    plot.plotLayout()->addElement(0, 0, rect);
    addPlotTitle(plot, title, subtitle);
    Frame f{rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft), addLegendRow(plot, 3)};
    for (auto* axis : {f.x, f.y}) {
        axis->setTickLabelFont(figureFont(plot, 9.5));
        axis->setLabelFont(figureFont(plot, 10.5));
    }
    f.x->setLabel(xLabel);
    f.y->setLabel(yLabel);
    return f;
}

// A reference drawn as unfilled markers, no line: one point per table or model.
QCPGraph* addMarker(QCPAxis* x, QCPAxis* y, const QString& name, const QColor& color, QCPScatterStyle::ScatterShape shape)
{
    auto* g = new QCPGraph(x, y);
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(shape, QPen(color, 2.0), Qt::NoBrush, 11));
    return g;
}

} // namespace

void drawTransferChart(QCustomPlot& plot, const core::run::TransferSummary& s, const QString& title)
{
    QString subtitle = transferSubtitle(s);
    subtitle.insert(subtitle.contains(QLatin1Char('\n')) ? subtitle.indexOf(QLatin1Char('\n')) : subtitle.size(),
                    QStringLiteral(" · rank 1 = best"));
    const auto [x, y, legend] = newFrame(plot, title, subtitle,
                                         QStringLiteral("table of the held-out model (never seen while learning)"),
                                         QStringLiteral("rank of the greedy sequence"));
    const auto heuristic = core::run::best_heuristic(s);

    auto* mean = new QCPBars(x, y);
    mean->setName(QStringLiteral("mean over the seeds"));
    mean->setWidth(0.55);
    mean->setPen(Qt::NoPen);
    mean->setBrush(palette::greedy().lighter(150));
    auto* seeds = new QCPGraph(x, y);
    seeds->setName(QStringLiteral("one seed"));
    seeds->setLineStyle(QCPGraph::lsNone);
    seeds->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, palette::greedy().darker(130), 6));
    const auto marker = [x = x, y = y](const QString& name, const QColor& color, QCPScatterStyle::ScatterShape shape) {
        return addMarker(x, y, name, color, shape);
    };
    auto* best = marker(QStringLiteral("best fixed sequence (hindsight)"), palette::optimal(), QCPScatterStyle::ssPlus);
    auto* none = marker(QStringLiteral("no adaptation"), palette::noAdaptation(), QCPScatterStyle::ssCross);
    // The growth heuristic of the best mean rank over these tables, on each table.
    QCPGraph* rule = nullptr;
    if (heuristic)
        rule = marker(QStringLiteral("best heuristic (%1, mean %2)")
                          .arg(QString::fromStdString(heuristic->agent))
                          .arg(heuristic->mean_rank, 0, 'f', 1),
                      palette::randomMean().darker(140), QCPScatterStyle::ssDiamond);
    auto* random = new QCPGraph(x, y);
    random->setName(QStringLiteral("random sequence (expected)"));
    random->setPen(QPen(palette::randomMean(), 1.6, Qt::DashLine));

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double top = s.fold.random_rank;
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
        const auto& row = s.rows[i];
        const auto key = static_cast<double>(i + 1);
        if (row.mean)
            mean->addData(key, *row.mean);
        for (const auto& r : row.ranks)
            if (r) {
                seeds->addData(key, *r);
                top = std::max(top, static_cast<double>(*r));
            }
        best->addData(key, row.best_fixed_rank);
        none->addData(key, row.no_adaptation_rank);
        if (rule)
            for (const auto& r : row.references)
                if (r.agent == heuristic->agent) {
                    rule->addData(key, r.rank);
                    top = std::max(top, r.rank);
                }
        top = std::max({top, static_cast<double>(row.best_fixed_rank), static_cast<double>(row.no_adaptation_rank)});
        QString label = row.scenario.empty() ? QString::fromStdString(std::filesystem::path(row.table).stem().string())
                                             : QString::fromStdString(row.scenario);
        const bool replicated = std::any_of(s.replicates.begin(), s.replicates.end(),
                                            [&](const auto& sp) { return sp.scenario == row.scenario; });
        if (replicated)
            label += QStringLiteral("\nseed %1").arg(row.table_seed);
        ticker->addTick(key, label);
    }
    random->addData(0.4, s.fold.random_rank);
    random->addData(static_cast<double>(s.rows.size()) + 0.6, s.fold.random_rank);
    for (auto* p : std::initializer_list<QCPAbstractPlottable*>{mean, seeds, best, none, rule, random})
        if (p)
            p->addToLegend(legend);
    x->setTicker(ticker);
    x->grid()->setVisible(false);
    x->setRange(0.4, static_cast<double>(s.rows.size()) + 0.6);
    y->setRange(0.0, std::max(top, static_cast<double>(s.fold.sequences) / 2.0) * 1.08);
    plot.replot();
}

void drawTransferStudyChart(QCustomPlot& plot, const std::vector<core::run::StudyRow>& rows, const QStringList& labels,
                            const QString& title)
{
    const auto [x, y, legend] =
        newFrame(plot, title,
                 QStringLiteral("each model learned without any of its tables · mean rank over the seeds and its tables "
                                "÷ its sequences · lower is better"),
                 QStringLiteral("held-out model"), QStringLiteral("mean rank ÷ sequences"));

    // The runs' bars side by side left of each model's key, the references in a column right of it.
    auto* group = new QCPBarsGroup(&plot);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    const double width = 0.5 / static_cast<double>(std::max<qsizetype>(1, labels.size()));
    std::vector<QCPBars*> bars;
    for (qsizetype r = 0; r < labels.size(); ++r) {
        auto* b = new QCPBars(x, y);
        b->setName(labels[r]);
        b->setWidth(width);
        b->setPen(Qt::NoPen);
        b->setBrush(palette::run(static_cast<int>(r)));
        b->setBarsGroup(group);
        bars.push_back(b);
    }
    const auto marker = [x = x, y = y](const QString& name, const QColor& color, QCPScatterStyle::ScatterShape shape) {
        return addMarker(x, y, name, color, shape);
    };
    auto* heuristic = marker(QStringLiteral("best heuristic"), palette::randomMean().darker(140), QCPScatterStyle::ssDiamond);
    auto* none = marker(QStringLiteral("no adaptation"), palette::noAdaptation(), QCPScatterStyle::ssCross);
    auto* fixed = marker(QStringLiteral("best fixed sequence (hindsight)"), palette::optimal(), QCPScatterStyle::ssPlus);
    auto* random = marker(QStringLiteral("random agent (95 % of its mean)"), palette::randomMean(), QCPScatterStyle::ssCircle);
    auto* spread = new QCPErrorBars(x, y);
    spread->removeFromLegend();
    spread->setDataPlottable(random);
    spread->setPen(QPen(palette::randomMean(), 1.6));

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double top = 0.5;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const auto key = static_cast<double>(i + 1);
        const double n = std::max(1, row.sequences);
        for (std::size_t r = 0; r < bars.size() && r < row.means.size(); ++r)
            if (row.means[r]) {
                bars[r]->addData(key - 0.12, *row.means[r] / n);
                top = std::max(top, *row.means[r] / n);
            }
        if (row.heuristic) {
            heuristic->addData(key + 0.2, row.heuristic->mean_rank / n);
            top = std::max(top, row.heuristic->mean_rank / n);
        }
        none->addData(key + 0.28, row.no_adaptation / n);
        fixed->addData(key + 0.28, row.best_fixed / n);
        random->addData(key + 0.36, row.random / n);
        // An interval only where the run recorded one (runs before it have 0 and 0).
        const bool interval = core::run::has_random_interval(row);
        spread->addData(interval ? (row.random - row.random_low) / n : 0.0,
                        interval ? (row.random_high - row.random) / n : 0.0);
        top = std::max({top, row.no_adaptation / n, row.random_high / n});
        ticker->addTick(key, QStringLiteral("%1\n%2 sequences").arg(QString::fromStdString(row.model)).arg(row.sequences));
    }
    for (auto* b : bars)
        b->addToLegend(legend);
    for (auto* g : {heuristic, none, fixed, random})
        g->addToLegend(legend);
    x->setTicker(ticker);
    x->grid()->setVisible(false);
    x->setRange(0.4, static_cast<double>(rows.size()) + 0.6);
    y->setRange(0.0, top * 1.08); // room for a marker at 1 (the last rank)
    plot.replot();
}

} // namespace rlda::widgets
