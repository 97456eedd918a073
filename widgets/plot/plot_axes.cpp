// PlotAxes: creating, stacking, titling and colouring the value axes.
#include "widgets/plot/plot_axes.h"

#include "widgets/qcp.h"

namespace rlda::widgets {

PlotAxes::PlotAxes(QCustomPlot* plot)
    : plot_(plot)
{
    plot_->yAxis->setVisible(false);
    plot_->xAxis2->setVisible(false);
    plot_->yAxis2->setVisible(false);
}

QCPAxis* PlotAxes::add(const QString& id, const QString& title, AxisSide side, bool* created)
{
    if (created)
        *created = false;
    if (auto* existing = axes_.value(id)) {
        existing->setLabel(title);
        return existing;
    }
    QCPAxisRect* rect = plot_->axisRect();
    QCPAxis* ax = nullptr;
    if (side == AxisSide::Left)
        ax = left_++ == 0 ? plot_->yAxis : rect->addAxis(QCPAxis::atLeft);
    else
        ax = right_++ == 0 ? plot_->yAxis2 : rect->addAxis(QCPAxis::atRight);
    ax->setVisible(true);
    ax->setTickLabels(true);
    ax->setLabel(title);
    ax->setNumberPrecision(4);
    ax->setNumberFormat(QStringLiteral("gbc")); // 1.2·10⁶ rather than 1.2e+06
    axes_.insert(id, ax);
    order_ << id;
    if (created)
        *created = true;
    return ax;
}

QList<QCPAxis*> PlotAxes::all() const
{
    QList<QCPAxis*> axes;
    for (const auto& id : order_)
        axes << axes_.value(id);
    return axes;
}

void PlotAxes::setColor(const QString& id, const QColor& color)
{
    if (auto* ax = axes_.value(id)) {
        ax->setLabelColor(color);
        ax->setTickLabelColor(color);
    }
}

QString PlotAxes::title(const QString& id) const
{
    auto* ax = axes_.value(id);
    return ax ? ax->label() : QString();
}

} // namespace rlda::widgets
