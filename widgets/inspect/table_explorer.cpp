// Simulation-table explorer: the baselines line, the filter row, the table and the heatmap side by
// side; a selection in either shows in both.
#include "widgets/inspect/table_explorer.h"

#include "core/table/table_checks.h"
#include "widgets/counted.h"

#include "widgets/inspect/action_heatmap.h"
#include "widgets/inspect/sequence_filter_proxy.h"
#include "widgets/inspect/sorted_accuracy_chart.h"
#include "widgets/inspect/table_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <exception>

namespace rlda::widgets {

TableExplorer::TableExplorer(QWidget* parent)
    : QWidget(parent)
{
    model_ = new SimulationTableModel(this);
    proxy_ = new SequenceFilterProxy(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(SimulationTableModel::SortRole);

    baselines_ = new QLabel(this);
    baselines_->setObjectName(QStringLiteral("baselines"));
    baselines_->setTextFormat(Qt::RichText);
    baselines_->setWordWrap(true);
    baselines_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    filterEdit_ = new QLineEdit(this);
    filterEdit_->setObjectName(QStringLiteral("sequenceFilter"));
    filterEdit_->setPlaceholderText(tr("sequence, e.g. 2 0 *   or a regex, e.g. ^2 .* 3$"));
    filterEdit_->setClearButtonEnabled(true);
    filterEdit_->setToolTip(tr("Actions separated by spaces, * or ? for any action; fewer actions than "
                               "decisions match as a prefix. Anything else is a regular expression on the "
                               "sequence text."));
    minAccuracy_ = new QDoubleSpinBox(this);
    minAccuracy_->setObjectName(QStringLiteral("minAccuracy"));
    minAccuracy_->setRange(0.0, 100.0);
    minAccuracy_->setDecimals(2);
    minAccuracy_->setSingleStep(0.5);
    minAccuracy_->setSuffix(QStringLiteral(" %"));
    minAccuracy_->setPrefix(tr("≥ "));
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("filterStatus"));
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(new QLabel(tr("Filter:"), this));
    filterRow->addWidget(filterEdit_, 2);
    filterRow->addWidget(new QLabel(tr("accuracy"), this));
    filterRow->addWidget(minAccuracy_);
    filterRow->addWidget(status_, 1);

    view_ = new QTableView(this);
    view_->setObjectName(QStringLiteral("tableView"));
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    // Each row's sequence in the vertical header, which stays in sight when the view scrolls right
    // (its own column is hidden: the header is it). Shown with a table (setTable).
    view_->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setHighlightSections(false);

    heatmap_ = new ActionHeatmap(this);
    sorted_ = new SortedAccuracyChart(this);
    auto* views = new QTabWidget(this);
    views->setObjectName(QStringLiteral("tableViews"));
    views->addTab(heatmap_, tr("Map"));
    views->addTab(sorted_, tr("Sorted"));
    views->setTabToolTip(1, tr("Every sequence best to worst; a replicated table's seeds as dots and ± sd bars"));

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    split->addWidget(views);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    // The table's size hint is wide; without this the map would get only what is left.
    split->setSizes({1000, 1000});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(baselines_);
    layout->addLayout(filterRow);
    layout->addWidget(split, 1);

    connect(filterEdit_, &QLineEdit::textChanged, this, &TableExplorer::applyFilter);
    connect(minAccuracy_, &QDoubleSpinBox::valueChanged, this, &TableExplorer::applyFilter);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TableExplorer::onSelectionChanged);
    connect(proxy_, &QAbstractItemModel::rowsInserted, this, &TableExplorer::updateStatus);
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &TableExplorer::updateStatus);
    connect(proxy_, &QAbstractItemModel::modelReset, this, &TableExplorer::updateStatus);
    connect(heatmap_, &ActionHeatmap::cellClicked, this, &TableExplorer::selectCell);
    clear();
}

void TableExplorer::clear()
{
    name_.clear();
    model_->clear();
    view_->verticalHeader()->setVisible(false); // and with it the corner button
    baselines_->setText(tr("<i>No simulation table</i>"));
    heatmap_->setTable(nullptr);
    sorted_->setTable(nullptr);
    updateStatus();
}

