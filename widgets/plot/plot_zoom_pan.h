// PlotZoomPan: how the user moves the view. Dragging pans and the wheel zooms, the x axis and every
// value axis together (QCustomPlot's own interactions). Until the user does either, the plot
// follows its data: each refresh fits the ranges to it; a double click fits them and follows again.
#pragma once

#include <QList>
#include <QObject>

#include <functional>

class QCPAxis;
class QCustomPlot;

namespace rlda::widgets {

class PlotZoomPan : public QObject {
public:
    // `userMovedX`: the user changed the x range (the points in view change); `fitRequested`: a
    // double click.
    PlotZoomPan(QCustomPlot* plot, std::function<void()> userMovedX, std::function<void()> fitRequested,
                QObject* parent = nullptr);

    // The value axes that pan and zoom with x; a user's change to any of them stops following.
    void setValueAxes(const QList<QCPAxis*>& axes);

    bool following() const { return following_; }
    void follow() { following_ = true; }

    // Range changes between begin() and end() are the plot's own, not the user's.
    void begin() { updating_ = true; }
    void end() { updating_ = false; }

    // While following: x to [lo, hi] and 2% beyond hi (a point's width around a single key).
    // Returns whether the range changed.
    bool followX(double lo, double hi);
    // While following: each axis to the value range its visible graphs draw within the x range,
    // 6% beyond either end.
    void followValues(const QList<QCPAxis*>& axes);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void userChanged();

    QCustomPlot* plot_;
    std::function<void()> userMovedX_;
    std::function<void()> fitRequested_;
    QList<QCPAxis*> watched_;
    bool following_ = true;
    bool updating_ = false;
};

} // namespace rlda::widgets
