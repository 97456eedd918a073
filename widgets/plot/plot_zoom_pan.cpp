// PlotZoomPan: the drag and wheel interactions, following the data until the user moves, and the
// ranges that following sets.
#include "widgets/plot/plot_zoom_pan.h"

#include "widgets/qcp.h"

#include <QEvent>

#include <algorithm>
#include <cmath>

namespace rlda::widgets {

PlotZoomPan::PlotZoomPan(QCustomPlot* plot, std::function<void()> userMovedX, std::function<void()> fitRequested,
                         QObject* parent)
    : QObject(parent)
    , plot_(plot)
    , userMovedX_(std::move(userMovedX))
    , fitRequested_(std::move(fitRequested))
{
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->installEventFilter(this);
    // Any x range change we did not make ourselves is the user's zoom or drag.
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (updating_)
            return;
        userChanged();
        userMovedX_();
    });
}

void PlotZoomPan::setValueAxes(const QList<QCPAxis*>& axes)
{
    for (QCPAxis* ax : axes) {
        if (watched_.contains(ax))
            continue;
        watched_ << ax;
        connect(ax, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
            if (!updating_)
                userChanged();
        });
    }
    plot_->axisRect()->setRangeDragAxes({plot_->xAxis}, axes);
    plot_->axisRect()->setRangeZoomAxes({plot_->xAxis}, axes);
}

void PlotZoomPan::userChanged() { following_ = false; }

bool PlotZoomPan::followX(double lo, double hi)
{
    if (!following_ || !std::isfinite(lo))
        return false;
    if (hi - lo < 1e-12) {
        lo -= 0.5;
        hi += 0.5;
    }
    const QCPRange wanted(lo, hi + 0.02 * (hi - lo));
    if (wanted == plot_->xAxis->range())
        return false;
    plot_->xAxis->setRange(wanted);
    return true;
}

void PlotZoomPan::followValues(const QList<QCPAxis*>& axes)
{
    if (!following_)
        return;
    for (QCPAxis* ax : axes) {
        bool any = false;
        QCPRange total;
        for (QCPGraph* g : ax->graphs()) {
            if (!g->visible() || g->valueAxis() != ax)
                continue;
            bool found = false;
            const QCPRange r = g->getValueRange(found, QCP::sdBoth, plot_->xAxis->range());
            if (!found)
                continue;
            total = any ? QCPRange(std::min(total.lower, r.lower), std::max(total.upper, r.upper)) : r;
            any = true;
        }
        if (!any)
            continue;
        const double span = total.upper - total.lower;
        if (span < 1e-12 * std::max(1.0, std::abs(total.upper))) {
            // A constant (a parameter count, a fixed temperature): ±10 % around it, so that its
            // ticks are round numbers about it rather than its last digits.
            const double around = std::abs(total.upper) > 1e-9 ? 0.1 * std::abs(total.upper) : 1.0;
            ax->setRange(total.upper - around, total.upper + around);
            continue;
        }
        ax->setRange(total.lower - 0.06 * span, total.upper + 0.06 * span);
    }
}

bool PlotZoomPan::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot_ && event->type() == QEvent::MouseButtonDblClick) {
        fitRequested_();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace rlda::widgets