void TableExplorer::setTable(const core::sim::SimulationTable& table, const QString& name,
                             const std::optional<core::model::ActionSpace>& actions, core::sim::TableTrust trust)
{
    name_ = name;
    actions_ = actions;
    model_->setTable(table, actions, std::move(trust));
    view_->sortByColumn(model_->sequenceColumn(), Qt::AscendingOrder);
    for (int c = 0; c < model_->columnCount(); ++c)
        view_->setColumnHidden(c, c == model_->sequenceColumn()); // the rows' header shows it
    view_->verticalHeader()->setVisible(true);
    // Shown with accuracy, rank and Δ right after the sequence and the time left last: the model
    // keeps the reference file's column order, the eye wants the result next to the sequence.
    {
        auto* header = view_->horizontalHeader();
        std::vector<int> order;
        for (int c = 0; c <= model_->sequenceColumn(); ++c)
            order.push_back(c);
        for (int c : {model_->accuracyColumn(), model_->sdColumn(), model_->rankColumn(), model_->rankIntervalColumn(),
                      model_->bestShareColumn(), model_->deltaColumn()})
            if (c >= 0)
                order.push_back(c);
        for (int i = 0; i < model_->decisions(); ++i)
            order.push_back(model_->timeLeftColumn(i));
        for (int v = 0; v < static_cast<int>(order.size()); ++v)
            header->moveSection(header->visualIndex(order[static_cast<std::size_t>(v)]), v);
    }
    const auto& t = *model_->table();
    const int k = t.decisions();
    const int m = t.num_actions();

    QStringList parts;
    parts << tr("<b>%1</b>").arg(name.toHtmlEscaped());
    if (actions_ && !actions_->deepen_only())
        parts << tr("%1 of %2 sequences (%3 × %4 actions: %5)")
                     .arg(t.rows().size())
                     .arg(t.sequences())
                     .arg(counted(k, tr("decision"), tr("decisions")))
                     .arg(m)
                     .arg(QString::fromStdString(fmt::format(
                              "{}",
                              fmt::join(core::model::operation_strings(actions_->operations()), " or "))) +
                          tr(" a block, or do nothing"));
    else
        parts << tr("%1 of %2 sequences (%3 × %4 actions, %5 = do nothing)")
                     .arg(t.rows().size())
                     .arg(t.sequences())
                     .arg(counted(k, tr("decision"), tr("decisions")))
                     .arg(m)
                     .arg(t.do_nothing());
    if (!t.rows().empty()) {
        const auto& best = t.optimal();
        parts << tr("optimal <b>%1</b>: <b>%2</b>").arg(sequenceText(best.actions, actions_), percentText(best.accuracy));
    }
    const auto none = t.no_adaptation_sequence();
    if (const auto* row = t.find(none))
        parts << tr("no adaptation (%1): %2, rank %3").arg(sequenceText(none, actions_), percentText(row->accuracy)).arg(t.rank(none));
    else
        parts << tr("no adaptation (%1): missing").arg(sequenceText(none, actions_));
    // A partial table may lack a drawn sequence: the baseline is then undefined, not zero.
    QString random;
    try {
        random = percentText(t.random_mean(10, 0));
    } catch (const std::exception&) {
        random = tr("n/a");
    }
    parts << tr("random mean of 10: %1").arg(random);
    if (!t.rows().empty())
        parts << tr("expectation%1: %2").arg(t.complete() ? QString() : tr(" (rows present)"), percentText(t.expected_random()));
    QString text = parts.join(QStringLiteral(" &nbsp;·&nbsp; "));
    // How far the table can be trusted: one line, for one seed too (that it is unknown, and how to know).
    const auto& trust_ = model_->trust();
    QString trustLine = QString::fromStdString(core::sim::reliability_text(trust_.reliability)).toHtmlEscaped();
    if (t.replicated() && !model_->hasSeedColumns())
        trustLine = tr("accuracies are the means of %1 seeds; their reliability needs the whole table").arg(t.seeds().size());
    if (trust_.bootstrap) {
        // The model's global test comes first: a table that cannot separate its sequences says so.
        QStringList model;
        for (const auto& line : trust_.model_lines)
            model << QString::fromStdString(line).toHtmlEscaped();
        trustLine = model.join(QStringLiteral("<br>")) + QStringLiteral("<br>") + trustLine;
        trustLine +=
            trust_.best_set_all
                ? tr("; 95 % confidence set for the best (☆): all %1 sequences, which the table does not "
                     "separate")
                      .arg(trust_.best_set.size())
                : tr("; 95 % confidence set for the best (☆): <b>%1</b> of %2 sequences")
                      .arg(trust_.best_set.size())
                      .arg(t.rows().size());
    }
    // A table that ranks nothing says so first: every rank read from it is 1.
    if (const auto flat = core::sim::unrankable_table_warning(t, t.source()))
        trustLine =
            QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(*flat).toHtmlEscaped()) + trustLine;
    baselines_->setText(text + QStringLiteral("<br>") + trustLine);

    {
        const QSignalBlocker b1(filterEdit_), b2(minAccuracy_);
        filterEdit_->clear();
        minAccuracy_->setValue(0.0);
    }
    proxy_->setFilter(QString(), 0.0);
    std::vector<std::vector<int>> best;
    if (model_->trust().bootstrap)
        for (const auto code : model_->trust().best_set)
            best.push_back(t.rows()[static_cast<std::size_t>(code)].actions);
    heatmap_->setTable(&*model_->table(), actions_, std::move(best));
    sorted_->setTable(&*model_->table(), model_->trust().sd);
    onSelectionChanged();
    updateStatus();
}

