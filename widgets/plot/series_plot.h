// A reusable live plot: named series on several value axes, buffered timer replots, EMA smoothing,
// min/max decimation for display, labelled vertical markers, a crosshair, and image/CSV export.
// SeriesPlot assembles one part per concern, as PlotJuggler splits its plot:
//   series_data.h    the points of one series, their EMA and decimation (no widget, no QCustomPlot)
//   series_graphs.h  the adapter that draws a SeriesData through QCustomPlot
//   plot_axes.h      the value axes · plot_legend.h the legend · plot_markers.h the event markers
//   plot_zoom_pan.h  drag, wheel, double click and following the data · plot_crosshair.h the crosshair
//   series_csv.h     the CSV export (images go through widgets/plot_export.h)
#pragma once

#include "widgets/plot/plot_style.h"
#include "widgets/plot_export.h"

#include <QColor>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QCustomPlot;
class QCPAxis;
class QTimer;

namespace rlda::widgets {

class PlotAxes;
class PlotCrosshair;
class PlotLegend;
class PlotMarkers;
class PlotZoomPan;

class SeriesPlot : public QWidget {
    Q_OBJECT
public:
    explicit SeriesPlot(QWidget* parent = nullptr);
    ~SeriesPlot() override;

    // Axes. The first axis on a side is the axis rect's own, later ones are stacked outward.
    void setXAxisTitle(const QString& title);
    QString xAxisTitle() const;
    void addAxis(const QString& id, const QString& title, AxisSide side = AxisSide::Left);
    void setAxisColor(const QString& id, const QColor& color); // title and tick labels: which curve it scales
    QCPAxis* axis(const QString& id) const;

    // Series. An unknown axis id creates the axis (titled by its id) on the emptier side.
    void addSeries(const QString& name, const QString& axisId, const QColor& color, const QString& label = {},
                   const SeriesStyle& style = {});
    void removeSeries(const QString& name);
    void setSeriesLabel(const QString& name, const QString& label);
    void setSeriesVisible(const QString& name, bool visible);
    // Colour and style after addSeries(), the points kept: a series that changes role (a run that
    // becomes one of several compared) changes look.
    void setSeriesStyle(const QString& name, const QColor& color, const SeriesStyle& style);

    // The legend: one entry per series (inLegend), or, while keys are set, these keys alone, each
    // inner list a row (e.g. runs by colour, then quantities by dash pattern). Empty: per series.
    void setLegendKeys(const QList<QList<LegendKey>>& rows);

    // Data: appended at any rate; the display catches up from a ~30 ms single-shot timer.
    void append(const QString& name, double x, double y);
    void setSeriesData(const QString& name, std::vector<double> xs, std::vector<double> ys);
    void clearData(); // every series' points and every marker; series and axes stay

    // EMA on the full-resolution data: s0 = y0, s_i = a*y_i + (1-a)*s_{i-1}. 0 (or 1) = off.
    void setSmoothing(double alpha);
    double smoothing() const { return alpha_; }

    // A vertical line with a label at x, in the kind's colour unless `color` is given (an
    // overlaid run's). Events of one colour at one x share a label; other colours stack below.
    void addMarker(double x, const QString& label, MarkerKind kind, const QColor& color = {});
    void clearMarkers();
    int markerCount() const;

    // Fit every axis to the data and follow new data again (until the user zooms or drags).
    void fitAll();
    bool following() const;

    // Brings the display up to date now instead of at the next timer tick (tests, export).
    void flush();

    QString exportTo(const QString& path, const ExportSettings& settings = {});
    QString exportCsv(const QString& path) const; // series,x,y,smoothed; full resolution

    // Inspection.
    int pointCount(const QString& name) const;
    int displayedPointCount(const QString& name) const;
    std::vector<double> keys(const QString& name) const;
    std::vector<double> values(const QString& name) const;
    QString valuesAt(double x) const; // the crosshair's text at key x
    // The drawing surface, to read what is drawn rather than ask the plot about it: each series'
    // line is a QCPGraph named (objectName) after the series, its legend name the label; each
    // marker's label a QCPItemText named "marker"; the refresh timer a QTimer named "refreshTimer".
    QCustomPlot* plot() const { return plot_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Series;

    Series* find(const QString& name) const;
    void applyStyle(Series& s, const QColor& color, const SeriesStyle& style);
    void applySmoothing(Series& s);
    void rebuildLegend();
    void scheduleRefresh();
    void refresh();
    void updateDisplay(Series& s, int pixels);
    int plotPixels() const;

    QCustomPlot* plot_ = nullptr;
    QTimer* refreshTimer_ = nullptr;
    std::unique_ptr<PlotAxes> axes_;
    std::unique_ptr<PlotLegend> legend_;
    std::unique_ptr<PlotMarkers> markers_;
    PlotZoomPan* zoomPan_ = nullptr;     // a child of this widget
    PlotCrosshair* crosshair_ = nullptr; // a child of this widget
    std::vector<std::unique_ptr<Series>> series_;
    QHash<QString, Series*> index_; // append() looks a series up per point
    double alpha_ = 0.0;
    bool rangeDirty_ = false;
    int lastPixels_ = 0;
};

} // namespace rlda::widgets
