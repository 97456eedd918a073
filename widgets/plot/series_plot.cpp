// SeriesPlot: the data live in one SeriesData per series at full resolution; QCustomPlot only ever
// holds what is drawn (SeriesGraphs). This file assembles the parts and runs the refresh.
#include "widgets/plot/series_plot.h"

#include "widgets/plot/plot_axes.h"
#include "widgets/plot/plot_crosshair.h"
#include "widgets/plot/plot_legend.h"
#include "widgets/plot/plot_markers.h"
#include "widgets/plot/plot_zoom_pan.h"
#include "widgets/plot/series_csv.h"
#include "widgets/plot/series_data.h"
#include "widgets/plot/series_graphs.h"
#include "widgets/qcp.h"

#include <QEvent>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlda::widgets {
namespace {

constexpr int kRefreshMs = 30;

} // namespace

struct SeriesPlot::Series {
    Series(QCustomPlot* plot, QCPAxis* valueAxis, QCPLayer* overlay)
        : graphs(plot, valueAxis, overlay)
    {
    }

    QString name;
    QString label;
    QString axisId;
    QColor color;
    SeriesStyle style;
    SeriesData data;
    SeriesGraphs graphs;
    bool visible = true;
    bool dirty = true;
    int displayed = 0;
};

SeriesPlot::SeriesPlot(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    layout->addWidget(plot_);
    plot_->setMinimumSize(320, 220);
    plot_->installEventFilter(this);
    plot_->setPlottingHint(QCP::phFastPolylines, true);

    axes_ = std::make_unique<PlotAxes>(plot_);
    legend_ = std::make_unique<PlotLegend>(plot_);
    markers_ = std::make_unique<PlotMarkers>(plot_);
    crosshair_ = new PlotCrosshair(
        plot_, [this](double x) { return valuesAt(x); },
        [this](std::optional<double> x) {
            for (const auto& s : series_)
                s->graphs.trace(s->visible ? x : std::nullopt);
        },
        this);
    zoomPan_ = new PlotZoomPan(
        plot_,
        [this] {
            rangeDirty_ = true;
            scheduleRefresh();
        },
        [this] { fitAll(); }, this);

    refreshTimer_ = new QTimer(this);
    refreshTimer_->setObjectName(QStringLiteral("refreshTimer"));
    refreshTimer_->setSingleShot(true);
    refreshTimer_->setInterval(kRefreshMs);
    connect(refreshTimer_, &QTimer::timeout, this, &SeriesPlot::refresh);

    // The axis rect's width is known only after a replot lays it out; decimate again if it moved.
    connect(plot_, &QCustomPlot::afterReplot, this, [this] {
        if (plot_->axisRect()->width() >= 50 && plot_->axisRect()->width() != lastPixels_)
            scheduleRefresh();
    });
}

SeriesPlot::~SeriesPlot()
{
    // Both reach into series_ from the plot's events and signals: gone before the members are.
    delete crosshair_;
    delete zoomPan_;
}

void SeriesPlot::setXAxisTitle(const QString& title) { plot_->xAxis->setLabel(title); }

QString SeriesPlot::xAxisTitle() const { return plot_->xAxis->label(); }

void SeriesPlot::addAxis(const QString& id, const QString& title, AxisSide side)
{
    bool created = false;
    axes_->add(id, title, side, &created);
    if (created)
        zoomPan_->setValueAxes(axes_->all());
}

void SeriesPlot::setAxisColor(const QString& id, const QColor& color) { axes_->setColor(id, color); }

QCPAxis* SeriesPlot::axis(const QString& id) const { return axes_->axis(id); }

