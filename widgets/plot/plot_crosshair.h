// PlotCrosshair: a dashed vertical line under the pointer, a box with every visible series' value
// at that key, and a tracer on each line. It lives on a buffered layer of its own, above the rest:
// moving it repaints only that layer.
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QCPItemStraightLine;
class QCPItemText;
class QCPLayer;
class QCustomPlot;

namespace rlda::widgets {

class PlotCrosshair : public QObject {
public:
    using TextAt = std::function<QString(double x)>;
    using Trace = std::function<void(std::optional<double> x)>; // nullopt: hide the tracers

    PlotCrosshair(QCustomPlot* plot, TextAt textAt, Trace trace, QObject* parent = nullptr);

    QCPLayer* layer() const { return layer_; } // where the series' tracers go

    void show(double x, int pixelX);
    void hide();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QCustomPlot* plot_;
    TextAt textAt_;
    Trace trace_;
    QCPLayer* layer_ = nullptr;
    QCPItemStraightLine* line_ = nullptr;
    QCPItemText* text_ = nullptr;
};

} // namespace rlda::widgets