bool TableExplorer::setFilter(const QString& pattern, double minAccuracy)
{
    {
        const QSignalBlocker b1(filterEdit_), b2(minAccuracy_);
        filterEdit_->setText(pattern);
        minAccuracy_->setValue(100.0 * minAccuracy);
    }
    const bool ok = proxy_->setFilter(pattern, minAccuracy);
    filterEdit_->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { background: #f8d7da; }"));
    filterEdit_->setToolTip(ok ? QString() : tr("Not a valid regular expression"));
    updateStatus();
    return ok;
}

void TableExplorer::applyFilter()
{
    // Through the spin box's value, which is rounded to its decimals: what the user sees applies.
    const bool ok = proxy_->setFilter(filterEdit_->text(), minAccuracy_->value() / 100.0);
    filterEdit_->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { background: #f8d7da; }"));
    updateStatus();
}

int TableExplorer::visibleRowCount() const { return proxy_->rowCount(); }

void TableExplorer::updateStatus()
{
    if (!status_)
        return;
    status_->setText(model_->table() ? tr("%1 of %2 shown").arg(proxy_->rowCount()).arg(model_->rowCount())
                                     : QString());
}

QCustomPlot* TableExplorer::heatmap() const { return heatmap_->plot(); }
std::vector<QPoint> TableExplorer::bestSetCells() const { return heatmap_->bestSetCells(); }
QPoint TableExplorer::cellOf(const std::vector<int>& sequence) const { return heatmap_->cellOf(sequence); }
std::vector<int> TableExplorer::sequenceAt(QPoint cell) const { return heatmap_->sequenceAt(cell); }
std::optional<double> TableExplorer::cellAccuracy(QPoint cell) const { return heatmap_->cellAccuracy(cell); }
QPoint TableExplorer::optimalCell() const { return heatmap_->optimalCell(); }
QPoint TableExplorer::selectedCell() const { return heatmap_->selectedCell(); }

bool TableExplorer::selectCell(QPoint cell)
{
    const auto seq = sequenceAt(cell);
    if (seq.empty())
        return false;
    const auto* row = model_->table()->find(seq);
    if (!row)
        return false;
    const int tableRow = static_cast<int>(row - model_->table()->rows().data());
    QModelIndex at = proxy_->mapFromSource(model_->index(tableRow, 0));
    if (!at.isValid()) {
        // The user pointed at it: a filter that hides it is in the way.
        setFilter(QString(), 0.0);
        at = proxy_->mapFromSource(model_->index(tableRow, 0));
    }
    view_->selectRow(at.row());
    view_->scrollTo(at, QAbstractItemView::PositionAtCenter);
    return true;
}

std::optional<std::vector<int>> TableExplorer::selectedSequence() const
{
    const auto rows = view_->selectionModel()->selectedRows();
    if (rows.isEmpty() || !model_->table())
        return std::nullopt;
    const int r = rows.front().data(SimulationTableModel::RowRole).toInt();
    return model_->table()->rows()[static_cast<std::size_t>(r)].actions;
}

void TableExplorer::onSelectionChanged()
{
    const auto seq = selectedSequence();
    heatmap_->setSelected(seq);
    if (seq)
        Q_EMIT sequenceSelected(static_cast<int>(model_->table()->find(*seq) - model_->table()->rows().data()));
}

QString TableExplorer::exportHeatmap(const QString& path, const ExportSettings& settings)
{
    return heatmap_->exportTo(path, settings);
}

} // namespace rlda::widgets
