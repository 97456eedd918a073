// The plain value types SeriesPlot's callers pass: how a series is drawn, a legend key, a marker's
// kind and an axis's side. The parts of the plot (series_graphs.h, plot_legend.h, plot_markers.h,
// plot_axes.h) take them too.
#pragma once

#include <QColor>
#include <QString>

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

} // namespace rlda::widgets
