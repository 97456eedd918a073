// PlotMarkers: labelled vertical lines at an x (allocations, adaptations, the end of a run), in
// their kind's colour and dash. Events of one colour and side at one x share a label; another
// colour's (an overlaid run's) stacks below.
#pragma once

#include "widgets/plot/plot_style.h"


#include <vector>

class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;

namespace rlda::widgets {

class PlotMarkers {
public:
    explicit PlotMarkers(QCustomPlot* plot);

    // In the kind's colour unless `color` is valid. False (and nothing drawn) for a non-finite x.
    bool add(double x, const QString& label, MarkerKind kind, const QColor& color = {});
    void clear();

    int count() const { return static_cast<int>(markers_.size()); }
    // Widens [lo, hi] to every marker's x.
    void widen(double& lo, double& hi) const;

private:
    struct Marker {
        double x = 0.0;
        QString label;
        MarkerKind kind = MarkerKind::Other;
        QColor color; // the kind's, or the one add() was given
        QCPItemStraightLine* line = nullptr;
        QCPItemText* text = nullptr;
    };

    QCustomPlot* plot_;
    std::vector<Marker> markers_;
};

} // namespace rlda::widgets
