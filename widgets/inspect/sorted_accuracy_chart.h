// Every sequence of a simulation table, best to worst: its accuracy, and for a replicated table the
// spread of its seeds (an error bar of ± one standard deviation and a dot per seed), so that how
// far apart the top sequences really are shows at a glance. The Tables page's second view.
#pragma once

#include "core/table/table.h"
#include "widgets/plot_export.h"

#include <QWidget>

#include <vector>

class QCustomPlot;

namespace rlda::widgets {

class SortedAccuracyChart : public QWidget {
    Q_OBJECT
public:
    explicit SortedAccuracyChart(QWidget* parent = nullptr);

    // `sd`: each row's standard deviation over the seeds (table.rows() order), empty for none.
    void setTable(const core::sim::SimulationTable* table, const std::vector<double>& sd = {});
    // The drawing surface: a graph named (objectName) "seed" per seed, the means' graph "means",
    // and, with standard deviations, their QCPErrorBars "errorBars".
    QCustomPlot* plot() const { return plot_; }

    QString exportTo(const QString& path, const ExportSettings& settings = {});

private:
    QCustomPlot* plot_ = nullptr;
};

} // namespace rlda::widgets
