// Simulation-table explorer: every action sequence sortable and filterable, and a heatmap of the
// action space that shows where the good sequences lie.
#include "widgets/inspect/table_explorer.h"

#include "core/sim/results.h"
#include "widgets/qcp.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace rlda::widgets {
namespace {

QString seqText(const std::vector<int>& s) { return QString::fromStdString(core::sim::sequence_string(s)); }

QString percent(double fraction) { return QString::number(100.0 * fraction, 'f', 2) + QLatin1Char('%'); }

int ipow(int base, int exp)
{
    int r = 1;
    for (int i = 0; i < exp; ++i)
        r *= base;
    return r;
}

// Perceptually uniform (viridis stops): accuracy differences read the same across the range, and
// the best cells are the brightest.
QCPColorGradient accuracyGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    g.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
    g.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
    g.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
    g.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

} // namespace

// ---------------------------------------------------------------------------------------------
SimulationTableModel::SimulationTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SimulationTableModel::setTable(const core::sim::SimulationTable& table)
{
    beginResetModel();
    table_ = table;
    ranks_.clear();
    optimalRow_ = -1;
    optimal_ = 0.0;
    const auto& rows = table_->rows();
    if (!rows.empty()) {
        const auto& best = table_->optimal();
        optimalRow_ = static_cast<int>(&best - rows.data());
        optimal_ = best.accuracy;
        // rank() scans the table per call; sorting the accuracies once keeps big tables instant.
        std::vector<double> acc;
        acc.reserve(rows.size());
        for (const auto& r : rows)
            acc.push_back(r.accuracy);
        std::sort(acc.begin(), acc.end(), std::greater<>());
        for (const auto& r : rows) {
            const auto higher = std::lower_bound(acc.begin(), acc.end(), r.accuracy, std::greater<>()) - acc.begin();
            ranks_.push_back(1 + static_cast<int>(higher));
        }
    }
    endResetModel();
}

void SimulationTableModel::clear()
{
    beginResetModel();
    table_.reset();
    ranks_.clear();
    optimalRow_ = -1;
    endResetModel();
}

int SimulationTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !table_ ? 0 : static_cast<int>(table_->rows().size());
}

int SimulationTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !table_ ? 0 : 2 * decisions() + 4;
}

