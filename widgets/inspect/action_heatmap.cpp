// ActionHeatmap: the colour map, its group lines, ticks and markers, and the pointer over it.
#include "widgets/inspect/action_heatmap.h"

#include "widgets/inspect/table_text.h"
#include "widgets/qcp.h"

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlda::widgets {
namespace {

int ipow(int base, int exp)
{
    int r = 1;
    for (int i = 0; i < exp; ++i)
        r *= base;
    return r;
}

// Perceptually uniform (viridis stops): accuracy differences read the same across the range, and
// the best cells are the brightest.
QCPColorGradient accuracyGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    g.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
    g.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
    g.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
    g.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

// The colour bar in the table's unit: an accuracy of 0.745 reads 74.5 (%), as the table shows it.
class PercentTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override
    {
        return locale.toString(tick * 100.0, formatChar.toLatin1(), std::max(0, precision - 2));
    }
};

} // namespace

ActionHeatmap::ActionHeatmap(QWidget* parent)
    : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("heatmap"));
    plot_->setMinimumSize(360, 260);
    plot_->setMouseTracking(true); // hover tooltips name the cell under the pointer
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->axis()->setLabel(tr("test accuracy (%)"));
    scale_->axis()->setTicker(QSharedPointer<PercentTicker>::create());
    map_->setColorScale(scale_);
    map_->setGradient(accuracyGradient());
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    // Missing sequences of a partial table are transparent: a hatch behind them says "no data".
    plot_->axisRect()->setBackground(QBrush(QColor(0xbb, 0xbb, 0xbb), Qt::BDiagPattern));
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    plot_->yAxis->setRangeReversed(true); // the first action's 0 on top, as the table reads

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);

    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (!plot_->axisRect()->rect().contains(event->position().toPoint()))
            return;
        Q_EMIT cellClicked(cellAt(event->position()));
    });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QPointF pos = event->position();
        const QPoint cell = cellAt(pos);
        const auto seq = plot_->axisRect()->rect().contains(pos.toPoint()) ? sequenceAt(cell) : std::vector<int>{};
        if (seq.empty()) {
            QToolTip::hideText();
            return;
        }
        const auto acc = cellAccuracy(cell);
        QString text = sequenceText(seq, actions_) + QStringLiteral(": ") + (acc ? percentText(*acc) : tr("not in the table"));
        if (acc)
            text += tr(", rank %1").arg(table_->rank(seq));
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
    });

    rebuild();
}

void ActionHeatmap::setTable(const core::sim::SimulationTable* table,
                             const std::optional<core::model::ActionSpace>& actions,
                             std::vector<std::vector<int>> bestSet)
{
    table_ = table;
    actions_ = actions;
    bestSet_ = std::move(bestSet);
    rowDigits_ = table ? table->decisions() / 2 : 0;
    rebuild();
}

QPoint ActionHeatmap::cellAt(QPointF pixel) const
{
    return {static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(pixel.x()))),
            static_cast<int>(std::lround(plot_->yAxis->pixelToCoord(pixel.y())))};
}

QSize ActionHeatmap::cells() const
{
    if (!table_)
        return {0, 0};
    const int m = table_->num_actions();
    const int k = table_->decisions();
    return {ipow(m, k - rowDigits_), ipow(m, rowDigits_)};
}

QPoint ActionHeatmap::cellOf(const std::vector<int>& sequence) const
{
    if (!table_ || static_cast<int>(sequence.size()) != table_->decisions())
        return {-1, -1};
    const int m = table_->num_actions();
    int row = 0, col = 0;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
        int& code = static_cast<int>(i) < rowDigits_ ? row : col;
        code = code * m + sequence[i];
    }
    return {col, row};
}

std::vector<int> ActionHeatmap::sequenceAt(QPoint cell) const
{
    const QSize size = cells();
    if (cell.x() < 0 || cell.y() < 0 || cell.x() >= size.width() || cell.y() >= size.height())
        return {};
    const int m = table_->num_actions();
    const int k = table_->decisions();
    std::vector<int> seq(static_cast<std::size_t>(k));
    int row = cell.y(), col = cell.x();
    for (int i = k; i-- > 0;) {
        int& code = i < rowDigits_ ? row : col;
        seq[static_cast<std::size_t>(i)] = code % m;
        code /= m;
    }
    return seq;
}

