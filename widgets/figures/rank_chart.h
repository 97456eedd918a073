// Rank charts (the paper's figures 10 and 11): every sequence of a simulation table as a bar, best
// to worst, the policy's greedy sequence highlighted, and the baselines it has to beat.
#pragma once

#include "core/table/results.h"
#include "core/table/table.h"

#include <QColor>
#include <QString>

#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPBars;
class QCPErrorBars;
class QCPGraph;
class QCPItemText;
class QCPLegend;
class QCPLayoutGrid;
class QCPAxis;

namespace rlda::widgets {

// One table with one policy's evaluation on it: plain values, drawable on screen or offscreen.
struct RankedTable {
    QString model;    // "ConvNet2"
    QString scenario; // "early"
    QString agent;    // where the policy came from (a run folder's name, a policy file); may be empty
    std::vector<core::sim::TableRow> rows;
    core::sim::Evaluation evaluation;
    std::vector<int> noAdaptation; // the table's every-decision Do Nothing (SimulationTable::no_adaptation_sequence)

    // "ConvNet2 early", with " · agent" when asked and the agent is named.
    QString title(bool withAgent = true) const;
};

// Builds a RankedTable from a loaded table (copies its rows).
RankedTable makeRankedTable(const QString& model, const QString& scenario, const QString& agent,
                            const core::sim::SimulationTable& table, const core::sim::Evaluation& evaluation);

// Row indices of `rows` from best to worst accuracy. Among equal accuracies `first` (the greedy
// sequence) comes first, so that its position is rank - 1 as SimulationTable::rank() counts ties.
std::vector<int> rankOrder(const std::vector<core::sim::TableRow>& rows, const std::vector<int>& first = {});

// "greedy 2 0 3 — rank 5/64", and for a replicated table (add_seed_statistics) " (95 %: 3–9)".
QString greedyLabel(const core::sim::Evaluation& evaluation);
// A row's standard deviation over a replicated table's seeds (TableRow::replicates); 0 for one seed.
double seedSpread(const core::sim::TableRow& row);
// The same of the row of `sequence` in `table`; 0 when it is missing.
double seedSpread(const RankedTable& table, const std::vector<int>& sequence);

// The series' colours, shared by every figure so that a baseline looks the same everywhere.
namespace palette {
QColor sequences();
QColor greedy();
QColor optimal();
QColor noAdaptation();
QColor randomMean();
QColor run(int index); // one colour per learning run
} // namespace palette

struct RankChartOptions {
    bool xAxisTitle = true;
    bool yAxisTitle = true;
    // Grids of small charts stack their y titles: there the short one keeps them apart.
    QString yTitle = QStringLiteral("final test accuracy");
    bool title = true;      // the table's title above the chart
    bool withAgent = true;  // name the agent in that title
    double fontScale = 1.0; // grids of small charts draw somewhat smaller text
};

// What drawRankChart made, so that callers (and tests) reach the series without searching.
struct RankChartParts {
    QCPAxisRect* rect = nullptr;
    QCPBars* sequences = nullptr; // every sequence but the greedy one; key = position (1 = best)
    QCPBars* greedy = nullptr;    // null when the greedy sequence is not in the table
    // ± one standard deviation over a replicated table's seeds on every bar; null for one seed.
    QCPErrorBars* sequencesSpread = nullptr;
    QCPErrorBars* greedySpread = nullptr;
    QCPGraph* optimal = nullptr;  // horizontal lines across the bars
    QCPGraph* noAdaptation = nullptr;
    QCPGraph* randomMean = nullptr;
    QCPItemText* greedyText = nullptr;
    QCPLegend* legend = nullptr; // only from the whole-plot drawing functions
};

// Draws one chart into `rect` (which must belong to `plot`), leaving the rest of the plot alone.
// The legend is the caller's: fill one with addRankLegend().
RankChartParts drawRankChart(QCustomPlot& plot, QCPAxisRect* rect, const RankedTable& table,
                             const RankChartOptions& options = {});

// Clears `plot` and draws one chart filling it, the legend in a row below.
RankChartParts drawRankChart(QCustomPlot& plot, const RankedTable& table, const RankChartOptions& options = {});

// Clears `plot` and draws a grid of charts (`columns` = 0 picks a near-square grid) under a title,
// with one legend for all below them, `legendColumns` entries a line (fewer on a narrow screen).
// Returns the parts of each chart in the order of `tables`.
std::vector<RankChartParts> drawRankGrid(QCustomPlot& plot, const std::vector<RankedTable>& tables,
                                         const QString& title, int columns = 0, int legendColumns = 5);

// Helpers every figure shares.
// Removes every plottable, item and layout element, leaving an empty plot to build on.
void resetPlot(QCustomPlot& plot);
// A bold title (and a smaller subtitle, if any) as the top rows of the plot's layout.
void addPlotTitle(QCustomPlot& plot, const QString& title, const QString& subtitle = {});
// A legend laid out in rows, appended as the last row of the plot's layout.
QCPLegend* addLegendRow(QCustomPlot& plot, int columns);
// Sets `axis` to [lo, hi] with round ticks (0.01, 0.02, 0.05, ...) written with just the decimals
// the step needs: the default ticker's 0.025 steps printed to two decimals read as 0.43, 0.38.
void setAccuracyAxis(QCPAxis* axis, double lo, double hi);

} // namespace rlda::widgets
