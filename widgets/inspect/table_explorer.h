// Simulation-table explorer: every action sequence sortable and filterable, and a heatmap of the
// action space that shows where the good sequences lie. The parts live apart: the item model
// (simulation_table_model.h), the filter (sequence_filter_proxy.h) and the heatmap
// (action_heatmap.h); this widget lays them out and keeps the table's selection and the map's in step.
#pragma once

#include "core/table/table.h"
#include "widgets/inspect/simulation_table_model.h"
#include "widgets/plot_export.h"

#include <QPoint>
#include <QWidget>

#include <optional>
#include <vector>

class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace rlda::widgets {

class ActionHeatmap;
class SequenceFilterProxy;
class SortedAccuracyChart;

class TableExplorer : public QWidget {
    Q_OBJECT
public:
    explicit TableExplorer(QWidget* parent = nullptr);

    // `actions`: what the action numbers mean (OpenedTable::actions), for the sequences' text and
    // the heatmap's labels; nullopt = the paper's numbers.
    // `trust`: what a replicated table's seeds say (core::sim::table_trust), computed off the GUI
    // thread: the table's seed columns, the heatmap's best set, the sorted chart's error bars and
    // the reliability line. Without it a replicated table shows its means only.
    void setTable(const core::sim::SimulationTable& table, const QString& name,
                  const std::optional<core::model::ActionSpace>& actions = std::nullopt,
                  core::sim::TableTrust trust = {});
    void clear();
    const std::optional<core::sim::SimulationTable>& table() const { return model_->table(); }

    // `pattern`: action tokens with * or ? for any action ("2 0 *", "2" = starts with 2), or
    // otherwise a regular expression searched in the sequence text "2 0 3". `minAccuracy` is a
    // fraction. Returns false (and filters by accuracy alone) for an invalid regex.
    bool setFilter(const QString& pattern, double minAccuracy = 0.0);
    int visibleRowCount() const;

    // The table is a QTableView named "tableView" over the filter (a QSortFilterProxyModel) of
    // this model; the baselines a QLabel named "baselines"; the map an ActionHeatmap, the sorted
    // view a SortedAccuracyChart (one of each).
    SimulationTableModel* sourceModel() const { return model_; }
    QCustomPlot* heatmap() const;
    // The heatmap's cells of the sequences in the 95 % confidence set for the best (replicated tables).
    std::vector<QPoint> bestSetCells() const;

    // The heatmap (ActionHeatmap): rows are the first k/2 actions (rounded down), columns the
    // rest, both as base-(n+1) numbers, so cell (column, row) of a1..ak is (tail code, head code).
    QPoint cellOf(const std::vector<int>& sequence) const;
    std::vector<int> sequenceAt(QPoint cell) const;
    // The colour map's value there; nullopt for a sequence missing from a partial table.
    std::optional<double> cellAccuracy(QPoint cell) const;
    // Where the optimal marker is drawn; (-1, -1) when none.
    QPoint optimalCell() const;
    // Where the selection marker is drawn; (-1, -1) when none.
    QPoint selectedCell() const;

    // The selected table row's sequence, if any.
    std::optional<std::vector<int>> selectedSequence() const;

    QString exportHeatmap(const QString& path, const ExportSettings& settings = {});

Q_SIGNALS:
    // A row was selected, in the table or through the heatmap; `tableRow` indexes table()->rows().
    void sequenceSelected(int tableRow);

private:
    // A click on the heatmap's cell: selects its row in the table (clearing a filter that hides
    // it). False for a cell outside the map or a sequence the table lacks.
    bool selectCell(QPoint cell);
    void applyFilter();
    void onSelectionChanged();
    void updateStatus();

    SimulationTableModel* model_ = nullptr;
    SequenceFilterProxy* proxy_ = nullptr;
    QString name_;
    std::optional<core::model::ActionSpace> actions_;

    QLabel* baselines_ = nullptr;
    QLineEdit* filterEdit_ = nullptr;
    QDoubleSpinBox* minAccuracy_ = nullptr;
    QLabel* status_ = nullptr;
    QTableView* view_ = nullptr;
    ActionHeatmap* heatmap_ = nullptr;
    SortedAccuracyChart* sorted_ = nullptr;
};

} // namespace rlda::widgets
