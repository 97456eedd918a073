// The scheduler's allocation events on the budget's time axis, edited with the mouse and keyboard.
#include "widgets/run/allocation_timeline.h"

#include "core/config/names.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace rlda::widgets {

using core::config::Change;

namespace {
constexpr double kMargin = 16.0; // room for half a marker and a tick label at either end
constexpr double kMarker = 12.0; // triangle width and height
constexpr double kTop = 6.0;

QString seconds(double t) { return QString::number(t, 'g', 6) + QStringLiteral(" s"); }

QString changeName(Change c) { return QString::fromStdString(core::config::to_string(c)); } // "up", "down"


// 1, 2 or 5 times a power of ten, so that about `count` ticks cover `range`.
double niceStep(double range, int count)
{
    const double raw = range / std::max(count, 1);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw)
            return m * power;
    return 10.0 * power;
}
} // namespace

AllocationTimeline::AllocationTimeline(QWidget* parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Double-click to add an \"up\"; drag a marker to move it; right-click for more; Del deletes"));
}

QSize AllocationTimeline::sizeHint() const { return {420, minimumSizeHint().height()}; }

QSize AllocationTimeline::minimumSizeHint() const
{
    return {200, int(kTop + 2 * kMarker + 12 + fontMetrics().height() + 6)};
}

void AllocationTimeline::setBudget(double seconds)
{
    budget_ = seconds;
    update();
}

void AllocationTimeline::setEvents(std::vector<Event> events)
{
    events_ = std::move(events);
    dragging_ = -1;
    update();
    if (selected_ >= int(events_.size())) {
        selected_ = -1;
        Q_EMIT selectionChanged(selected_);
    }
}

void AllocationTimeline::setSelectedEvent(int index)
{
    if (index < -1 || index >= int(events_.size()))
        index = -1;
    if (index == selected_)
        return;
    selected_ = index;
    update();
    Q_EMIT selectionChanged(selected_);
}

void AllocationTimeline::setEventProblems(const QMap<int, QString>& problems)
{
    problems_ = problems;
    update();
}

double AllocationTimeline::axisEnd() const
{
    double end = std::isfinite(budget_) && budget_ > 0.0 ? budget_ : 1.0;
    for (const auto& e : events_)
        if (std::isfinite(e.time))
            end = std::max(end, e.time * 1.05); // an event past the budget stays visible
    return end;
}

double AllocationTimeline::axisY() const { return kTop + kMarker + 3.0; }

double AllocationTimeline::xForTime(double t) const
{
    const double w = std::max(1.0, width() - 2 * kMargin);
    return kMargin + std::clamp(t / axisEnd(), -0.02, 1.02) * w;
}

double AllocationTimeline::timeForX(double x) const
{
    const double w = std::max(1.0, width() - 2 * kMargin);
    return (x - kMargin) / w * axisEnd();
}

double AllocationTimeline::latestAllowed() const
{
    // Events must lie in [0, budget): the last snapped time strictly before the budget.
    if (!(budget_ > 0.0))
        return 0.0;
    const double last = std::ceil(budget_ / kSnap) * kSnap - kSnap;
    return std::max(0.0, last);
}

double AllocationTimeline::snapped(double t) const
{
    return std::clamp(std::round(t / kSnap) * kSnap, 0.0, latestAllowed());
}

QPointF AllocationTimeline::markerCenter(int index) const
{
    const auto& e = events_.at(std::size_t(index));
    const double dy = kMarker / 2 + 2.0;
    return {xForTime(e.time), e.change == Change::Up ? axisY() - dy : axisY() + dy};
}

QPolygonF AllocationTimeline::marker(int index) const
{
    const QPointF c = markerCenter(index);
    const double h = kMarker / 2;
    if (events_[std::size_t(index)].change == Change::Up)
        return QPolygonF({QPointF(c.x(), c.y() - h), QPointF(c.x() + h, c.y() + h), QPointF(c.x() - h, c.y() + h)});
    return QPolygonF({QPointF(c.x(), c.y() + h), QPointF(c.x() + h, c.y() - h), QPointF(c.x() - h, c.y() - h)});
}

