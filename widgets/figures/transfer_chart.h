// The transfer figure: one held-out model's tables, the rank the policies reached on each (every
// seed a dot, their mean a bar), beside a random sequence, no adaptation, the best fixed sequence
// chosen in hindsight and the growth heuristic of the best mean rank (core::run::best_heuristic). `rlda transfer` writes it; the Policy page shows it.
#pragma once

#include "core/transfer/study.h"
#include "core/transfer/summary.h"

#include <QString>

class QCustomPlot;

namespace rlda::widgets {

// Clears `plot` and draws `summary` (one of core::run::summarize_transfer's) under `title`.
void drawTransferChart(QCustomPlot& plot, const core::run::TransferSummary& summary, const QString& title);

// "held out ConvNet3: mean rank 14.2 over 5 seeds (worst seed 18.0); random 32.5, no adaptation
// 58.0, best fixed (0 0 0) 13.4": the line above the chart and in the page's status.
QString transferSubtitle(const core::run::TransferSummary& summary);

// The study figure (core::run::compare_transfers): per held-out model, each run's mean rank as a
// bar beside the best growth heuristic, no adaptation, the best fixed sequence in hindsight and a
// random agent judged as often (its expected rank, and where 95 % of its mean falls). Ranks are
// shown as a fraction of the model's sequences, so that models of 16 and 64 sequences share an axis.
// `labels` names the runs, in the order of each row's means.
void drawTransferStudyChart(QCustomPlot& plot, const std::vector<core::run::StudyRow>& rows, const QStringList& labels,
                            const QString& title);

} // namespace rlda::widgets
