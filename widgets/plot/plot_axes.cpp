// PlotAxes: creating, stacking, titling and colouring the value axes.
#include "widgets/plot/plot_axes.h"

#include "widgets/qcp.h"

#include <cmath>

namespace rlda::widgets {
namespace {

// Tick labels that read as the numbers they are: whole numbers in full below a million (10500,
// not 1.05·10⁴), as many decimals as the step between ticks needs (0.995, 1, 1.005), and powers
// of ten (drawn as 1.2·10⁶) only for very large or very small values.
class ReadableTicker : public QCPAxisTicker {
protected:
    QVector<QString> createLabelVector(const QVector<double>& ticks, const QLocale& locale, QChar formatChar,
                                       int precision) override
    {
        const double step = ticks.size() > 1 ? std::abs(ticks[1] - ticks[0]) : 0.0;
        double largest = 0.0;
        for (double t : ticks)
            largest = std::max(largest, std::abs(t));
        if (step <= 0.0 || largest >= 1e6 || largest < 1e-3)
            return QCPAxisTicker::createLabelVector(ticks, locale, formatChar, precision);
        int decimals = 0; // the fewest that write the step exactly
        for (double scaled = step; decimals < 6 && std::abs(std::round(scaled) - scaled) > 1e-6; scaled *= 10.0)
            ++decimals;
        QVector<QString> labels;
        labels.reserve(ticks.size());
        for (double t : ticks)
            labels << locale.toString(std::abs(t) < step * 1e-9 ? 0.0 : t, 'f', decimals);
        return labels;
    }
};

} // namespace

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
    ax->setTicker(QSharedPointer<ReadableTicker>::create());
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

} // namespace rlda::widgets
