#include "widgets/figures/figure_font.h"

#include "widgets/qcp.h"

namespace rlda::widgets {

QFont figureFont(const QCustomPlot& plot, double points, bool bold)
{
    QFont f = plot.font();
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

} // namespace rlda::widgets