QVariant SimulationTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || !table_)
        return QAbstractTableModel::headerData(section, orientation, role);
    const int k = decisions();
    if (role == Qt::DisplayRole) {
        if (section < k)
            return QStringLiteral("a%1").arg(section + 1);
        if (section == sequenceColumn())
            return tr("sequence");
        if (section < accuracyColumn())
            return QStringLiteral("timeleft%1").arg(section - k);
        if (section == accuracyColumn())
            return tr("accuracy");
        if (section == rankColumn())
            return tr("rank");
        if (section == deltaColumn())
            return tr("Δ optimal");
    }
    if (role == Qt::ToolTipRole) {
        if (section < k)
            return tr("Action at decision %1: 0..%2 deepen that original block, %3 = do nothing")
                .arg(section + 1)
                .arg(table_->do_nothing() - 1)
                .arg(table_->do_nothing());
        if (section > k && section < accuracyColumn())
            return tr("Seconds left in the budget when decision %1 was made").arg(section - k);
        if (section == rankColumn())
            return tr("1 = best; ties share the best rank");
        if (section == deltaColumn())
            return tr("Accuracy minus the optimal accuracy, in percentage points");
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

QVariant SimulationTableModel::data(const QModelIndex& index, int role) const
{
    if (!table_ || !index.isValid() || index.row() >= rowCount())
        return {};
    const int r = index.row();
    const int c = index.column();
    const int k = decisions();
    const auto& row = table_->rows()[static_cast<std::size_t>(r)];

    switch (role) {
    case RowRole:
        return r;
    case SequenceRole:
        return seqText(row.actions);
    case OptimalRole:
        return r == optimalRow_;
    case Qt::TextAlignmentRole:
        return c == sequenceColumn() ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                     : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (r == optimalRow_) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (c == accuracyColumn())
            return QString::number(row.accuracy, 'g', 10);
        return {};
    default:
        break;
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    if (c < k)
        return row.actions[static_cast<std::size_t>(c)];
    if (c == sequenceColumn())
        // Rows are kept in lexicographic order, so the row index sorts sequences as numbers would.
        return display ? QVariant(seqText(row.actions)) : QVariant(r);
    if (c < accuracyColumn()) {
        const double t = row.time_left[static_cast<std::size_t>(c - k - 1)];
        return display ? QVariant(QString::number(t, 'f', 1)) : QVariant(t);
    }
    if (c == accuracyColumn())
        return display ? QVariant(percent(row.accuracy)) : QVariant(row.accuracy);
    if (c == rankColumn())
        return ranks_[static_cast<std::size_t>(r)];
    if (c == deltaColumn()) {
        const double d = row.accuracy - optimal_;
        if (!display)
            return d;
        if (d == 0.0)
            return QStringLiteral("0.00");
        return QStringLiteral("−") + QString::number(-100.0 * d, 'f', 2);
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
class SequenceFilterProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    bool setFilter(const QString& pattern, double minAccuracy)
    {
        tokens_.clear();
        useTokens_ = false;
        useRegex_ = false;
        minAccuracy_ = minAccuracy;
        bool valid = true;
        const QString p = pattern.trimmed();
        static const QRegularExpression wildcard(QStringLiteral("^[0-9*?,\\s]+$"));
        static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
        if (p.isEmpty()) {
        } else if (wildcard.match(p).hasMatch()) {
            useTokens_ = true;
            // Actions are single digits (at most 6 per decision), so "20*" may be typed without spaces.
            const QStringList parts = p.contains(separators) ? p.split(separators, Qt::SkipEmptyParts)
                                                             : p.split(QString(), Qt::SkipEmptyParts);
            for (const auto& t : parts)
                tokens_.push_back(t == QLatin1String("*") || t == QLatin1String("?") ? -1 : t.toInt());
        } else {
            regex_.setPattern(p);
            valid = regex_.isValid();
            useRegex_ = valid;
        }
        invalidateFilter();
        return valid;
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex&) const override
    {
        const auto* model = static_cast<const SimulationTableModel*>(sourceModel());
        if (!model->table())
            return false;
        const auto& row = model->table()->rows()[static_cast<std::size_t>(sourceRow)];
        if (row.accuracy < minAccuracy_)
            return false;
        if (useTokens_) {
            if (tokens_.size() > row.actions.size())
                return false;
            for (std::size_t i = 0; i < tokens_.size(); ++i)
                if (tokens_[i] >= 0 && tokens_[i] != row.actions[i])
                    return false;
        }
        if (useRegex_ && !regex_.match(seqText(row.actions)).hasMatch())
            return false;
        return true;
    }

private:
    std::vector<int> tokens_; // -1 = any action; shorter than k = a prefix
    bool useTokens_ = false;
    QRegularExpression regex_;
    bool useRegex_ = false;
    double minAccuracy_ = 0.0;
};

// ---------------------------------------------------------------------------------------------
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
    view_->verticalHeader()->setVisible(false);
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->horizontalHeader()->setHighlightSections(false);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("heatmap"));
    plot_->setMinimumSize(360, 260);
    plot_->setMouseTracking(true); // hover tooltips name the cell under the pointer
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->axis()->setLabel(tr("accuracy"));
    map_->setColorScale(scale_);
    map_->setGradient(accuracyGradient());
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    // Missing sequences of a partial table are transparent: a hatch behind them says "no data".
    plot_->axisRect()->setBackground(QBrush(QColor(0xbb, 0xbb, 0xbb), Qt::BDiagPattern));
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->xAxis->grid()->setVisible(false);
    plot_->yAxis->grid()->setVisible(false);
    plot_->yAxis->setRangeReversed(true); // the first action's 0 on top, as the table reads

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    split->addWidget(plot_);
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
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (!plot_->axisRect()->rect().contains(event->position().toPoint()))
            return;
        const QPoint cell(static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(event->position().x()))),
                          static_cast<int>(std::lround(plot_->yAxis->pixelToCoord(event->position().y()))));
        selectCell(cell);
    });
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QPointF pos = event->position();
        const QPoint cell(static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(pos.x()))),
                          static_cast<int>(std::lround(plot_->yAxis->pixelToCoord(pos.y()))));
        const auto seq = plot_->axisRect()->rect().contains(pos.toPoint()) ? sequenceAt(cell) : std::vector<int>{};
        if (seq.empty()) {
            QToolTip::hideText();
            return;
        }
        const auto acc = cellAccuracy(cell);
        QString text = seqText(seq) + QStringLiteral(": ") + (acc ? percent(*acc) : tr("not in the table"));
        if (acc)
            text += tr(", rank %1").arg(model_->table()->rank(seq));
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
    });

    clear();
}

