// ActionHeatmap: the action space of a simulation table as a colour map, one cell per sequence,
// coloured by its final accuracy, with the optimal sequence starred and the selected one framed.
// Rows are the first k/2 actions (rounded down), columns the rest, both as base-(n+1) numbers, so
// cell (column, row) of a1..ak is (tail code, head code).
#pragma once

#include "core/model/actions.h"

#include "core/table/table.h"
#include "widgets/plot_export.h"

#include <QPoint>
#include <QSize>
#include <QWidget>

#include <optional>
#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCustomPlot;

namespace rlda::widgets {

class ActionHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit ActionHeatmap(QWidget* parent = nullptr);

    // The table drawn; nullptr draws none. It must live until the next setTable().
    // `actions`: what the action numbers mean, for the labels; nullopt = the paper's.
    // `bestSet`: a replicated table's 95 % confidence set for the best (TableTrust's best_set),
    // each marked with a hollow star and a frame instead of the single star of the optimal; empty
    // for a table of one seed, whose optimal is starred.
    void setTable(const core::sim::SimulationTable* table,
                  const std::optional<core::model::ActionSpace>& actions = std::nullopt,
                  std::vector<std::vector<int>> bestSet = {});
    // The cells marked as in the 95 % confidence set for the best; empty for a single-seed table.
    std::vector<QPoint> bestSetCells() const;
    QCustomPlot* plot() const { return plot_; }
    QCPColorScale* colorScale() const { return scale_; } // its axis in percent, as the table reads

    QSize cells() const; // columns × rows; empty without a table
    QPoint cellOf(const std::vector<int>& sequence) const; // (-1, -1) for a sequence of another length
    std::vector<int> sequenceAt(QPoint cell) const;        // empty outside the map
    // The colour map's value there; nullopt for a sequence missing from a partial table.
    std::optional<double> cellAccuracy(QPoint cell) const;
    QPoint optimalCell() const;  // (-1, -1) when none
    QPoint selectedCell() const; // (-1, -1) when none

    // Frames the sequence's cell, or none.
    void setSelected(const std::optional<std::vector<int>>& sequence);

    QString exportTo(const QString& path, const ExportSettings& settings = {});

Q_SIGNALS:
    void cellClicked(QPoint cell);

private:
    void rebuild();
    QPoint cellAt(QPointF pixel) const;
    QPoint markerCell(const QCPItemRect* marker) const;

    const core::sim::SimulationTable* table_ = nullptr;
    std::optional<core::model::ActionSpace> actions_;
    std::vector<std::vector<int>> bestSet_;
    int rowDigits_ = 0;
    QCustomPlot* plot_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPItemRect* optimalMarker_ = nullptr;
    QCPItemRect* selectionMarker_ = nullptr;
};

} // namespace rlda::widgets
