// The figures' one font rule: the plot's own family at a size in points, for titles, labels, ticks
// and legends alike, so that every figure reads as one set.
#pragma once

#include <QFont>

class QCustomPlot;

namespace rlda::widgets {

QFont figureFont(const QCustomPlot& plot, double points, bool bold = false);

} // namespace rlda::widgets