QSortFilterProxyModel* TableExplorer::proxyModel() const { return proxy_; }

void TableExplorer::clear()
{
    name_.clear();
    model_->clear();
    baselines_->setText(tr("<i>No simulation table</i>"));
    rebuildHeatmap();
    updateStatus();
}

void TableExplorer::setTable(const core::sim::SimulationTable& table, const QString& name)
{
    name_ = name;
    model_->setTable(table);
    view_->sortByColumn(model_->sequenceColumn(), Qt::AscendingOrder);
    // Shown with accuracy, rank and Δ right after the sequence and the time left last: the model
    // keeps the reference file's column order, the eye wants the result next to the sequence.
    {
        auto* header = view_->horizontalHeader();
        std::vector<int> order;
        for (int c = 0; c <= model_->sequenceColumn(); ++c)
            order.push_back(c);
        for (int c : {model_->accuracyColumn(), model_->rankColumn(), model_->deltaColumn()})
            order.push_back(c);
        for (int i = 0; i < model_->decisions(); ++i)
            order.push_back(model_->timeLeftColumn(i));
        for (int v = 0; v < static_cast<int>(order.size()); ++v)
            header->moveSection(header->visualIndex(order[static_cast<std::size_t>(v)]), v);
    }
    const auto& t = *model_->table();
    const int k = t.decisions();
    const int m = t.num_actions();
    rowDigits_ = k / 2;

    QStringList parts;
    parts << tr("<b>%1</b>").arg(name.toHtmlEscaped());
    parts << tr("%1 of %2 sequences (%3 decisions × %4 actions, %5 = do nothing)")
                 .arg(t.rows().size())
                 .arg(t.sequences())
                 .arg(k)
                 .arg(m)
                 .arg(t.do_nothing());
    if (!t.rows().empty()) {
        const auto& best = t.optimal();
        parts << tr("optimal <b>%1</b>: <b>%2</b>").arg(seqText(best.actions), percent(best.accuracy));
    }
    const auto none = t.no_adaptation_sequence();
    if (const auto* row = t.find(none))
        parts << tr("no adaptation (%1): %2, rank %3").arg(seqText(none), percent(row->accuracy)).arg(t.rank(none));
    else
        parts << tr("no adaptation (%1): missing").arg(seqText(none));
    // A partial table may lack a drawn sequence: the baseline is then undefined, not zero.
    QString random;
    try {
        random = percent(t.random_mean(10, 0));
    } catch (const std::exception&) {
        random = tr("n/a");
    }
    parts << tr("random mean of 10: %1").arg(random);
    if (!t.rows().empty())
        parts << tr("expectation%1: %2").arg(t.complete() ? QString() : tr(" (rows present)"), percent(t.expected_random()));
    baselines_->setText(parts.join(QStringLiteral(" &nbsp;·&nbsp; ")));

    {
        const QSignalBlocker b1(filterEdit_), b2(minAccuracy_);
        filterEdit_->clear();
        minAccuracy_->setValue(0.0);
    }
    proxy_->setFilter(QString(), 0.0);
    rebuildHeatmap();
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

QString TableExplorer::baselineText() const { return baselines_->text(); }

QSize TableExplorer::heatmapSize() const
{
    if (!model_->table())
        return {0, 0};
    const int m = model_->table()->num_actions();
    const int k = model_->table()->decisions();
    return {ipow(m, k - rowDigits_), ipow(m, rowDigits_)};
}

QPoint TableExplorer::cellOf(const std::vector<int>& sequence) const
{
    if (!model_->table() || static_cast<int>(sequence.size()) != model_->decisions())
        return {-1, -1};
    const int m = model_->table()->num_actions();
    int row = 0, col = 0;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
        int& code = static_cast<int>(i) < rowDigits_ ? row : col;
        code = code * m + sequence[i];
    }
    return {col, row};
}

