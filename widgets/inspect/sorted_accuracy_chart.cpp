// The sorted sequences' accuracies through QCustomPlot (widgets/qcp.h): a line of the means, error
// bars of their seeds' standard deviation, and the seeds themselves as faint dots.
#include "widgets/inspect/sorted_accuracy_chart.h"

#include "widgets/qcp.h"

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rlda::widgets {

SortedAccuracyChart::SortedAccuracyChart(QWidget* parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("sortedAccuracy"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->xAxis->setLabel(tr("sequences, best to worst (by the mean over the seeds)"));
    plot_->yAxis->setLabel(tr("final test accuracy (%)"));
    setTable(nullptr);
}

void SortedAccuracyChart::setTable(const core::sim::SimulationTable* table, const std::vector<double>& sd)
{
    plot_->clearPlottables();
    plot_->legend->setVisible(false);
    if (!table || table->rows().empty()) {
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const auto& rows = table->rows();
    std::vector<std::size_t> order(rows.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rows[a].accuracy > rows[b].accuracy; });
    QVector<double> x, mean, spread;
    for (std::size_t i = 0; i < order.size(); ++i) {
        x << static_cast<double>(i + 1);
        mean << 100.0 * rows[order[i]].accuracy;
        if (sd.size() == rows.size())
            spread << 100.0 * sd[order[i]];
    }
    double low = *std::min_element(mean.begin(), mean.end()), high = *std::max_element(mean.begin(), mean.end());
    // The seeds first, underneath: one faint dot each.
    for (std::size_t s = 0; s < table->seeds().size(); ++s) {
        auto* g = plot_->addGraph();
        g->setObjectName(QStringLiteral("seed"));
        QVector<double> at, y; // a race's later seeds hold only some sequences: the others are left out
        for (std::size_t i = 0; i < order.size(); ++i)
            if (const double a = rows[order[i]].replicates[s]; !std::isnan(a)) {
                at << x[static_cast<qsizetype>(i)];
                y << 100.0 * a;
                low = std::min(low, y.back());
                high = std::max(high, y.back());
            }
        g->setData(at, y, true);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(90, 90, 90, 170), 6));
        g->setName(tr("seed %1").arg(table->seeds()[s]));
    }
    auto* means = plot_->addGraph();
    means->setObjectName(QStringLiteral("means"));
    means->setData(x, mean, true);
    means->setPen(QPen(QColor(31, 119, 180), 1.5));
    means->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(31, 119, 180), 5));
    means->setName(table->replicated() ? tr("mean of %1 seeds").arg(table->seeds().size()) : tr("accuracy"));
    if (!spread.isEmpty()) {
        auto* bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
        bars->setDataPlottable(means);
        bars->setData(spread);
        bars->setPen(QPen(QColor(31, 119, 180, 160)));
        bars->setName(tr("± sd over the seeds"));
        bars->setObjectName(QStringLiteral("errorBars"));
    }
    plot_->legend->setVisible(table->replicated());
    const double pad = std::max(0.5, 0.05 * (high - low));
    plot_->xAxis->setRange(0.0, static_cast<double>(rows.size()) + 1.0);
    plot_->yAxis->setRange(low - pad, high + pad);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString SortedAccuracyChart::exportTo(const QString& path, const ExportSettings& settings)
{
    return widgets::exportPlot(*plot_, path, settings);
}

} // namespace rlda::widgets
