// SeriesGraphs: SeriesData's decimated points into QCPGraph, the style into pens.
#include "widgets/plot/series_graphs.h"

#include "widgets/plot/series_data.h"
#include "widgets/qcp.h"

#include <algorithm>

namespace rlda::widgets {

SeriesGraphs::SeriesGraphs(QCustomPlot* plot, QCPAxis* valueAxis, QCPLayer* overlay)
    : plot_(plot)
{
    raw_ = plot->addGraph(plot->xAxis, valueAxis);
    raw_->setAdaptiveSampling(false);
    raw_->setAntialiased(false); // faint and dense: antialiasing costs more than it shows
    raw_->setVisible(false);

    graph_ = plot->addGraph(plot->xAxis, valueAxis);
    // Our own decimation already bounds the points; QCP's sampling would only re-scan them.
    graph_->setAdaptiveSampling(false);

    tracer_ = new QCPItemTracer(plot);
    tracer_->setLayer(overlay);
    tracer_->setStyle(QCPItemTracer::tsCircle);
    tracer_->setSize(6);
    tracer_->setBrush(Qt::white);
    tracer_->setVisible(false);
}

QCPAxis* SeriesGraphs::valueAxis() const { return graph_->valueAxis(); }

void SeriesGraphs::setLabel(const QString& label) { graph_->setName(label); }

void SeriesGraphs::setStyle(const QColor& color, const SeriesStyle& style)
{
    QColor lineColor = color;
    lineColor.setAlpha(style.opacity);
    QColor faint = color;
    faint.setAlpha(std::max(30, style.opacity / 4));
    raw_->setPen(QPen(faint, 1.0, style.pen));
    graph_->setPen(QPen(lineColor, style.width, style.pen));
    const auto line = style.steps ? QCPGraph::lsStepLeft : QCPGraph::lsLine;
    graph_->setLineStyle(line);
    raw_->setLineStyle(line);
    tracer_->setPen(QPen(color, 1.2));
}

int SeriesGraphs::show(const SeriesData& data, bool visible, int pixels)
{
    const bool smoothed = data.smoothed();
    graph_->setVisible(visible);
    if (auto* item = plot_->legend->itemWithPlottable(graph_))
        item->setTextColor(visible ? Qt::black : QColor(160, 160, 160));
    raw_->setVisible(visible && smoothed);
    tracer_->setVisible(false);
    const int shown = fill(graph_, data, false, pixels);
    if (smoothed)
        fill(raw_, data, true, pixels);
    else
        raw_->data()->clear();
    return shown;
}

int SeriesGraphs::fill(QCPGraph* graph, const SeriesData& data, bool raw, int pixels)
{
    xs_.clear();
    ys_.clear();
    const QCPRange range = plot_->xAxis->range();
    data.visiblePoints(range.lower, range.upper, pixels, raw ? SeriesData::Line::Raw : SeriesData::Line::Shown, xs_,
                       ys_);
    QVector<QCPGraphData> points(static_cast<int>(xs_.size()));
    for (std::size_t i = 0; i < xs_.size(); ++i)
        points[static_cast<int>(i)] = QCPGraphData(xs_[i], ys_[i]);
    graph->data()->set(points, true);
    return static_cast<int>(xs_.size());
}

void SeriesGraphs::trace(std::optional<double> x)
{
    const bool show = x && graph_->dataCount() > 0;
    tracer_->setVisible(show);
    if (!show)
        return;
    // Bound only now: QCPItemTracer::setGraph warns when the graph is still empty.
    if (tracer_->graph() != graph_)
        tracer_->setGraph(graph_);
    tracer_->setGraphKey(*x);
}

void SeriesGraphs::remove()
{
    plot_->removeItem(tracer_);
    plot_->removeGraph(graph_);
    plot_->removeGraph(raw_);
}

} // namespace rlda::widgets
