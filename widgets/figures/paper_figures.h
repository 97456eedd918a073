// The paper's figures 7-12, drawn from plain values (learning curves, evaluated tables) and written
// to files: the engine behind `rlda figures`, usable from the workbench as well.
//
// Which file stands for which figure of the paper (each in every format asked for):
//   fig07_objective       Fig. 7  — the learning objective per episode, rolling mean over `window`
//                                    episodes (bold) over the per-episode values (faint), per run.
//   fig08_accuracy        Fig. 8  — the final accuracy of the sequence sampled in each episode,
//                                    same presentation.
//   fig09_runs            Fig. 9  — runs overlaid (a curriculum, transfer, or several seeds): rolling
//                                    means of objective (top) and accuracy (bottom), one colour per
//                                    run; dotted lines where a run's temperature was raised (a new
//                                    curriculum stage with its own exploration temperature).
//   fig10_ranks_<model>   Fig. 10 — rank charts of the first model among the tables (ConvNet2 in
//                                    the paper: the model the agent learned on), one per scenario.
//   fig11_ranks_<model>   Fig. 11 — rank charts of every further model (ConvNet3 in the paper: the
//                                    transfer to another starting model).
//   fig12_accuracy        Fig. 12 — accuracy per scenario: greedy vs optimal vs no adaptation vs
//                                    the random mean of 10 sequences, grouped, rank above greedy.
// Figures 7-9 need learning curves and 10-12 evaluated tables; a figure without inputs is skipped.
#pragma once

#include "core/transfer/study.h"
#include "core/transfer/summary.h"
#include "widgets/figures/rank_chart.h"
#include "widgets/plot_export.h"
#include "widgets/rolling_series.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

class QCustomPlot;

namespace rlda::widgets {

// One learning run's per-episode series (metrics/episodes.csv), aligned by index.
struct LearningCurve {
    QString name; // shown in legends: the run folder's name unless set otherwise
    std::vector<double> episode;
    std::vector<double> objective;
    std::vector<double> accuracy;
    std::vector<double> temperature; // empty when the file has no such column
};

// A learning run's curves (RUN_DIR/metrics/episodes.csv, through core::io::read_run). Rows cut short
// by a killed run are skipped. On failure: nullopt and a one-line reason naming the folder in `error`.
std::optional<LearningCurve> loadLearningCurve(const QString& runDir, QString* error = nullptr);


// Episodes at which a run's temperature went up: where a curriculum stage started afresh.
std::vector<double> stageStarts(const LearningCurve& curve);

enum class CurveMetric { Objective, Accuracy };

// Each draws a complete figure into `plot` (cleared first): title, axis titles, legend.
void drawLearningCurves(QCustomPlot& plot, const std::vector<LearningCurve>& curves, CurveMetric metric,
                        int window, const QString& title);
void drawRunComparison(QCustomPlot& plot, const std::vector<LearningCurve>& curves, int window,
                       const QString& title);
void drawAccuracyBars(QCustomPlot& plot, const std::vector<RankedTable>& tables, const QString& title);

struct FigureInputs {
    std::vector<LearningCurve> curves;
    std::vector<RankedTable> tables; // grouped by model for figures 10 and 11, in the order given
    int window = core::kPaperRollingWindow; // rolling mean of the learning curves
    std::vector<core::run::TransferSummary> transfers; // a transfer figure each (not the paper's)
    // Transfer runs side by side (core::run::compare_transfers): one figure, transfer_study, when
    // there are rows; study_labels names the runs.
    std::vector<core::run::StudyRow> study;
    QStringList study_labels;
};

// One figure renderPaperFigures would write: its file name without suffix and what it shows.
struct PaperFigure {
    QString file;  // "fig07_objective", "fig10_ranks_ConvNet2"
    int paper = 0; // the paper's figure number; 0 for a figure the paper does not have (transfer)
    QString title;
};
std::vector<PaperFigure> paperFigures(const FigureInputs& inputs);

// Draws one of paperFigures(inputs) into `plot`; false when `file` is not among them.
bool drawPaperFigure(QCustomPlot& plot, const FigureInputs& inputs, const QString& file);

// Writes every figure the inputs allow into `outDir` (created if needed), once per format
// ("png", "pdf", "svg"), through exportPlot. Returns the files written, in order. On failure sets
// `error` to a one-line reason naming the file or format, and returns what was written before it.
// Needs a QApplication (the offscreen platform will do).
QStringList renderPaperFigures(const FigureInputs& inputs, const QString& outDir, const QStringList& formats,
                               const ExportSettings& settings, QString* error = nullptr);

} // namespace rlda::widgets
