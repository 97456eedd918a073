// PlotAxes: SeriesPlot's value axes by id. The first axis on a side is the axis rect's own, later
// ones are stacked outward; ticks read 1.2·10⁶ rather than 1.2e+06.
#pragma once

#include "widgets/plot/plot_style.h"

#include <QHash>
#include <QList>
#include <QStringList>

class QCPAxis;
class QCustomPlot;

namespace rlda::widgets {

class PlotAxes {
public:
    explicit PlotAxes(QCustomPlot* plot);

    // The axis `id` titled `title`; an existing one is only retitled. Returns it, and whether it is new.
    QCPAxis* add(const QString& id, const QString& title, AxisSide side, bool* created = nullptr);
    QCPAxis* axis(const QString& id) const { return axes_.value(id); }
    bool contains(const QString& id) const { return axes_.contains(id); }
    QList<QCPAxis*> all() const; // in the order added
    AxisSide emptierSide() const { return left_ <= right_ ? AxisSide::Left : AxisSide::Right; }

    void setColor(const QString& id, const QColor& color); // title and tick labels

private:
    QCustomPlot* plot_;
    QHash<QString, QCPAxis*> axes_;
    QStringList order_;
    int left_ = 0;
    int right_ = 0;
};

} // namespace rlda::widgets
