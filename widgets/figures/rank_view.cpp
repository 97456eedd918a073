// RankView: a chart grid and a summary table built from the same RankedTable values.
#include "widgets/figures/rank_view.h"

#include "widgets/file_dialogs.h"
#include "widgets/qcp.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rlda::widgets {

namespace {

QTableWidgetItem* textItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

QTableWidgetItem* numberItem(double value, int decimals)
{
    auto* item = textItem(QString::number(value, 'f', decimals));
    item->setData(RankView::ValueRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

RankView::RankView(QWidget* parent) : QWidget(parent), title_(QStringLiteral("Ranks of the greedy sequences"))
{
    header_ = new QLabel(this);
    header_->setWordWrap(true); // never the page's minimum width
    export_ = new QPushButton(tr("Export…"), this);
    export_->setToolTip(tr("Write the chart grid as PNG, PDF or SVG"));
    auto* top = new QHBoxLayout;
    top->addWidget(header_, 1);
    top->addWidget(export_);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    plot_ = new QCustomPlot(splitter);
    // A set minimum, not the layout's: the charts' titles never make the page wider than the window.
    plot_->setMinimumSize(320, 160);
    summary_ = new QTableWidget(0, ColumnCount, splitter);
    summary_->setHorizontalHeaderLabels({tr("scenario"), tr("greedy"), tr("rank"), tr("accuracy"), tr("regret"),
                                         tr("optimal"), tr("no adaptation"), tr("random mean")});
    summary_->verticalHeader()->setVisible(false);
    summary_->setSelectionBehavior(QAbstractItemView::SelectRows);
    summary_->setSelectionMode(QAbstractItemView::SingleSelection);
    summary_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    summary_->horizontalHeader()->setSectionResizeMode(ScenarioColumn, QHeaderView::Stretch);
    splitter->addWidget(plot_);
    splitter->addWidget(summary_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({600, 160}); // in proportion: the charts are what the view is for

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(export_, &QPushButton::clicked, this, &RankView::exportWithDialog);
    connect(summary_, &QTableWidget::cellActivated, this, [this](int row, int) { Q_EMIT tableActivated(row); });
    rebuild();
}

void RankView::setTables(std::vector<RankedTable> tables)
{
    tables_ = std::move(tables);
    rebuild();
}

void RankView::setTitle(const QString& title)
{
    title_ = title;
    rebuild();
}

void RankView::rebuild()
{
    // New tables are rare (not a live stream), so the plot is redrawn at once.
    charts_ = drawRankGrid(*plot_, tables_, title_, 0, 3); // three legend entries a line fit a laptop
    plot_->replot();

    summary_->setRowCount(static_cast<int>(tables_.size()));
    for (int r = 0; r < static_cast<int>(tables_.size()); ++r) {
        const auto& t = tables_[static_cast<std::size_t>(r)];
        const auto& e = t.evaluation;
        summary_->setItem(r, ScenarioColumn, textItem(t.title()));
        summary_->setItem(r, GreedyColumn, textItem(QString::fromStdString(core::sim::sequence_string(e.greedy))));
        // A replicated table's rank is its mean's; the interval over its seeds goes with it.
        auto* rank = textItem(e.reliability.known() ? QStringLiteral("%1/%2 (%3–%4)")
                                                          .arg(e.rank)
                                                          .arg(e.sequences)
                                                          .arg(e.greedy_spread.low)
                                                          .arg(e.greedy_spread.high)
                                                    : QStringLiteral("%1/%2").arg(e.rank).arg(e.sequences));
        if (e.reliability.known())
            rank->setToolTip(
                tr("Rank of the mean over %1 seeds; its 95 % interval (marginal, the seed-blocked model) is "
                   "%2–%3. The 95 % confidence set for the best has %4 sequences; the greedy one is "
                   "%5among them.")
                    .arg(e.replicates)
                    .arg(e.greedy_spread.low)
                    .arg(e.greedy_spread.high)
                    .arg(e.best_set)
                    .arg(e.greedy_among_best ? QString() : tr("not ")));
        rank->setData(ValueRole, e.rank);
        rank->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        summary_->setItem(r, RankColumn, rank);
        summary_->setItem(r, AccuracyColumn, numberItem(e.accuracy, 4));
        summary_->setItem(r, RegretColumn, numberItem(e.regret, 4));
        auto* optimal = numberItem(e.optimal, 4);
        optimal->setToolTip(tr("optimal sequence: %1")
                                .arg(QString::fromStdString(core::sim::sequence_string(e.optimal_sequence))));
        summary_->setItem(r, OptimalColumn, optimal);
        summary_->setItem(r, NoAdaptationColumn, numberItem(e.no_adaptation, 4));
        summary_->setItem(r, RandomMeanColumn, numberItem(e.random_mean, 4));
    }
    header_->setText(tables_.empty() ? tr("No evaluated tables")
                                     : tr("%n table(s): greedy sequence of each policy, its rank among all "
                                          "sequences, and the baselines",
                                          nullptr, static_cast<int>(tables_.size())));
    export_->setEnabled(!tables_.empty());
}

QString RankView::exportTo(const QString& path, const ExportSettings& settings)
{
    return exportPlot(*plot_, path, settings);
}

void RankView::exportWithDialog()
{
    const QString path = saveFileName(this, FileKind::Export, tr("Export rank charts"), QStringLiteral("ranks.png"),
                                      tr("Images (*.png *.pdf *.svg)"));
    if (path.isEmpty())
        return;
    if (const QString error = exportTo(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Export"), error);
}

} // namespace rlda::widgets
