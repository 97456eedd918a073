// The scheduler's allocation events on the budget's time axis, edited with the mouse and keyboard.
#pragma once

#include "core/config/experiment.h"

#include <QMap>
#include <QString>
#include <QWidget>

#include <vector>

namespace rlda::widgets {

// Markers on a horizontal time axis [0, budget]: "up" a green triangle above the axis, "down" a
// red one below. Drag a marker to move it (snapped to 0.5 s, kept inside the budget), double-click
// empty space to add an "up", right-click for add / flip / delete, Del deletes the selected one.
// The order of events() is the order they were set or added in, never re-sorted, so that
// "scheduler.events[i]" keeps naming the same marker while it is dragged past another.
class AllocationTimeline : public QWidget {
    Q_OBJECT
public:
    using Event = core::config::AllocationEventConfig;
    static constexpr double kSnap = 0.5; // seconds

    explicit AllocationTimeline(QWidget* parent = nullptr);

    void setBudget(double seconds);
    double budget() const { return budget_; }
    void setEvents(std::vector<Event> events); // no eventsChanged()
    const std::vector<Event>& events() const { return events_; }

    void setSelectedEvent(int index); // -1: none; selectionChanged() tells every change

    // Markers drawn as faulty, with the reason as their tooltip (index -> reason).
    void setEventProblems(const QMap<int, QString>& problems);

    // Geometry, public for tests and for placing things over the axis.
    double xForTime(double t) const;
    double timeForX(double x) const;    // unsnapped
    QPointF markerCenter(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Editing by code, as the menu does it; each emits eventsChanged().
    int addEvent(double time, core::config::Change change); // returns its index
    void removeEvent(int index);
    void flipEvent(int index);

Q_SIGNALS:
    void eventsChanged();
    void selectionChanged(int index);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    bool event(QEvent*) override;

private:
    double axisEnd() const;     // budget, or further when an event lies past it
    double axisY() const;
    double latestAllowed() const; // the last snapped time inside [0, budget)
    double snapped(double t) const;
    int hit(const QPointF& pos) const; // marker under pos, -1 when none
    QPolygonF marker(int index) const;

    double budget_ = 60.0;
    std::vector<Event> events_;
    QMap<int, QString> problems_;
    int selected_ = -1;
    int dragging_ = -1;
    double dragOffset_ = 0.0; // pointer x minus marker x at the press, so the marker does not jump
};

} // namespace rlda::widgets
