// PlotMarkers: each kind's look, merging labels of one event time, stacking other runs' labels.
#include "widgets/plot/plot_markers.h"

#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>

namespace rlda::widgets {
namespace {

struct MarkerLook {
    QColor color;
    Qt::PenStyle pen;
    bool labelLeft; // allocation labels sit left of their line, decisions right: both often share an x
};

MarkerLook lookOf(MarkerKind kind)
{
    switch (kind) {
    case MarkerKind::AllocationUp:
        return {QColor(0x2e, 0x7d, 0x32), Qt::DashLine, true};
    case MarkerKind::AllocationDown:
        return {QColor(0xc6, 0x28, 0x28), Qt::DashLine, true};
    case MarkerKind::Adaptation:
        return {QColor(0x15, 0x65, 0xc0), Qt::SolidLine, false};
    case MarkerKind::DidNothing:
        return {QColor(0x75, 0x75, 0x75), Qt::DotLine, false};
    case MarkerKind::Final:
        return {QColor(0x21, 0x21, 0x21), Qt::DashDotLine, true};
    case MarkerKind::Other:
        break;
    }
    return {QColor(0x6a, 0x1b, 0x9a), Qt::DotLine, false};
}

} // namespace

PlotMarkers::PlotMarkers(QCustomPlot* plot)
    : plot_(plot)
{
}

bool PlotMarkers::add(double x, const QString& label, MarkerKind kind, const QColor& color)
{
    if (!std::isfinite(x))
        return false;
    const MarkerLook look = lookOf(kind);
    const QColor c = color.isValid() ? color : look.color;
    // Two events of the same side, colour and time (several decisions in one step) share one
    // line and one label instead of printing over each other; another colour (another run's
    // events) stacks its label below theirs.
    const Marker* above = nullptr;
    for (auto& m : markers_)
        if (m.x == x && lookOf(m.kind).labelLeft == look.labelLeft) {
            if (m.color == c) {
                m.label += QStringLiteral(", ") + label;
                m.text->setText(m.label);
                return true;
            }
            above = &m;
        }

    Marker m;
    m.x = x;
    m.label = label;
    m.kind = kind;
    m.color = c;
    m.line = new QCPItemStraightLine(plot_);
    m.line->setPen(QPen(c, 1.2, look.pen));
    m.line->point1->setCoords(x, 0.0);
    m.line->point2->setCoords(x, 1.0);
    m.line->setSelectable(false);

    m.text = new QCPItemText(plot_);
    m.text->setObjectName(QStringLiteral("marker"));
    m.text->setText(label);
    m.text->setColor(c);
    QFont f = plot_->font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    m.text->setFont(f);
    m.text->setRotation(-90);
    m.text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    if (above) {
        // Rotated -90°, the text's left end is its bottom: hang this label 4 px below that one.
        m.text->position->setTypeY(QCPItemPosition::ptAbsolute);
        m.text->position->setParentAnchorY(above->text->left);
        m.text->position->setCoords(x, 4.0);
    } else {
        m.text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        m.text->position->setCoords(x, 0.015);
    }
    // Rotated -90°, the text's right end is its top and its top edge faces left: anchored at
    // (right, top) it runs down the right side of its line; (right, bottom) the left side.
    m.text->setPositionAlignment(Qt::AlignRight | (look.labelLeft ? Qt::AlignBottom : Qt::AlignTop));
    m.text->setPadding(QMargins(2, 1, 2, 1));
    m.text->setBrush(QColor(255, 255, 255, 190));
    m.text->setSelectable(false);
    markers_.push_back(m);
    return true;
}

void PlotMarkers::clear()
{
    // Later labels hang from earlier ones: remove the dependants first.
    for (auto it = markers_.rbegin(); it != markers_.rend(); ++it) {
        plot_->removeItem(it->line);
        plot_->removeItem(it->text);
    }
    markers_.clear();
}

void PlotMarkers::widen(double& lo, double& hi) const
{
    for (const auto& m : markers_) {
        lo = std::min(lo, m.x);
        hi = std::max(hi, m.x);
    }
}

} // namespace rlda::widgets
