// The transfer figure: one held-out model's tables, the rank the policies reached on each (every
// seed a dot, their mean a bar), beside a random sequence, no adaptation, the best fixed sequence
// chosen in hindsight and the growth heuristic of the best mean rank (core::run::best_heuristic). `rlda transfer` writes it; the Policy page shows it.
#pragma once

#include "core/run/transfer_protocol.h"

#include <QString>

class QCustomPlot;

namespace rlda::widgets {

// Clears `plot` and draws `summary` (one of core::run::summarize_transfer's) under `title`.
void drawTransferChart(QCustomPlot& plot, const core::run::TransferSummary& summary, const QString& title);

// "held out ConvNet3: mean rank 14.2 over 5 seeds (worst seed 18.0); random 32.5, no adaptation
// 58.0, best fixed (0 0 0) 13.4": the line above the chart and in the page's status.
QString transferSubtitle(const core::run::TransferSummary& summary);

} // namespace rlda::widgets
