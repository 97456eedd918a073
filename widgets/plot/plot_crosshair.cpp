// PlotCrosshair: following the pointer over the axis rect, hiding while dragging or outside.
#include "widgets/plot/plot_crosshair.h"

#include "widgets/qcp.h"

#include <QEvent>
#include <QMouseEvent>

namespace rlda::widgets {

PlotCrosshair::PlotCrosshair(QCustomPlot* plot, TextAt textAt, Trace trace, QObject* parent)
    : QObject(parent)
    , plot_(plot)
    , textAt_(std::move(textAt))
    , trace_(std::move(trace))
{
    const QString name = QStringLiteral("overlay");
    if (!plot_->layer(name)) // QCustomPlot may already have one of that name
        plot_->addLayer(name, nullptr, QCustomPlot::limAbove);
    layer_ = plot_->layer(name);
    layer_->setMode(QCPLayer::lmBuffered);
    line_ = new QCPItemStraightLine(plot_);
    line_->setLayer(layer_);
    line_->setPen(QPen(QColor(0, 0, 0, 110), 1, Qt::DashLine));
    line_->setVisible(false);
    text_ = new QCPItemText(plot_);
    text_->setLayer(layer_);
    text_->position->setType(QCPItemPosition::ptAbsolute);
    text_->setTextAlignment(Qt::AlignLeft);
    text_->setPadding(QMargins(6, 4, 6, 4));
    text_->setBrush(QColor(255, 255, 255, 225));
    text_->setPen(QPen(QColor(0, 0, 0, 90)));
    text_->setClipToAxisRect(false);
    text_->setVisible(false);
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
}

void PlotCrosshair::show(double x, int pixelX)
{
    const QRect rect = plot_->axisRect()->rect();
    line_->point1->setCoords(x, 0.0);
    line_->point2->setCoords(x, 1.0);
    line_->setVisible(true);
    text_->setText(textAt_(x));
    const bool rightHalf = pixelX > rect.center().x();
    text_->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    text_->position->setCoords(pixelX + (rightHalf ? -12 : 12), rect.top() + 24);
    text_->setVisible(true);
    trace_(x);
    layer_->replot();
}

void PlotCrosshair::hide()
{
    line_->setVisible(false);
    text_->setVisible(false);
    trace_(std::nullopt);
    layer_->replot();
}

bool PlotCrosshair::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot_) {
        if (event->type() == QEvent::MouseMove) {
            const auto* me = static_cast<QMouseEvent*>(event);
            const QPoint pos = me->position().toPoint();
            if (plot_->axisRect()->rect().contains(pos) && !(me->buttons() & Qt::LeftButton))
                show(plot_->xAxis->pixelToCoord(pos.x()), pos.x());
            else
                hide();
        } else if (event->type() == QEvent::Leave) {
            hide();
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace rlda::widgets