std::optional<double> ActionHeatmap::cellAccuracy(QPoint cell) const
{
    const QSize size = cells();
    if (cell.x() < 0 || cell.y() < 0 || cell.x() >= size.width() || cell.y() >= size.height())
        return std::nullopt;
    const double v = map_->data()->cell(cell.x(), cell.y());
    if (std::isnan(v))
        return std::nullopt;
    return v;
}

QPoint ActionHeatmap::markerCell(const QCPItemRect* marker) const
{
    if (!marker || !marker->visible())
        return {-1, -1};
    const double x = (marker->topLeft->coords().x() + marker->bottomRight->coords().x()) / 2.0;
    const double y = (marker->topLeft->coords().y() + marker->bottomRight->coords().y()) / 2.0;
    return {static_cast<int>(std::lround(x)), static_cast<int>(std::lround(y))};
}

QPoint ActionHeatmap::optimalCell() const { return markerCell(optimalMarker_); }
QPoint ActionHeatmap::selectedCell() const { return markerCell(selectionMarker_); }

void ActionHeatmap::rebuild()
{
    plot_->clearItems();
    optimalMarker_ = nullptr;
    auto xTicker = qSharedPointerCast<QCPAxisTickerText>(plot_->xAxis->ticker());
    auto yTicker = qSharedPointerCast<QCPAxisTickerText>(plot_->yAxis->ticker());
    xTicker->clear();
    yTicker->clear();

    selectionMarker_ = new QCPItemRect(plot_);
    selectionMarker_->setPen(QPen(QColor(0xe0, 0x20, 0x20), 2.0, Qt::SolidLine));
    selectionMarker_->setBrush(Qt::NoBrush);
    selectionMarker_->setVisible(false);

    const QSize size = cells();
    if (size.isEmpty()) {
        map_->data()->clear();
        map_->setVisible(false);
        scale_->setVisible(false);
        plot_->xAxis->setLabel(QString());
        plot_->yAxis->setLabel(QString());
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const auto& t = *table_;
    const int m = t.num_actions();
    const int k = t.decisions();
    const int cols = size.width(), rows = size.height();

    map_->setVisible(true);
    scale_->setVisible(true);
    map_->data()->setSize(cols, rows);
    map_->data()->setRange(QCPRange(0, cols - 1), QCPRange(0, rows - 1));
    map_->data()->fill(std::numeric_limits<double>::quiet_NaN());
    double lo = 1.0, hi = 0.0;
    for (const auto& r : t.rows()) {
        const QPoint c = cellOf(r.actions);
        map_->data()->setCell(c.x(), c.y(), r.accuracy);
        lo = std::min(lo, r.accuracy);
        hi = std::max(hi, r.accuracy);
    }
    if (lo > hi)
        lo = hi = 0.5;
    if (hi - lo < 1e-3) { // a flat table still needs a range to colour
        lo -= 5e-4;
        hi += 5e-4;
    }
    map_->setDataRange(QCPRange(lo, hi));
    // 1×N single-row maps (one decision) need a cell-sized range of 1 to draw.
    plot_->xAxis->setRange(-0.5, cols - 0.5);
    plot_->yAxis->setRange(-0.5, rows - 0.5);

    // A cell's actions: side by side for a row, one above the other for a column, so that the
    // columns' labels never run into each other ("0 0 0 1 0 2" read as one).
    auto label = [this, m](int code, int digits, QChar separator) {
        QStringList parts;
        std::vector<int> d(static_cast<std::size_t>(digits));
        for (int i = digits; i-- > 0;) {
            d[static_cast<std::size_t>(i)] = code % m;
            code /= m;
        }
        for (int v : d)
            parts << actionText(v, actions_);
        return parts.join(separator);
    };
    const int colDigits = k - rowDigits_;
    // Past 16 cells a side every label no longer fits: label the group starts, which the group
    // lines below delimit, and leave the rest to the tooltip.
    const int colStep = cols > 16 ? m : 1;
    const int rowStep = rows > 16 ? m : 1;
    for (int c = 0; c < cols; c += colStep)
        xTicker->addTick(c, label(c, colDigits, QLatin1Char('\n')));
    for (int r = 0; r < rows && rowDigits_ > 0; r += rowStep)
        yTicker->addTick(r, label(r, rowDigits_, QLatin1Char(' ')));
    plot_->xAxis->setSubTicks(false);
    plot_->yAxis->setSubTicks(false);
    QStringList xNames, yNames;
    for (int i = 0; i < k; ++i)
        (i < rowDigits_ ? yNames : xNames) << QStringLiteral("a%1").arg(i + 1);
    const bool named = actions_ && !actions_->deepen_only();
    plot_->xAxis->setLabel(xNames.join(QLatin1Char(' ')) +
                           (named ? tr("   (d = deepen, w = widen block i; - = do nothing)")
                                  : tr("   (%1 = do nothing)").arg(t.do_nothing())));
    plot_->yAxis->setLabel(yNames.join(QLatin1Char(' ')));

    // Lines between groups of the slower-changing column (row) action make the nesting legible.
    const QPen groupPen(QColor(255, 255, 255, 200), 1.5);
    if (colDigits > 1)
        for (int g = m; g < cols; g += m) {
            auto* line = new QCPItemLine(plot_);
            line->start->setCoords(g - 0.5, -0.5);
            line->end->setCoords(g - 0.5, rows - 0.5);
            line->setPen(groupPen);
        }
    if (rowDigits_ > 1)
        for (int g = m; g < rows; g += m) {
            auto* line = new QCPItemLine(plot_);
            line->start->setCoords(-0.5, g - 0.5);
            line->end->setCoords(cols - 0.5, g - 0.5);
            line->setPen(groupPen);
        }

    if (!bestSet_.empty()) {
        // A replicated table: every sequence its seeds cannot tell from the best, alike.
        for (const auto& seq : bestSet_) {
            const QPoint c = cellOf(seq);
            auto* frame = new QCPItemRect(plot_);
            frame->topLeft->setCoords(c.x() - 0.5, c.y() - 0.5);
            frame->bottomRight->setCoords(c.x() + 0.5, c.y() + 0.5);
            frame->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
            frame->setBrush(Qt::NoBrush);
            auto* star = new QCPItemText(plot_);
            star->position->setCoords(c.x(), c.y());
            star->setText(QStringLiteral("☆"));
            star->setColor(Qt::black);
        }
    } else if (!t.rows().empty()) {
        const QPoint c = cellOf(t.optimal().actions);
        optimalMarker_ = new QCPItemRect(plot_);
        optimalMarker_->topLeft->setCoords(c.x() - 0.5, c.y() - 0.5);
        optimalMarker_->bottomRight->setCoords(c.x() + 0.5, c.y() + 0.5);
        optimalMarker_->setPen(QPen(Qt::black, 2.5));
        optimalMarker_->setBrush(Qt::NoBrush);
        auto* optimalStar = new QCPItemText(plot_);
        optimalStar->position->setCoords(c.x(), c.y());
        optimalStar->setText(QStringLiteral("★"));
        optimalStar->setColor(Qt::black);
        QFont f = optimalStar->font();
        f.setPointSizeF(f.pointSizeF() * 1.2);
        optimalStar->setFont(f);
    }
    // Drawn last so that it sits on top of the optimal marker when both fall on one cell.
    selectionMarker_->setLayer(QStringLiteral("overlay"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ActionHeatmap::setSelected(const std::optional<std::vector<int>>& sequence)
{
    if (!selectionMarker_)
        return;
    if (!sequence) {
        selectionMarker_->setVisible(false);
    } else {
        const QPoint c = cellOf(*sequence);
        selectionMarker_->topLeft->setCoords(c.x() - 0.5, c.y() - 0.5);
        selectionMarker_->bottomRight->setCoords(c.x() + 0.5, c.y() + 0.5);
        selectionMarker_->setVisible(true);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::vector<QPoint> ActionHeatmap::bestSetCells() const
{
    std::vector<QPoint> cells;
    for (const auto& seq : bestSet_)
        cells.push_back(cellOf(seq));
    return cells;
}

QString ActionHeatmap::exportTo(const QString& path, const ExportSettings& settings)
{
    // The user's selected cell is a pointer on screen, not part of the figure.
    const bool selected = selectionMarker_ && selectionMarker_->visible();
    if (selected)
        selectionMarker_->setVisible(false);
    QString error = widgets::exportPlot(*plot_, path, settings);
    if (selected)
        selectionMarker_->setVisible(true);
    return error;
}

} // namespace rlda::widgets
