// Simulation-table explorer: every action sequence sortable and filterable, and a heatmap of the
// action space that shows where the good sequences lie.
#pragma once

#include "core/sim/table.h"
#include "widgets/plot_export.h"

#include <QAbstractTableModel>
#include <QPoint>
#include <QSize>
#include <QWidget>

#include <optional>
#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCPItemText;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace rlda::widgets {

// One row per sequence present in the table (a partial table has fewer than sequences()).
// Columns: a1..ak, sequence, timeleft1..k, accuracy, rank, Δ to optimal.
class SimulationTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole + 1, // raw value: int action / sequence code / double / int rank
        RowRole,                     // int: index into table().rows() (any column)
        SequenceRole,                // QString "2 0 3" (any column)
        OptimalRole,                 // bool: this row is table().optimal() (any column)
    };

    explicit SimulationTableModel(QObject* parent = nullptr);

    void setTable(const core::sim::SimulationTable& table);
    void clear();
    const std::optional<core::sim::SimulationTable>& table() const { return table_; }

    int decisions() const { return table_ ? table_->decisions() : 0; }
    int actionColumn(int i) const { return i; }
    int sequenceColumn() const { return decisions(); }
    int timeLeftColumn(int i) const { return decisions() + 1 + i; }
    int accuracyColumn() const { return 2 * decisions() + 1; }
    int rankColumn() const { return 2 * decisions() + 2; }
    int deltaColumn() const { return 2 * decisions() + 3; }
    int rankOf(int tableRow) const { return ranks_[static_cast<std::size_t>(tableRow)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::optional<core::sim::SimulationTable> table_;
    std::vector<int> ranks_;
    int optimalRow_ = -1;
    double optimal_ = 0.0;
};

class SequenceFilterProxy;

class TableExplorer : public QWidget {
    Q_OBJECT
public:
    explicit TableExplorer(QWidget* parent = nullptr);

    void setTable(const core::sim::SimulationTable& table, const QString& name);
    void clear();
    const std::optional<core::sim::SimulationTable>& table() const { return model_->table(); }

    // `pattern`: action tokens with * or ? for any action ("2 0 *", "2" = starts with 2), or
    // otherwise a regular expression searched in the sequence text "2 0 3". `minAccuracy` is a
    // fraction. Returns false (and filters by accuracy alone) for an invalid regex.
    bool setFilter(const QString& pattern, double minAccuracy = 0.0);
    int visibleRowCount() const;

    SimulationTableModel* sourceModel() const { return model_; }
    QSortFilterProxyModel* proxyModel() const;
    QTableView* tableView() const { return view_; }
    QCustomPlot* heatmap() const { return plot_; }
    QString baselineText() const;

    // The heatmap: rows are the first k/2 actions (rounded down), columns the rest, both as
    // base-(n+1) numbers, so cell (column, row) of a1..ak is (tail code, head code).
    QSize heatmapSize() const; // columns × rows; empty without a table
    int heatmapCellCount() const { return heatmapSize().width() * heatmapSize().height(); }
    QPoint cellOf(const std::vector<int>& sequence) const;
    std::vector<int> sequenceAt(QPoint cell) const;
    // The colour map's value there; nullopt for a sequence missing from a partial table.
    std::optional<double> cellAccuracy(QPoint cell) const;
    // Where the optimal marker is drawn; (-1, -1) when none.
    QPoint optimalCell() const;
    // Where the selection marker is drawn; (-1, -1) when none.
    QPoint selectedCell() const;

    // As a click on the cell: selects its row in the table (clearing a filter that hides it).
    // Returns false for a cell outside the map or a sequence the table lacks.
    bool selectCell(QPoint cell);
    // The selected table row's sequence, if any.
    std::optional<std::vector<int>> selectedSequence() const;

    QString exportHeatmap(const QString& path, const ExportSettings& settings = {});

Q_SIGNALS:
    // A row was selected, in the table or through the heatmap; `tableRow` indexes table()->rows().
    void sequenceSelected(int tableRow);

private:
    void rebuildHeatmap();
    void applyFilter();
    void onSelectionChanged();
    void updateStatus();
    QPoint markerCell(const QCPItemRect* marker) const;

    SimulationTableModel* model_ = nullptr;
    SequenceFilterProxy* proxy_ = nullptr;
    QString name_;
    int rowDigits_ = 0;

    QLabel* baselines_ = nullptr;
    QLineEdit* filterEdit_ = nullptr;
    QDoubleSpinBox* minAccuracy_ = nullptr;
    QLabel* status_ = nullptr;
    QTableView* view_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPItemRect* optimalMarker_ = nullptr;
    QCPItemText* optimalStar_ = nullptr;
    QCPItemRect* selectionMarker_ = nullptr;
};

} // namespace rlda::widgets
