// The transfer table and figure of one held-out model at a time.
#include "widgets/figures/transfer_view.h"

#include "core/table/results.h"
#include "widgets/figures/transfer_chart.h"
#include "widgets/qcp.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <filesystem>

namespace rlda::widgets {

namespace {
// The width the study's figure is read at: its title, its axis labels and a legend of three columns.
// Narrower, it goes under the table instead of beside it (issue 43, item 2: 240 px beside the table
// clipped the title and the legend).
constexpr int kReadableChartWidth = 620;
// Its height under the table: the title, the axes and the legend leave the bars about half of it.
// The page scrolls down to it on a short screen (a laptop's, with the log shown).
constexpr int kReadableChartHeight = 360;
constexpr int kSmallestChartHeight = 160;

QString text(const std::optional<double>& v) { return v ? QString::number(*v, 'f', 1) : QStringLiteral("–"); }
QString text(const std::optional<int>& v) { return v ? QString::number(*v) : QStringLiteral("–"); }

QTableWidgetItem* item(const QString& s, bool bold = false)
{
    auto* i = new QTableWidgetItem(s);
    i->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    i->setTextAlignment(Qt::AlignVCenter | Qt::AlignRight);
    if (bold) {
        QFont f = i->font();
        f.setBold(true);
        i->setFont(f);
    }
    return i;
}

// The references shown beside the policy's ranks: every one the rows hold but the two the table
// already has as columns (no adaptation, best fixed), in the order they were judged.
QStringList extra_references(const core::run::TransferSummary& s)
{
    QStringList out;
    for (const auto& agent : core::run::reference_agents(s))
        if (agent != core::run::kNoAdaptationReference && agent != core::run::kBestFixedReference)
            out << QString::fromStdString(agent);
    return out;
}

const core::run::TransferReference* reference_of(const core::run::TransferSummaryRow& row, const QString& agent)
{
    for (const auto& r : row.references)
        if (QString::fromStdString(r.agent) == agent)
            return &r;
    return nullptr;
}

} // namespace

TransferView::TransferView(QWidget* parent) : QWidget(parent)
{
    models_ = new QComboBox(this);
    models_->setObjectName(QStringLiteral("transferModels"));
    models_->setToolTip(tr("The model left out: learned without any of its tables, judged on all of them"));
    summary_ = new QLabel(tr("No transfer run open. Open the folder of one (rlda transfer --out)."), this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("transferTable"));
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    plot_ = new QCustomPlot(this);
    // A QCustomPlot's minimum is its layout's: the study's legend in one row would make the page
    // wider than a laptop's window (issue 43, item 2). Below that the legend is clipped, not the page.
    plot_->setMinimumSize(240, kSmallestChartHeight);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Held out"), this));
    bar->addWidget(models_);
    bar->addWidget(summary_, 1);
    auto* split = split_ = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(plot_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    // The study's tests, as `rlda transfer-compare` prints them: a few lines, scrolled.
    tests_ = new QPlainTextEdit(this);
    tests_->setObjectName(QStringLiteral("transferTests"));
    tests_->setReadOnly(true);
    tests_->setLineWrapMode(QPlainTextEdit::NoWrap);
    tests_->setMaximumHeight(7 * fontMetrics().lineSpacing());
    tests_->setVisible(false);
    layout->addWidget(tests_);
    connect(models_, &QComboBox::currentIndexChanged, this, &TransferView::showEntry);
}

void TransferView::setSummaries(std::vector<core::run::TransferSummary> summaries)
{
    std::vector<core::run::StudyRun> runs{{std::string(), std::move(summaries)}};
    auto study = core::run::compare_transfers(runs);
    auto tests = core::run::test_study(runs, study, {}); // no table read here: no test against chance
    setRuns(std::move(runs), std::move(study), std::move(tests), false);
}

void TransferView::setRuns(std::vector<core::run::StudyRun> runs, std::vector<core::run::StudyRow> study,
                           core::run::StudyTests tests, bool showStudy)
{
    runs_ = std::move(runs);
    study_ = std::move(study);
    tests_results_ = std::move(tests);
    entries_.clear();
    const QSignalBlocker block(models_);
    models_->clear();
    for (std::size_t r = 0; r < runs_.size(); ++r)
        for (std::size_t m = 0; m < runs_[r].summaries.size(); ++m) {
            QString name = QString::fromStdString(runs_[r].summaries[m].fold.model);
            if (runs_.size() > 1)
                name += QStringLiteral(" · %1").arg(QString::fromStdString(runs_[r].label));
            models_->addItem(name);
            entries_.emplace_back(r, m);
        }
    if (!study_.empty()) {
        models_->addItem(tr("every held-out model"));
        models_->setItemData(models_->count() - 1,
                             tr("Each held-out model's mean rank per run, beside the best heuristic, a random agent "
                                "and the baselines (rlda transfer-compare)"),
                             Qt::ToolTipRole);
    }
    const int first = entries_.empty() ? -1 : 0;
    models_->setCurrentIndex(showStudy && !study_.empty() ? models_->count() - 1 : first);
    showEntry(models_->currentIndex());
}

void TransferView::showEntry(int index)
{
    table_->clear();
    tests_->setVisible(false);
    if (index >= 0 && index < static_cast<int>(entries_.size())) {
        const auto [run, summary] = entries_[static_cast<std::size_t>(index)];
        showModel(runs_[run].summaries[summary]);
    } else if (index == static_cast<int>(entries_.size()) && !study_.empty()) {
        showStudy();
    } else {
        table_->setRowCount(0);
        table_->setColumnCount(0);
        plot_->clearPlottables();
        plot_->replot();
    }
}

void TransferView::showModel(const core::run::TransferSummary& s)
{
    summary_->setText(transferSubtitle(s));
    QStringList header{tr("table")};
    for (auto seed : s.seeds)
        header << tr("seed %1").arg(seed);
    header << tr("mean") << tr("worst") << tr("no adaptation") << tr("best fixed");
    const QStringList references = extra_references(s);
    header << references;
    table_->setColumnCount(static_cast<int>(header.size()));
    table_->setHorizontalHeaderLabels(header);
    table_->setRowCount(static_cast<int>(s.rows.size()) + 1);
    for (std::size_t r = 0; r < s.rows.size(); ++r) {
        const auto& row = s.rows[r];
        int c = 0;
        auto* name = item(QString::fromStdString(std::filesystem::path(row.table).filename().string()));
        name->setTextAlignment(Qt::AlignVCenter | Qt::AlignLeft);
        name->setToolTip(QString::fromStdString(row.table));
        table_->setItem(static_cast<int>(r), c++, name);
        for (const auto& rank : row.ranks)
            table_->setItem(static_cast<int>(r), c++, item(text(rank)));
        table_->setItem(static_cast<int>(r), c++, item(text(row.mean), true));
        table_->setItem(static_cast<int>(r), c++, item(text(row.worst)));
        table_->setItem(static_cast<int>(r), c++, item(QString::number(row.no_adaptation_rank)));
        table_->setItem(static_cast<int>(r), c++, item(QString::number(row.best_fixed_rank)));
        for (const auto& agent : references) {
            const auto* x = reference_of(row, agent);
            if (x == nullptr) { // a feature reader on a table without features
                auto* none = item(QStringLiteral("–"));
                none->setToolTip(tr("%1 needs decision features, which this table does not have").arg(agent));
                table_->setItem(static_cast<int>(r), c++, none);
                continue;
            }
            // * marks a reference in the 95 % confidence set for the best (the table's seeds).
            auto* cell = item(QString::number(x->rank, 'g', 4) + (x->among_best ? QStringLiteral("*") : QString()));
            cell->setToolTip(x->rank_high > 0
                                 ? tr("%1: rank %2, %3–%4 over resamples of the table's seeds%5")
                                       .arg(agent)
                                       .arg(x->rank)
                                       .arg(x->rank_low)
                                       .arg(x->rank_high)
                                       .arg(agent == QLatin1String(core::run::kRandomReference)
                                                ? QString()
                                                : tr("; P(best) %1 %").arg(100.0 * x->p_best, 0, 'f', 0))
                                 : tr("%1: rank %2").arg(agent).arg(x->rank));
            table_->setItem(static_cast<int>(r), c++, cell);
        }
    }
    const int last = static_cast<int>(s.rows.size());
    int c = 0;
    auto* means = item(tr("mean over tables"), true);
    means->setTextAlignment(Qt::AlignVCenter | Qt::AlignLeft);
    table_->setItem(last, c++, means);
    for (const auto& m : s.seed_means)
        table_->setItem(last, c++, item(text(m), true));
    table_->setItem(last, c++, item(text(s.mean), true));
    table_->setItem(last, c++, item(text(s.worst_seed_mean)));
    table_->setItem(last, c++, item(QString::number(s.fold.no_adaptation_rank, 'f', 1)));
    table_->setItem(last, c++, item(QString::number(s.fold.best_fixed_rank, 'f', 1)));
    for (const auto& agent : references)
        table_->setItem(last, c++, item(text(core::run::reference_mean(s, agent.toStdString()))));
    fitTable();
    drawTransferChart(*plot_, s,
                      tr("Transfer to %1, a model the policy never saw").arg(QString::fromStdString(s.fold.model)));
}

void TransferView::showStudy()
{
    QStringList labels;
    for (const auto& r : runs_)
        labels << (r.label.empty() ? tr("policy") : QString::fromStdString(r.label));
    summary_->setText(
        tr("%n held-out model(s), each learned without any of its tables; mean rank over the seeds and "
           "its tables (lower is better); < better than a random agent judged as often, p < 0.05 (the tests "
           "below)",
           nullptr, static_cast<int>(study_.size())) +
        averagesText());
    QStringList header{tr("held out"), tr("sequences")};
    header << labels << tr("best heuristic") << tr("random [95 %]") << tr("no adaptation") << tr("best fixed");
    table_->setColumnCount(static_cast<int>(header.size()));
    table_->setHorizontalHeaderLabels(header);
    table_->setRowCount(static_cast<int>(study_.size()));
    for (std::size_t i = 0; i < study_.size(); ++i) {
        const auto& row = study_[i];
        const int r = static_cast<int>(i);
        int c = 0;
        auto* name = item(QString::fromStdString(row.model));
        name->setTextAlignment(Qt::AlignVCenter | Qt::AlignLeft);
        name->setToolTip(tr("%n table(s) judged", nullptr, row.tables));
        table_->setItem(r, c++, name);
        table_->setItem(r, c++, item(QString::number(row.sequences)));
        for (std::size_t run = 0; run < row.means.size(); ++run) {
            const auto& m = row.means[run];
            const bool beats = m && core::run::beats_chance(tests_results_, row, runs_[run].label, *m);
            // Bold only for the agent a test names the best (test_study), never for a lower mean alone.
            auto* cell = item(text(m) + (beats ? QStringLiteral(" <") : QString()),
                              m && !tests_results_.best.empty() && tests_results_.best == runs_[run].label);
            if (beats)
                cell->setToolTip(tr("better than a random agent judged as often (p < 0.05)"));
            table_->setItem(r, c++, cell);
        }
        auto* rule = item(row.heuristic ? QString::number(row.heuristic->mean_rank, 'f', 1) : QStringLiteral("–"));
        rule->setToolTip(row.heuristic ? QString::fromStdString(row.heuristic->agent)
                                       : tr("no heuristic judged these tables"));
        table_->setItem(r, c++, rule);
        table_->setItem(r, c++,
                        item(core::run::has_random_interval(row) ? QStringLiteral("%1 [%2–%3]")
                                                         .arg(row.random, 0, 'f', 1)
                                                         .arg(row.random_low, 0, 'f', 1)
                                                         .arg(row.random_high, 0, 'f', 1)
                                                   : QString::number(row.random, 'f', 1)));
        table_->setItem(r, c++, item(QString::number(row.no_adaptation, 'f', 1)));
        table_->setItem(r, c++, item(QString::number(row.best_fixed, 'f', 1)));
    }
    fitTable();
    drawTransferStudyChart(*plot_, study_, labels, tr("Transfer to models never seen"));
    QStringList lines;
    for (const auto& line : core::run::study_test_lines(study_, tests_results_))
        lines << QString::fromStdString(line);
    tests_->setPlainText(lines.join(QLatin1Char('\n')));
    tests_->setVisible(true);
}

QString TransferView::averagesText() const
{
    QStringList parts;
    for (const auto& a : core::run::study_averages(runs_, study_))
        parts << QStringLiteral("%1 %2").arg(QString::fromStdString(a.agent.empty() ? "policy" : a.agent)).arg(a.fraction, 0, 'f', 2);
    return parts.isEmpty() ? QString() : tr("\nmean rank ÷ sequences over the models: %1").arg(parts.join(QStringLiteral(", ")));
}

void TransferView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    layOutSplit();
}

void TransferView::layOutSplit()
{
    const bool beside = width() >= table_->minimumWidth() + split_->handleWidth() + kReadableChartWidth;
    const Qt::Orientation orientation = beside ? Qt::Horizontal : Qt::Vertical;
    if (split_->orientation() == orientation)
        return;
    split_->setOrientation(orientation);
    plot_->setMinimumHeight(beside ? kSmallestChartHeight : kReadableChartHeight);
    if (beside) {
        fitTable();
    } else {
        const int total = std::max(split_->height(), kReadableChartHeight + 160);
        split_->setSizes({total - kReadableChartHeight, kReadableChartHeight});
    }
}

void TransferView::fitTable()
{
    table_->resizeColumnsToContents();
    // The whole table beside the figure: its columns' width, the figure the rest.
    int width = 2 * table_->frameWidth() + table_->verticalScrollBar()->sizeHint().width() + 24;
    for (int col = 0; col < table_->columnCount(); ++col)
        width += table_->columnWidth(col);
    // The splitter lays a tab out again when it is first shown, from its widgets' hints: the table
    // asks for its whole width, up to 560 px (the references make it wide; the figure needs room).
    table_->setMinimumWidth(std::min(width, 560));
    if (split_->orientation() == Qt::Vertical) {
        layOutSplit(); // the table's width changed: the figure may fit beside it now
        return;
    }
    const int total = std::max(split_->width(), width + 300);
    split_->setSizes({width, total - width});
    layOutSplit();
}

} // namespace rlda::widgets