std::vector<int> TableExplorer::sequenceAt(QPoint cell) const
{
    const QSize size = heatmapSize();
    if (cell.x() < 0 || cell.y() < 0 || cell.x() >= size.width() || cell.y() >= size.height())
        return {};
    const int m = model_->table()->num_actions();
    const int k = model_->decisions();
    std::vector<int> seq(static_cast<std::size_t>(k));
    int row = cell.y(), col = cell.x();
    for (int i = k; i-- > 0;) {
        int& code = i < rowDigits_ ? row : col;
        seq[static_cast<std::size_t>(i)] = code % m;
        code /= m;
    }
    return seq;
}

std::optional<double> TableExplorer::cellAccuracy(QPoint cell) const
{
    const QSize size = heatmapSize();
    if (cell.x() < 0 || cell.y() < 0 || cell.x() >= size.width() || cell.y() >= size.height())
        return std::nullopt;
    const double v = map_->data()->cell(cell.x(), cell.y());
    if (std::isnan(v))
        return std::nullopt;
    return v;
}

QPoint TableExplorer::markerCell(const QCPItemRect* marker) const
{
    if (!marker || !marker->visible())
        return {-1, -1};
    const double x = (marker->topLeft->coords().x() + marker->bottomRight->coords().x()) / 2.0;
    const double y = (marker->topLeft->coords().y() + marker->bottomRight->coords().y()) / 2.0;
    return {static_cast<int>(std::lround(x)), static_cast<int>(std::lround(y))};
}

QPoint TableExplorer::optimalCell() const { return markerCell(optimalMarker_); }
QPoint TableExplorer::selectedCell() const { return markerCell(selectionMarker_); }