int AllocationTimeline::hit(const QPointF& pos) const
{
    // The selected marker wins, then the nearest: markers at the same time overlap.
    int best = -1;
    double bestDistance = kMarker; // a little more than the triangle, for a forgiving grab
    for (int i = 0; i < int(events_.size()); ++i) {
        const QPointF d = pos - markerCenter(i);
        const double distance = std::hypot(d.x(), d.y()) - (i == selected_ ? 0.5 : 0.0);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

int AllocationTimeline::addEvent(double time, Change change)
{
    events_.push_back({snapped(time), change});
    selected_ = int(events_.size()) - 1;
    update();
    Q_EMIT eventsChanged();
    Q_EMIT selectionChanged(selected_);
    return selected_;
}

void AllocationTimeline::removeEvent(int index)
{
    if (index < 0 || index >= int(events_.size()))
        return;
    events_.erase(events_.begin() + index);
    problems_.clear(); // indices moved; the owner sets them again after eventsChanged()
    if (selected_ == index)
        selected_ = -1;
    else if (selected_ > index)
        --selected_;
    update();
    Q_EMIT eventsChanged();
    Q_EMIT selectionChanged(selected_);
}

void AllocationTimeline::flipEvent(int index)
{
    if (index < 0 || index >= int(events_.size()))
        return;
    auto& c = events_[std::size_t(index)].change;
    c = c == Change::Up ? Change::Down : Change::Up;
    update();
    Q_EMIT eventsChanged();
}

void AllocationTimeline::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const double y = axisY();
    const double x0 = xForTime(0.0);
    const double xEnd = xForTime(axisEnd());
    const bool budgetOk = std::isfinite(budget_) && budget_ > 0.0;
    const double xBudget = budgetOk ? xForTime(budget_) : xEnd;

    p.fillRect(rect(), pal.base());
    if (xBudget < xEnd - 0.5) // events past the budget: the part of the axis that does not exist
        p.fillRect(QRectF(xBudget, 1, xEnd - xBudget + kMargin / 2, height() - 2), QColor(0xd3, 0x2f, 0x2f, 40));

    // Axis with ticks and labels.
    p.setPen(QPen(pal.color(QPalette::Text), 1.2));
    p.drawLine(QPointF(x0, y), QPointF(xBudget, y));
    const QFontMetrics fm = fontMetrics();
    const double step = niceStep(axisEnd(), std::max(2, int((xEnd - x0) / (fm.horizontalAdvance(QStringLiteral("0000")) + 24))));
    double lastLabelRight = -1e9;
    for (int i = 0;; ++i) {
        const double t = i * step;
        if (t > axisEnd() + 1e-9)
            break;
        const double x = xForTime(t);
        p.setPen(QPen(pal.color(QPalette::Mid), 1));
        p.drawLine(QPointF(x, y - 3), QPointF(x, y + 3));
        const QString label = QString::number(t, 'g', 6);
        const double w = fm.horizontalAdvance(label);
        if (x - w / 2 > lastLabelRight + 4) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QPointF(x - w / 2, y + kMarker + 6 + fm.ascent()), label);
            lastLabelRight = x + w / 2;
        }
    }
    if (budgetOk) {
        p.setPen(QPen(pal.color(QPalette::Text), 2));
        p.drawLine(QPointF(xBudget, y - 6), QPointF(xBudget, y + 6));
    }

    // Markers, the selected one last so that it is on top.
    std::vector<int> order(events_.size());
    for (int i = 0; i < int(order.size()); ++i)
        order[std::size_t(i)] = i;
    if (selected_ >= 0)
        std::stable_partition(order.begin(), order.end(), [&](int i) { return i != selected_; });
    for (int i : order) {
        const bool up = events_[std::size_t(i)].change == Change::Up;
        const QColor fill = up ? QColor(0x2e, 0x9e, 0x44) : QColor(0xd3, 0x2f, 0x2f);
        const double x = markerCenter(i).x();
        p.setPen(QPen(fill.lighter(130), 1, Qt::DotLine));
        p.drawLine(QPointF(x, kTop), QPointF(x, y + kMarker + 3));
        QPen outline(fill.darker(150), 1);
        if (problems_.contains(i))
            outline = QPen(QColor(0xb0, 0x00, 0x20), 2.5);
        if (i == selected_)
            outline = QPen(pal.color(QPalette::Highlight), 2.5);
        p.setPen(outline);
        p.setBrush(fill);
        p.drawPolygon(marker(i));
    }

    // A red frame when the owner marks the whole setting as faulty (dynamic property "problem").
    if (property("problem").toBool()) {
        p.setPen(QPen(QColor(0xd3, 0x2f, 0x2f), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 3, 3);
    } else if (hasFocus()) {
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    } else {
        p.setPen(QPen(pal.color(QPalette::Mid), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    }
}

void AllocationTimeline::mousePressEvent(QMouseEvent* e)
{
    const int i = hit(e->position());
    if (e->button() == Qt::LeftButton) {
        setSelectedEvent(i);
        dragging_ = i;
        if (i >= 0)
            dragOffset_ = e->position().x() - markerCenter(i).x();
    }
    QWidget::mousePressEvent(e);
}

void AllocationTimeline::mouseMoveEvent(QMouseEvent* e)
{
    if (dragging_ >= 0 && (e->buttons() & Qt::LeftButton)) {
        const double t = snapped(timeForX(e->position().x() - dragOffset_));
        auto& ev = events_[std::size_t(dragging_)];
        if (t != ev.time) {
            ev.time = t;
            update();
            Q_EMIT eventsChanged();
        }
        return;
    }
    setCursor(hit(e->position()) >= 0 ? Qt::SizeHorCursor : Qt::ArrowCursor);
}

void AllocationTimeline::mouseReleaseEvent(QMouseEvent* e)
{
    dragging_ = -1;
    QWidget::mouseReleaseEvent(e);
}

void AllocationTimeline::mouseDoubleClickEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton && hit(e->position()) < 0)
        addEvent(timeForX(e->position().x()), Change::Up);
}