void SeriesPlot::addSeries(const QString& name, const QString& axisId, const QColor& color, const QString& label,
                           const SeriesStyle& style)
{
    if (find(name))
        return;
    if (!axes_->contains(axisId))
        addAxis(axisId, axisId, axes_->emptierSide());

    auto s = std::make_unique<Series>(plot_, axes_->axis(axisId), crosshair_->layer());
    s->name = name;
    s->label = label.isEmpty() ? name : label;
    s->axisId = axisId;
    s->graphs.setLabel(s->label);
    s->graphs.graph()->setObjectName(name);
    applyStyle(*s, color, style);
    index_.insert(name, s.get());
    series_.push_back(std::move(s));
    rebuildLegend();
    scheduleRefresh();
}

void SeriesPlot::applyStyle(Series& s, const QColor& color, const SeriesStyle& style)
{
    s.color = color;
    s.style = style;
    s.graphs.setStyle(color, style);
    applySmoothing(s);
    s.dirty = true;
}

void SeriesPlot::applySmoothing(Series& s)
{
    // A step quantity is never smoothed; SeriesData recomputes only when its alpha changes.
    s.data.setSmoothing(s.style.smoothable && alpha_ > 0.0 && alpha_ < 1.0 ? alpha_ : 0.0);
}

void SeriesPlot::setSeriesStyle(const QString& name, const QColor& color, const SeriesStyle& style)
{
    auto* s = find(name);
    if (!s)
        return;
    const bool inLegend = s->style.inLegend;
    applyStyle(*s, color, style);
    if (style.inLegend != inLegend)
        rebuildLegend();
    scheduleRefresh();
}

void SeriesPlot::setLegendKeys(const QList<QList<LegendKey>>& rows)
{
    legend_->setKeys(rows);
    rebuildLegend();
    scheduleRefresh();
}

void SeriesPlot::rebuildLegend()
{
    QList<QCPGraph*> graphs;
    for (const auto& s : series_)
        if (s->style.inLegend)
            graphs << s->graphs.graph();
    legend_->show(graphs);
}

void SeriesPlot::removeSeries(const QString& name)
{
    auto it = std::find_if(series_.begin(), series_.end(), [&](const auto& s) { return s->name == name; });
    if (it == series_.end())
        return;
    (*it)->graphs.remove();
    index_.remove(name);
    series_.erase(it);
    legend_->sync();
    scheduleRefresh();
}

void SeriesPlot::setSeriesLabel(const QString& name, const QString& label)
{
    if (auto* s = find(name)) {
        s->label = label;
        s->graphs.setLabel(label);
        scheduleRefresh();
    }
}

void SeriesPlot::setSeriesVisible(const QString& name, bool visible)
{
    if (auto* s = find(name)) {
        s->visible = visible;
        s->dirty = true;
        scheduleRefresh();
    }
}

void SeriesPlot::append(const QString& name, double x, double y)
{
    auto* s = find(name);
    if (!s || !s->data.append(x, y))
        return;
    s->dirty = true;
    scheduleRefresh();
}

void SeriesPlot::setSeriesData(const QString& name, std::vector<double> xs, std::vector<double> ys)
{
    auto* s = find(name);
    if (!s)
        return;
    s->data.assign(xs, ys);
    s->dirty = true;
    scheduleRefresh();
}

void SeriesPlot::clearData()
{
    for (auto& s : series_) {
        s->data.clear();
        s->dirty = true;
    }
    clearMarkers();
    crosshair_->hide();
    zoomPan_->follow();
    scheduleRefresh();
}

void SeriesPlot::setSmoothing(double alpha)
{
    alpha = std::clamp(alpha, 0.0, 1.0);
    if (alpha == alpha_)
        return;
    alpha_ = alpha;
    for (auto& s : series_) {
        applySmoothing(*s);
        s->dirty = true;
    }
    scheduleRefresh();
}

void SeriesPlot::addMarker(double x, const QString& label, MarkerKind kind, const QColor& color)
{
    if (markers_->add(x, label, kind, color))
        scheduleRefresh();
}

int SeriesPlot::markerCount() const { return markers_->count(); }

void SeriesPlot::clearMarkers()
{
    markers_->clear();
    scheduleRefresh();
}

bool SeriesPlot::following() const { return zoomPan_->following(); }

