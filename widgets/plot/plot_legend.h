// PlotLegend: SeriesPlot's legend, in a row of its own below the axis rect (so that it never covers
// the data) and only while it has entries: one per series, or, while keys are set, the keys alone.
#pragma once

#include "widgets/plot/plot_style.h"

#include <QList>

class QCPGraph;
class QCustomPlot;

namespace rlda::widgets {

class PlotLegend {
public:
    explicit PlotLegend(QCustomPlot* plot);
    ~PlotLegend(); // before the plot: QCustomPlot deletes what its layout holds, a parked legend would leak
    PlotLegend(const PlotLegend&) = delete;
    PlotLegend& operator=(const PlotLegend&) = delete;

    // Each inner list a row (runs by colour, then quantities by dash pattern); empty: per series.
    // Takes effect at the next show().
    void setKeys(const QList<QList<LegendKey>>& rows);
    // Rebuilds the entries: the keys while there are any, else these graphs, in order.
    void show(const QList<QCPGraph*>& series);
    // Puts the legend in or out of the layout after its items changed (a graph removed).
    void sync();

private:
    QCustomPlot* plot_;
    QList<QList<LegendKey>> keys_;
    QList<QCPGraph*> keyGraphs_; // dataless graphs behind the keys
};

} // namespace rlda::widgets
