// A reusable live plot: named series on several value axes, buffered timer replots, EMA smoothing,
// min/max decimation for display, labelled vertical markers, a crosshair, and image/CSV export.
#pragma once

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
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPItemTracer;
class QTimer;

namespace rlda::widgets {

enum class MarkerKind { AllocationUp, AllocationDown, Adaptation, DidNothing, Final, Other };

enum class AxisSide { Left, Right };

struct SeriesStyle {
    Qt::PenStyle pen = Qt::SolidLine;
    double width = 1.6;
    bool smoothable = true; // false for step quantities (lr, parameter count) that EMA would blur
    bool steps = false;     // draw as a step function (value holds until the next point)
    int opacity = 255;      // 0..255; faint raw series under a rolling mean use less
    bool inLegend = true;
};

// A legend entry that stands for no one series: a run's colour, or a quantity's dash pattern.
struct LegendKey {
    QString label;
    QColor color;
    Qt::PenStyle pen = Qt::SolidLine;
    double width = 1.6;
};

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
    QString axisTitle(const QString& id) const;
    QCPAxis* axis(const QString& id) const;
    QStringList axisIds() const;

    // Series. An unknown axis id creates the axis (titled by its id) on the emptier side.
    void addSeries(const QString& name, const QString& axisId, const QColor& color, const QString& label = {},
                   const SeriesStyle& style = {});
    bool hasSeries(const QString& name) const;
    QStringList seriesNames() const;
    void removeSeries(const QString& name);
    void setSeriesLabel(const QString& name, const QString& label);
    QString seriesLabel(const QString& name) const;
    void setSeriesVisible(const QString& name, bool visible);
    bool isSeriesVisible(const QString& name) const;
    // Colour and style after addSeries(), the points kept: a series that changes role (a run that
    // becomes one of several compared) changes look.
    void setSeriesStyle(const QString& name, const QColor& color, const SeriesStyle& style);
    QColor seriesColor(const QString& name) const;
    SeriesStyle seriesStyle(const QString& name) const;

    // The legend: one entry per series (inLegend), or, while keys are set, these keys alone, each
    // inner list a row (e.g. runs by colour, then quantities by dash pattern). Empty: per series.
    void setLegendKeys(const QList<QList<LegendKey>>& rows);
    QStringList legendLabels() const; // what the legend shows, row by row

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
    QStringList markerLabels() const;
    QList<QColor> markerColors() const;

    // Fit every axis to the data and follow new data again (until the user zooms or drags).
    void fitAll();
    bool following() const { return follow_; }

    // Brings the display up to date now instead of at the next timer tick (tests, export).
    void flush();

    QString exportTo(const QString& path, const ExportSettings& settings = {});
    QString exportCsv(const QString& path) const; // series,x,y,smoothed; full resolution

    // Inspection.
    int pointCount(const QString& name) const;
    int displayedPointCount(const QString& name) const;
    std::vector<double> values(const QString& name) const;
    std::vector<double> smoothedValues(const QString& name) const; // = values() when smoothing is off
    QString valuesAt(double x) const; // the crosshair's text at key x
    int replotCount() const { return replots_; }
    QCustomPlot* plot() const { return plot_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Series;
    struct Marker;

    Series* find(const QString& name) const;
    void applyStyle(Series& s, const QColor& color, const SeriesStyle& style);
    void rebuildLegend();
    void scheduleRefresh();
    void refresh();
    void updateDisplay(Series& s, int pixels);
    void recomputeSmoothing(Series& s);
    void applyFollowRanges();
    void updateCrosshair(double x, int pixelX);
    void hideCrosshair();
    void stopFollowing();
    void syncLegend();
    int plotPixels() const;
    bool smoothingOn() const { return alpha_ > 0.0 && alpha_ < 1.0; }

    QCustomPlot* plot_ = nullptr;
    QTimer* refreshTimer_ = nullptr;
    QHash<QString, QCPAxis*> axes_;
    QStringList axisOrder_;
    std::vector<std::unique_ptr<Series>> series_;
    QHash<QString, Series*> index_; // append() looks a series up per point
    std::vector<Marker> markers_;
    QList<QList<LegendKey>> legendKeys_;
    QList<QCPGraph*> keyGraphs_; // dataless graphs behind the legend keys
    QCPItemStraightLine* crossLine_ = nullptr;
    QCPItemText* crossText_ = nullptr;
    double alpha_ = 0.0;
    bool follow_ = true;
    bool rangeDirty_ = false;
    bool inRefresh_ = false;
    int leftAxes_ = 0;
    int rightAxes_ = 0;
    int replots_ = 0;
    int lastPixels_ = 0;
};

} // namespace rlda::widgets
