// PlotLegend: the legend's entries and its place in the plot's layout.
#include "widgets/plot/plot_legend.h"

#include "widgets/qcp.h"

namespace rlda::widgets {
namespace {
// Entries a legend line holds: few enough that a plot stays narrow enough for a laptop screen.
constexpr int kPerLine = 3;
} // namespace

PlotLegend::PlotLegend(QCustomPlot* plot)
    : plot_(plot)
{
    plot_->setAutoAddPlottableToLegend(false); // show() decides what the legend shows
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setWrap(kPerLine);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setBrush(Qt::NoBrush);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    sync();
}

PlotLegend::~PlotLegend()
{
    if (!plot_->legend->layout())
        plot_->plotLayout()->addElement(1, 0, plot_->legend);
}

void PlotLegend::sync()
{
    // A layout column is as narrow as its narrowest element's maximum, and an empty legend's
    // maximum is next to nothing: out of the layout while it is empty.
    auto* grid = plot_->plotLayout();
    const bool want = plot_->legend->itemCount() > 0;
    const bool in = plot_->legend->layout() == grid;
    if (want && !in) {
        grid->addElement(1, 0, plot_->legend);
        grid->setRowStretchFactor(1, 0.001);
        grid->setRowSpacing(0);
    } else if (!want && in) {
        grid->take(plot_->legend);
        grid->simplify();
    }
    plot_->legend->setVisible(want);
}

void PlotLegend::setKeys(const QList<QList<LegendKey>>& rows)
{
    plot_->legend->clearItems(); // before the graphs its items point at go
    for (QCPGraph* g : std::as_const(keyGraphs_))
        plot_->removeGraph(g);
    keyGraphs_.clear();
    keys_.clear();
    for (const auto& row : rows) {
        if (row.isEmpty())
            continue;
        keys_ << row;
        for (const LegendKey& key : row) {
            // A graph without data draws nothing and is no series: it only lends the legend its pen.
            QCPGraph* g = plot_->addGraph(plot_->xAxis, plot_->yAxis);
            g->setName(key.label);
            g->setPen(QPen(key.color, key.width, key.pen));
            keyGraphs_ << g;
        }
    }
}

void PlotLegend::show(const QList<QCPGraph*>& series)
{
    QCPLegend* legend = plot_->legend;
    legend->clearItems();
    legend->simplify();
    if (keys_.isEmpty()) {
        for (QCPGraph* g : series)
            g->addToLegend(legend);
    } else {
        // Each row of keys on lines of its own, kPerLine at most to a line.
        int k = 0;
        int line = 0;
        for (const auto& row : std::as_const(keys_)) {
            for (int c = 0; c < row.size(); ++c)
                legend->addElement(line + c / kPerLine, c % kPerLine, new QCPPlottableLegendItem(legend, keyGraphs_[k++]));
            line += (int(row.size()) + kPerLine - 1) / kPerLine;
        }
    }
    sync();
}

} // namespace rlda::widgets