void AllocationTimeline::keyPressEvent(QKeyEvent* e)
{
    if (selected_ >= 0 && (e->key() == Qt::Key_Delete || e->key() == Qt::Key_Backspace)) {
        removeEvent(selected_);
        return;
    }
    if (selected_ >= 0 && (e->key() == Qt::Key_Left || e->key() == Qt::Key_Right)) {
        auto& ev = events_[std::size_t(selected_)];
        const double t = snapped(ev.time + (e->key() == Qt::Key_Left ? -kSnap : kSnap));
        if (t != ev.time) {
            ev.time = t;
            update();
            Q_EMIT eventsChanged();
        }
        return;
    }
    QWidget::keyPressEvent(e);
}

void AllocationTimeline::contextMenuEvent(QContextMenuEvent* e)
{
    const int i = hit(e->pos());
    const double t = timeForX(e->pos().x());
    QMenu menu(this);
    if (i >= 0) {
        setSelectedEvent(i);
        const Change flipped = events_[std::size_t(i)].change == Change::Up ? Change::Down : Change::Up;
        menu.addAction(tr("Flip to \"%1\"").arg(changeName(flipped)), this, [this, i] { flipEvent(i); });
        menu.addAction(tr("Delete"), this, [this, i] { removeEvent(i); });
    } else {
        for (const Change c : {Change::Up, Change::Down})
            menu.addAction(tr("Add \"%1\" at %2").arg(changeName(c), seconds(snapped(t))), this,
                           [this, t, c] { addEvent(t, c); });
    }
    menu.exec(e->globalPos());
}

bool AllocationTimeline::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = hit(help->pos());
        if (i >= 0) {
            const auto& ev = events_[std::size_t(i)];
            QString text = tr("%1 at %2 (event %3)")
                               .arg(changeName(ev.change), seconds(ev.time))
                               .arg(i + 1);
            if (problems_.contains(i))
                text += QStringLiteral("\n") + problems_.value(i);
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
    }
    return QWidget::event(e);
}

} // namespace rlda::widgets