void TableExplorer::rebuildHeatmap()
{
    plot_->clearItems();
    optimalMarker_ = nullptr;
    optimalStar_ = nullptr;
    auto xTicker = qSharedPointerCast<QCPAxisTickerText>(plot_->xAxis->ticker());
    auto yTicker = qSharedPointerCast<QCPAxisTickerText>(plot_->yAxis->ticker());
    xTicker->clear();
    yTicker->clear();

    selectionMarker_ = new QCPItemRect(plot_);
    selectionMarker_->setPen(QPen(QColor(0xe0, 0x20, 0x20), 2.0, Qt::SolidLine));
    selectionMarker_->setBrush(Qt::NoBrush);
    selectionMarker_->setVisible(false);

    const QSize size = heatmapSize();
    if (size.isEmpty()) {
        map_->data()->clear();
        map_->setVisible(false);
        scale_->setVisible(false);
        plot_->xAxis->setLabel(QString());
        plot_->yAxis->setLabel(QString());
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const auto& t = *model_->table();
    const int m = t.num_actions();
    const int k = t.decisions();
    const int cols = size.width(), rows = size.height();

    map_->setVisible(true);
    scale_->setVisible(true);
    map_->data()->setSize(cols, rows);
    map_->data()->setRange(QCPRange(0, cols - 1), QCPRange(0, rows - 1));
    map_->data()->fill(std::numeric_limits<double>::quiet_NaN());
    double lo = 1.0, hi = 0.0;
    for (const auto& r : t.rows()) {
        const QPoint c = cellOf(r.actions);
        map_->data()->setCell(c.x(), c.y(), r.accuracy);
        lo = std::min(lo, r.accuracy);
        hi = std::max(hi, r.accuracy);
    }
    if (lo > hi)
        lo = hi = 0.5;
    if (hi - lo < 1e-3) { // a flat table still needs a range to colour
        lo -= 5e-4;
        hi += 5e-4;
    }
    map_->setDataRange(QCPRange(lo, hi));
    // 1×N single-row maps (one decision) need a cell-sized range of 1 to draw.
    plot_->xAxis->setRange(-0.5, cols - 0.5);
    plot_->yAxis->setRange(-0.5, rows - 0.5);

    auto label = [m](int code, int digits) {
        QStringList parts;
        std::vector<int> d(static_cast<std::size_t>(digits));
        for (int i = digits; i-- > 0;) {
            d[static_cast<std::size_t>(i)] = code % m;
            code /= m;
        }
        for (int v : d)
            parts << QString::number(v);
        return parts.join(QLatin1Char(' '));
    };
    const int colDigits = k - rowDigits_;
    // Past 16 cells a side every label no longer fits: label the group starts, which the group
    // lines below delimit, and leave the rest to the tooltip.
    const int colStep = cols > 16 ? m : 1;
    const int rowStep = rows > 16 ? m : 1;
    for (int c = 0; c < cols; c += colStep)
        xTicker->addTick(c, label(c, colDigits));
    for (int r = 0; r < rows && rowDigits_ > 0; r += rowStep)
        yTicker->addTick(r, label(r, rowDigits_));
    plot_->xAxis->setSubTicks(false);
    plot_->yAxis->setSubTicks(false);
    QStringList xNames, yNames;
    for (int i = 0; i < k; ++i)
        (i < rowDigits_ ? yNames : xNames) << QStringLiteral("a%1").arg(i + 1);
    plot_->xAxis->setLabel(xNames.join(QLatin1Char(' ')) + tr("   (%1 = do nothing)").arg(t.do_nothing()));
    plot_->yAxis->setLabel(yNames.join(QLatin1Char(' ')));

    // Lines between groups of the slower-changing column (row) action make the nesting legible.
    const QPen groupPen(QColor(255, 255, 255, 200), 1.5);
    if (colDigits > 1)
        for (int g = m; g < cols; g += m) {
            auto* line = new QCPItemLine(plot_);
            line->start->setCoords(g - 0.5, -0.5);
            line->end->setCoords(g - 0.5, rows - 0.5);
            line->setPen(groupPen);
        }
    if (rowDigits_ > 1)
        for (int g = m; g < rows; g += m) {
            auto* line = new QCPItemLine(plot_);
            line->start->setCoords(-0.5, g - 0.5);
            line->end->setCoords(cols - 0.5, g - 0.5);
            line->setPen(groupPen);
        }

    if (!t.rows().empty()) {
        const QPoint c = cellOf(t.optimal().actions);
        optimalMarker_ = new QCPItemRect(plot_);
        optimalMarker_->topLeft->setCoords(c.x() - 0.5, c.y() - 0.5);
        optimalMarker_->bottomRight->setCoords(c.x() + 0.5, c.y() + 0.5);
        optimalMarker_->setPen(QPen(Qt::black, 2.5));
        optimalMarker_->setBrush(Qt::NoBrush);
        optimalStar_ = new QCPItemText(plot_);
        optimalStar_->position->setCoords(c.x(), c.y());
        optimalStar_->setText(QStringLiteral("★"));
        optimalStar_->setColor(Qt::black);
        QFont f = optimalStar_->font();
        f.setPointSizeF(f.pointSizeF() * 1.2);
        optimalStar_->setFont(f);
    }
    // Drawn last so that it sits on top of the optimal marker when both fall on one cell.
    selectionMarker_->setLayer(QStringLiteral("overlay"));
    onSelectionChanged();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

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
    if (!selectionMarker_)
        return;
    if (!seq) {
        selectionMarker_->setVisible(false);
    } else {
        const QPoint c = cellOf(*seq);
        selectionMarker_->topLeft->setCoords(c.x() - 0.5, c.y() - 0.5);
        selectionMarker_->bottomRight->setCoords(c.x() + 0.5, c.y() + 0.5);
        selectionMarker_->setVisible(true);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
    if (seq)
        Q_EMIT sequenceSelected(static_cast<int>(model_->table()->find(*seq) - model_->table()->rows().data()));
}

QString TableExplorer::exportHeatmap(const QString& path, const ExportSettings& settings)
{
    return widgets::exportPlot(*plot_, path, settings);
}

} // namespace rlda::widgets
