// FlowLayout: rows of items that wrap at the layout's width.
#include "widgets/flow_layout.h"

#include <QHBoxLayout>
#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace rlda::widgets {

FlowLayout::FlowLayout(QWidget* parent, Fill fill) : QLayout(parent), fill_(fill) {}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addPair(QWidget* label, QWidget* field)
{
    auto* pair = new QWidget(field->parentWidget());
    auto* row = new QHBoxLayout(pair);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(label);
    row->addWidget(field, 1);
    addWidget(pair);
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowLayout::itemAt(int index) const
{
    return index >= 0 && index < items_.size() ? items_.at(index) : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index)
{
    return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

Qt::Orientations FlowLayout::expandingDirections() const
{
    return fill_ == Fill::Rows ? Qt::Horizontal : Qt::Orientations();
}

// The style's spacing between widgets (PM_LayoutHorizontalSpacing or PM_LayoutVerticalSpacing), as
// QBoxLayout takes it when none is set.
int FlowLayout::gap(QStyle::PixelMetric metric) const
{
    if (spacing() >= 0)
        return spacing();
    const QWidget* w = parentWidget();
    const int gap = w ? w->style()->pixelMetric(metric, nullptr, w) : -1;
    return gap >= 0 ? gap : 6;
}

int FlowLayout::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const
{
    QSize size;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size.grownBy(m);
}

QSize FlowLayout::sizeHint() const
{
    int width = 0;
    int height = 0;
    int n = 0;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty()) {
            const QSize hint = item->sizeHint();
            width += hint.width() + (n++ ? gap(QStyle::PM_LayoutHorizontalSpacing) : 0);
            height = std::max(height, hint.height());
        }
    const QMargins m = contentsMargins();
    return QSize(width, height).grownBy(m);
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int gapX = gap(QStyle::PM_LayoutHorizontalSpacing);
    const int gapY = gap(QStyle::PM_LayoutVerticalSpacing);
    // An item's width on a line: its size hint, or the whole line when that is narrower (never
    // below its minimum).
    const auto widthOf = [&](const QLayoutItem* item) {
        return std::max(item->minimumSize().width(), std::min(item->sizeHint().width(), area.width()));
    };
    const auto heightOf = [](const QLayoutItem* item, int width) {
        return item->hasHeightForWidth() ? item->heightForWidth(width) : item->sizeHint().height();
    };

    int y = area.y();
    QList<QLayoutItem*> line;
    int lineWidth = 0;
    const auto placeLine = [&] {
        if (line.isEmpty())
            return;
        // Fill::Rows shares what the line leaves over among its items, within their maxima.
        const int spare = fill_ == Fill::Rows ? std::max(0, area.width() - lineWidth) : 0;
        QList<int> widths;
        for (int i = 0; i < line.size(); ++i) {
            const int share = spare / int(line.size()) + (i < spare % int(line.size()) ? 1 : 0);
            widths << std::min(widthOf(line[i]) + share, line[i]->maximumSize().width());
        }
        int height = 0;
        for (int i = 0; i < line.size(); ++i)
            height = std::max(height, heightOf(line[i], widths[i]));
        int x = area.x();
        for (int i = 0; i < line.size(); ++i) {
            if (apply) {
                // Items that do not grow vertically sit in the middle of their line.
                const int h = fill_ == Fill::Rows ? height : std::min(height, heightOf(line[i], widths[i]));
                line[i]->setGeometry(QRect(x, y + (height - h) / 2, widths[i], h));
            }
            x += widths[i] + gapX;
        }
        y += height + gapY;
        line.clear();
        lineWidth = 0;
    };
    for (QLayoutItem* item : items_) {
        if (item->isEmpty())
            continue;
        const int w = widthOf(item);
        if (!line.isEmpty() && lineWidth + gapX + w > area.width())
            placeLine();
        lineWidth += (line.isEmpty() ? 0 : gapX) + w;
        line << item;
    }
    placeLine();
    const int used = y == area.y() ? 0 : y - area.y() - gapY;
    return used + contentsMargins().top() + contentsMargins().bottom();
}

} // namespace rlda::widgets