void SeriesPlot::fitAll()
{
    zoomPan_->follow();
    rangeDirty_ = true;
    flush();
}

void SeriesPlot::flush()
{
    refreshTimer_->stop();
    refresh();
}

void SeriesPlot::scheduleRefresh()
{
    if (!refreshTimer_->isActive())
        refreshTimer_->start();
}

int SeriesPlot::plotPixels() const
{
    int px = plot_->axisRect()->width();
    if (px < 50)
        px = plot_->width() - 120;
    return px < 50 ? 800 : px;
}

void SeriesPlot::refresh()
{
    zoomPan_->begin();
    const int px = plotPixels();
    bool all = rangeDirty_ || px != lastPixels_;
    if (zoomPan_->following()) {
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (const auto& s : series_)
            if (s->visible && !s->data.empty()) {
                lo = std::min(lo, s->data.firstX());
                hi = std::max(hi, s->data.lastX());
            }
        markers_->widen(lo, hi);
        if (zoomPan_->followX(lo, hi))
            all = true;
    }
    for (auto& s : series_)
        if (all || s->dirty)
            updateDisplay(*s, px);
    // An axis whose curves are all hidden would only show ticks for nothing.
    for (QCPAxis* ax : axes_->all())
        ax->setVisible(std::any_of(series_.begin(), series_.end(), [ax](const auto& s) {
            return s->visible && s->graphs.valueAxis() == ax;
        }));
    zoomPan_->followValues(axes_->all());
    lastPixels_ = px;
    rangeDirty_ = false;
    zoomPan_->end();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SeriesPlot::updateDisplay(Series& s, int pixels)
{
    s.dirty = false;
    s.displayed = s.graphs.show(s.data, s.visible, pixels);
}

QString SeriesPlot::valuesAt(double x) const
{
    QStringList lines;
    const QString title = plot_->xAxis->label().isEmpty() ? QStringLiteral("x") : plot_->xAxis->label();
    lines << QStringLiteral("%1: %2").arg(title, QString::number(x, 'g', 6));
    for (const auto& s : series_) {
        if (!s->visible || s->data.empty())
            continue;
        const double v = s->data.shown(s->data.nearestIndex(x));
        lines << QStringLiteral("%1: %2").arg(s->label, QString::number(v, 'g', 6));
    }
    return lines.join(QLatin1Char('\n'));
}

bool SeriesPlot::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot_ && event->type() == QEvent::Resize)
        scheduleRefresh();
    return QWidget::eventFilter(watched, event);
}

QString SeriesPlot::exportTo(const QString& path, const ExportSettings& settings)
{
    flush();
    // Decimate for the width of the file, not of the screen, so a large export keeps its detail.
    const int exportPixels = std::max(50, settings.size.width() - 120);
    for (auto& s : series_)
        updateDisplay(*s, exportPixels);
    crosshair_->hide();
    const QString error = exportPlot(*plot_, path, settings);
    for (auto& s : series_)
        s->dirty = true;
    scheduleRefresh();
    return error;
}

QString SeriesPlot::exportCsv(const QString& path) const
{
    std::vector<NamedSeries> all;
    for (const auto& s : series_)
        all.push_back({s->name, &s->data});
    return writeSeriesCsv(path, all);
}

int SeriesPlot::pointCount(const QString& name) const
{
    auto* s = find(name);
    return s ? static_cast<int>(s->data.size()) : 0;
}

int SeriesPlot::displayedPointCount(const QString& name) const
{
    auto* s = find(name);
    return s ? s->displayed : 0;
}

std::vector<double> SeriesPlot::keys(const QString& name) const
{
    auto* s = find(name);
    return s ? s->data.keys() : std::vector<double>{};
}

std::vector<double> SeriesPlot::values(const QString& name) const
{
    auto* s = find(name);
    return s ? s->data.values() : std::vector<double>{};
}

SeriesPlot::Series* SeriesPlot::find(const QString& name) const { return index_.value(name); }

} // namespace rlda::widgets
