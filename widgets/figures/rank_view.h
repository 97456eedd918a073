// RankView: where a policy's greedy sequences stand on several tables at once, as a grid of rank
// charts above a summary table (the second half of the policy inspector).
#pragma once

#include "widgets/figures/rank_chart.h"
#include "widgets/plot_export.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace rlda::widgets {

class RankView : public QWidget {
    Q_OBJECT
public:
    enum Column {
        ScenarioColumn = 0,
        GreedyColumn,
        RankColumn,
        AccuracyColumn,
        RegretColumn,
        OptimalColumn,
        NoAdaptationColumn,
        RandomMeanColumn,
        ColumnCount
    };
    // Item data role holding the raw number (double, or int for the rank) behind a cell's text.
    static constexpr int ValueRole = Qt::UserRole;

    explicit RankView(QWidget* parent = nullptr);

    void setTables(std::vector<RankedTable> tables);
    const std::vector<RankedTable>& tables() const { return tables_; }
    void clear() { setTables({}); }
    // The grid's title ("Ranks of the greedy sequences" unless set).
    void setTitle(const QString& title);

    QCustomPlot* plot() const { return plot_; }
    QTableWidget* summary() const { return summary_; }
    // The parts of each chart, in the order of tables().
    const std::vector<RankChartParts>& charts() const { return charts_; }

    // Writes the whole chart grid through exportPlot; an empty string on success, else the reason.
    QString exportTo(const QString& path, const ExportSettings& settings = {QSize(1200, 700), 150});

Q_SIGNALS:
    // A summary row was picked: the index into tables().
    void tableActivated(int index);

private:
    void rebuild();
    void exportWithDialog();

    std::vector<RankedTable> tables_;
    std::vector<RankChartParts> charts_;
    QString title_;
    QLabel* header_ = nullptr;
    QPushButton* export_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QTableWidget* summary_ = nullptr;
};

} // namespace rlda::widgets
