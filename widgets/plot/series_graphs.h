// SeriesGraphs: the adapter from one SeriesData to QCustomPlot. Two graphs (the line the legend
// names, and the raw values faint beneath it while smoothing) and a tracer for the crosshair;
// QCustomPlot only ever holds the decimated points of what is in view.
#pragma once

#include "widgets/plot/plot_style.h"

#include <optional>
#include <vector>

class QCPAxis;
class QCPGraph;
class QCPItemTracer;
class QCPLayer;
class QCustomPlot;

namespace rlda::widgets {

class SeriesData;

class SeriesGraphs {
public:
    // The graphs on the plot's x axis and `valueAxis`, the tracer on `overlay`.
    SeriesGraphs(QCustomPlot* plot, QCPAxis* valueAxis, QCPLayer* overlay);
    SeriesGraphs(const SeriesGraphs&) = delete;
    SeriesGraphs& operator=(const SeriesGraphs&) = delete;

    QCPGraph* graph() const { return graph_; } // what the legend names: smoothed when smoothing is on
    QCPAxis* valueAxis() const;
    void setLabel(const QString& label);
    void setStyle(const QColor& color, const SeriesStyle& style);

    // Draws what the x axis's range shows of `data` across `pixels` columns; returns the points on
    // the main line.
    int show(const SeriesData& data, bool visible, int pixels);
    // The tracer at key x on the main line, if it has points; nullopt hides it.
    void trace(std::optional<double> x);
    // Takes the graphs and the tracer off the plot.
    void remove();

private:
    int fill(QCPGraph* graph, const SeriesData& data, bool raw, int pixels);

    QCustomPlot* plot_;
    QCPGraph* graph_;
    QCPGraph* raw_;
    QCPItemTracer* tracer_;
    std::vector<double> xs_; // reused between refreshes
    std::vector<double> ys_;
};

} // namespace rlda::widgets
