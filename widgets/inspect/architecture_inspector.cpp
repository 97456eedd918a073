// Architecture inspector: how a job's model grew, step by step, and what changed between two steps.
#include "widgets/inspect/architecture_inspector.h"

#include "widgets/adaptation_text.h"
#include "widgets/inspect/model_graph.h"

#include <QEvent>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace rlda::widgets {
namespace {

namespace m = core::model;

// Green reads as "grown" and stays legible on light and dark palettes; ModelPanel uses the same.
const QColor kAddedColor = ModelGraph::addedColor();
const QColor kRemovedColor(0xb2, 0x22, 0x22);

QString typeOf(const std::string& pytorch)
{
    const QString s = QString::fromStdString(pytorch);
    const auto paren = s.indexOf(QLatin1Char('('));
    return paren < 0 ? s : s.left(paren);
}

QString typesOf(const m::BlockSummary& u)
{
    QStringList types;
    for (const auto& l : u.layers)
        types << typeOf(l);
    return types.join(QStringLiteral(" → "));
}

QString unitName(const std::vector<m::BlockSummary>& units, std::size_t p)
{
    const auto& u = units[p];
    if (u.is_block && u.original)
        return ArchitectureInspector::tr("block %1").arg(u.original_index);
    if (u.is_block)
        return ArchitectureInspector::tr("added block (Deepen %1)").arg(m::deepened_block_before(units, p));
    return ArchitectureInspector::tr("layer");
}

QString signedCount(const ArchitectureInspector& w, qint64 v)
{
    return (v > 0 ? QStringLiteral("+") : v < 0 ? QStringLiteral("−") : QString()) + w.formatCount(v < 0 ? -v : v);
}

} // namespace

ArchitectureInspector::ArchitectureInspector(QWidget* parent)
    : QWidget(parent)
{
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("architectureHeader"));
    header_->setTextFormat(Qt::RichText);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("stepSlider"));
    slider_->setTickPosition(QSlider::TicksBelow);
    slider_->setTickInterval(1);
    slider_->setPageStep(1);
    stepLabel_ = new QLabel(this);
    stepLabel_->setObjectName(QStringLiteral("stepLabel"));
    stepLabel_->setMinimumWidth(260);
    auto* stepRow = new QHBoxLayout;
    stepRow->addWidget(slider_, 1);
    stepRow->addWidget(stepLabel_);

    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("unitTree"));
    tree_->setColumnCount(4);
    tree_->setHeaderLabels({tr("Unit"), tr("Kind"), tr("Layers"), tr("Parameters")});
    tree_->headerItem()->setTextAlignment(ParametersColumn, Qt::AlignRight | Qt::AlignVCenter);
    tree_->setAlternatingRowColors(true);
    tree_->setUniformRowHeights(true);
    tree_->setRootIsDecorated(true);
    auto* h = tree_->header();
    h->setStretchLastSection(false);
    // Sized by fitTreeColumns(): whole parameter counts always, the names elided before them.
    h->setSectionResizeMode(UnitColumn, QHeaderView::Interactive);
    h->setSectionResizeMode(KindColumn, QHeaderView::Interactive);
    h->setSectionResizeMode(LayersColumn, QHeaderView::Stretch);
    h->setSectionResizeMode(ParametersColumn, QHeaderView::Fixed);
    tree_->viewport()->installEventFilter(this);
    total_ = new QLabel(this);
    total_->setObjectName(QStringLiteral("totalLabel"));
    total_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);

    auto* modelBox = new QWidget(this);
    auto* modelLayout = new QVBoxLayout(modelBox);
    modelLayout->setContentsMargins(0, 0, 0, 0);
    modelLayout->addWidget(tree_, 1);
    modelLayout->addWidget(total_);

    auto* diffBox = new QGroupBox(tr("Compare steps"), this);
    fromBox_ = new QSpinBox(diffBox);
    fromBox_->setObjectName(QStringLiteral("diffFrom"));
    toBox_ = new QSpinBox(diffBox);
    toBox_->setObjectName(QStringLiteral("diffTo"));
    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("step A"), diffBox));
    pick->addWidget(fromBox_);
    pick->addSpacing(12);
    pick->addWidget(new QLabel(tr("step B"), diffBox));
    pick->addWidget(toBox_);
    pick->addStretch(1);
    diffSummary_ = new QLabel(diffBox);
    diffSummary_->setObjectName(QStringLiteral("diffSummary"));
    diffSummary_->setTextFormat(Qt::RichText);
    diffSummary_->setWordWrap(true);
    diffTree_ = new QTreeWidget(diffBox);
    diffTree_->setObjectName(QStringLiteral("diffTree"));
    diffTree_->setColumnCount(3);
    diffTree_->setHeaderLabels({tr("Unit"), tr("Layers"), tr("Parameters")});
    diffTree_->headerItem()->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
    diffTree_->setRootIsDecorated(false);
    diffTree_->setUniformRowHeights(true);
    auto* dh = diffTree_->header();
    dh->setStretchLastSection(false);
    dh->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    dh->setSectionResizeMode(1, QHeaderView::Stretch);
    dh->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    // Checks get their own list: their text is long and would squeeze the unit columns.
    checkTree_ = new QTreeWidget(diffBox);
    checkTree_->setObjectName(QStringLiteral("checkTree"));
    checkTree_->setColumnCount(3);
    checkTree_->setHeaderLabels({tr("Step"), tr("Decision"), tr("Function preservation")});
    checkTree_->setRootIsDecorated(false);
    checkTree_->setUniformRowHeights(true);
    auto* ch = checkTree_->header();
    ch->setStretchLastSection(true);
    ch->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    ch->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto* diffLayout = new QVBoxLayout(diffBox);
    diffLayout->addLayout(pick);
    diffLayout->addWidget(diffSummary_);
    diffLayout->addWidget(diffTree_, 3);
    diffLayout->addWidget(new QLabel(tr("Decisions between the two steps:"), diffBox));
    diffLayout->addWidget(checkTree_, 2);

    // The table above the comparison, and the graph of the same step beside both, full height:
    // a model is drawn tall and narrow.
    auto* tables = new QSplitter(Qt::Vertical, this);
    tables->addWidget(modelBox);
    tables->addWidget(diffBox);
    tables->setStretchFactor(0, 3);
    tables->setStretchFactor(1, 2);
    tables->setSizes({3000, 2000});
    graph_ = new ModelGraph(this);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tables);
    split->addWidget(scrollAreaFor(graph_, this));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(header_);
    layout->addLayout(stepRow);
    layout->addWidget(split, 1);

    connect(slider_, &QSlider::valueChanged, this, &ArchitectureInspector::setCurrentStep);
    connect(fromBox_, &QSpinBox::valueChanged, this, &ArchitectureInspector::rebuildDiff);
    connect(toBox_, &QSpinBox::valueChanged, this, &ArchitectureInspector::rebuildDiff);

    clear();
}

QString ArchitectureInspector::formatCount(qint64 value) const
{
    QLocale loc = locale();
    loc.setNumberOptions(loc.numberOptions() & ~QLocale::OmitGroupSeparator);
    return loc.toString(value);
}

QString ArchitectureInspector::preservationText(double maxAbsDiff)
{
    if (maxAbsDiff < 0.0)
        return tr("not measured");
    const QString value = QString::number(maxAbsDiff, 'g', 2);
    if (maxAbsDiff <= kPreservationTolerance)
        return tr("preserved: max |Δ| = %1 ✓").arg(value);
    return tr("NOT preserved: max |Δ| = %1 ✗").arg(value);
}

int ArchitectureInspector::graphReference() const
{
    if (stepCount() == 0)
        return -1;
    const int earlier = std::min(diffFrom(), diffTo());
    if (earlier < current_)
        return earlier;
    return current_ - 1;
}

void ArchitectureInspector::refreshGraph()
{
    if (stepCount() == 0) {
        graph_->clear();
        return;
    }
    const int ref = graphReference();
    if (ref < 0)
        graph_->setSummary(summaryAt(current_));
    else
        graph_->setSummary(summaryAt(current_), summaryAt(ref), tr("step %1").arg(ref));
}

QString ArchitectureInspector::exportGraph(const QString& path, const ExportSettings& settings) const
{
    return graph_->exportTo(path, settings);
}

void ArchitectureInspector::clear()
{
    summaries_.clear();
    events_.clear();
    current_ = 0;
    refreshControls();
    rebuildTree();
    rebuildDiff();
}

void ArchitectureInspector::setInitial(const core::model::ModelSummary& initial)
{
    summaries_.assign(1, initial);
    events_.clear();
    current_ = 0;
    refreshControls();
    rebuildTree();
    rebuildDiff();
}

void ArchitectureInspector::addAdaptation(const core::train::AdaptationEvent& event)
{
    if (summaries_.empty())
        summaries_.push_back(event.before);
    const bool followEnd = current_ == stepCount() - 1;
    // Keep the comparison on "start vs. latest" while a run grows, unless the user chose otherwise.
    const bool diffAtEnd = toBox_->value() == stepCount() - 1;
    summaries_.push_back(event.after);
    events_.push_back(event);
    refreshControls();
    if (diffAtEnd)
        toBox_->setValue(stepCount() - 1);
    if (followEnd)
        setCurrentStep(stepCount() - 1);
    else
        stepLabel_->setText(stepLine(current_)); // N in "k/N" grew
    rebuildDiff();
}

void ArchitectureInspector::setSteps(const core::model::ModelSummary& initial,
                                     const std::vector<core::train::AdaptationEvent>& events)
{
    summaries_.assign(1, initial);
    events_.clear();
    for (const auto& e : events) {
        summaries_.push_back(e.after);
        events_.push_back(e);
    }
    current_ = stepCount() - 1;
    refreshControls();
    const QSignalBlocker b1(fromBox_), b2(toBox_);
    fromBox_->setValue(0);
    toBox_->setValue(stepCount() - 1);
    rebuildTree();
    rebuildDiff();
    Q_EMIT currentStepChanged(current_);
}

const core::model::ModelSummary& ArchitectureInspector::summaryAt(int step) const
{
    if (step < 0 || step >= stepCount())
        throw std::out_of_range("ArchitectureInspector::summaryAt: no step " + std::to_string(step));
    return summaries_[static_cast<std::size_t>(step)];
}

const core::train::AdaptationEvent& ArchitectureInspector::eventAt(int step) const
{
    if (step < 1 || step >= stepCount())
        throw std::out_of_range("ArchitectureInspector::eventAt: no event leads to step " + std::to_string(step));
    return events_[static_cast<std::size_t>(step - 1)];
}

void ArchitectureInspector::setCurrentStep(int step)
{
    if (stepCount() == 0)
        return;
    step = std::clamp(step, 0, stepCount() - 1);
    if (slider_->value() != step) {
        const QSignalBlocker block(slider_);
        slider_->setValue(step);
    }
    if (step == current_ && tree_->topLevelItemCount() > 0) {
        stepLabel_->setText(stepLine(step));
        return;
    }
    current_ = step;
    rebuildTree();
    Q_EMIT currentStepChanged(current_);
}

void ArchitectureInspector::setDiffSteps(int a, int b)
{
    {
        const QSignalBlocker b1(fromBox_), b2(toBox_);
        fromBox_->setValue(a);
        toBox_->setValue(b);
    }
    rebuildDiff();
}

int ArchitectureInspector::diffFrom() const { return stepCount() == 0 ? 0 : fromBox_->value(); }
int ArchitectureInspector::diffTo() const { return stepCount() == 0 ? 0 : toBox_->value(); }

QString ArchitectureInspector::stepText(int step) const
{
    const int last = std::max(0, stepCount() - 1);
    if (step <= 0 || step > last)
        return tr("step %1/%2: starting model").arg(std::max(step, 0)).arg(last);
    const auto& e = eventAt(step);
    const auto [operation, block] = operationOf(e);
    const QString what = e.did_nothing ? tr("do nothing") : tr("%1 block %2").arg(QString::fromStdString(operation)).arg(block);
    return tr("step %1/%2: %3 at t=%4 s").arg(step).arg(last).arg(what).arg(e.time, 0, 'f', 1);
}

QString ArchitectureInspector::stepLine(int step) const
{
    QString line = stepText(step);
    if (step > 0 && step < stepCount() && !eventAt(step).did_nothing)
        line += QStringLiteral(" · ") + preservationText(eventAt(step).max_abs_diff);
    return line;
}

ArchitectureInspector::StepDiff ArchitectureInspector::diffBetween(int a, int b) const
{
    StepDiff d;
    d.from = a;
    d.to = b;
    const auto& sa = summaryAt(a);
    const auto& sb = summaryAt(b);
    const auto units = m::diff_units(sa.units, sb.units);
    for (auto i : units.only_a)
        d.removed.push_back(sa.units[i]);
    for (auto j : units.only_b)
        d.added.push_back(sb.units[j]);
    for (const auto& [i, j] : units.resized)
        d.resized.emplace_back(sa.units[i], sb.units[j]);
    d.parameters_from = sa.parameters;
    d.parameters_to = sb.parameters;
    d.parameter_delta = sb.parameters - sa.parameters;
    for (int s = std::min(a, b) + 1; s <= std::max(a, b); ++s) {
        const auto& e = eventAt(s);
        const auto [operation, block] = operationOf(e);
        d.checks.push_back({s, e.action, e.did_nothing, e.max_abs_diff, operation, block});
    }
    return d;
}

void ArchitectureInspector::refreshControls()
{
    const int last = std::max(0, stepCount() - 1);
    const bool any = stepCount() > 0;
    {
        const QSignalBlocker block(slider_);
        slider_->setRange(0, last);
        slider_->setValue(current_);
    }
    slider_->setEnabled(stepCount() > 1);
    for (auto* box : {fromBox_, toBox_}) {
        const QSignalBlocker block(box);
        box->setRange(0, last);
        box->setEnabled(any);
    }
    stepLabel_->setText(any ? stepText(current_) : tr("no model"));
}

void ArchitectureInspector::rebuildTree()
{
    tree_->clear();
    refreshGraph();
    if (stepCount() == 0) {
        header_->setText(tr("<i>No model</i>"));
        total_->clear();
        return;
    }
    const auto& s = summaryAt(current_);
    stepLabel_->setText(stepLine(current_));

    // What this step added, to flag it in the tree.
    std::vector<bool> isNew(s.units.size(), false);
    if (current_ > 0) {
        const auto units = m::diff_units(summaryAt(current_ - 1).units, s.units);
        for (auto j : units.only_b)
            isNew[j] = true;
        for (const auto& pair : units.resized)
            isNew[pair.second] = true;
    }

    int added = 0;
    for (const auto& u : s.units)
        added += u.is_block && !u.original ? 1 : 0;
    header_->setText(tr("<b>%1</b> &nbsp;·&nbsp; step %2 of %3 &nbsp;·&nbsp; <b>%4</b> parameters &nbsp;·&nbsp; "
                        "%5 original blocks, <span style='color:%7'>%6 added</span>")
                         .arg(QString::fromStdString(s.name).toHtmlEscaped())
                         .arg(current_)
                         .arg(stepCount() - 1)
                         .arg(formatCount(s.parameters))
                         .arg(s.original_blocks)
                         .arg(added)
                         .arg(kAddedColor.name()));

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QFont bold = tree_->font();
    bold.setBold(true);
    QFont italic = tree_->font();
    italic.setItalic(true);
    const QBrush dim = tree_->palette().brush(QPalette::Disabled, QPalette::Text);
    QColor addedBack = kAddedColor;
    addedBack.setAlpha(40);

    QList<QTreeWidgetItem*> rows;
    qint64 total = 0;
    for (std::size_t p = 0; p < s.units.size(); ++p) {
        const auto& u = s.units[p];
        total += u.parameters;
        auto* row = new QTreeWidgetItem;
        row->setText(UnitColumn, unitName(s.units, p));
        row->setData(UnitColumn, ActionRole, u.original_index);
        row->setData(UnitColumn, NewRole, bool(isNew[p]));
        row->setTextAlignment(ParametersColumn, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(ParametersColumn, u.parameters > 0 ? formatCount(u.parameters) : QStringLiteral("–"));
        row->setData(ParametersColumn, ValueRole, QVariant::fromValue<qint64>(u.parameters));
        if (u.is_block) {
            row->setText(LayersColumn, typesOf(u));
            for (const auto& l : u.layers) {
                auto* child = new QTreeWidgetItem(row);
                child->setText(LayersColumn, QString::fromStdString(l));
                child->setFont(LayersColumn, mono);
                child->setToolTip(LayersColumn, child->text(LayersColumn)); // long strings get elided
                child->setData(UnitColumn, KindRole, QStringLiteral("leaf"));
                child->setFlags(child->flags() & ~Qt::ItemIsSelectable);
            }
        } else {
            row->setText(LayersColumn, u.layers.empty() ? QString() : QString::fromStdString(u.layers.front()));
            row->setFont(LayersColumn, mono);
        }
        QString kind;
        if (u.is_block && u.original) {
            kind = QStringLiteral("block");
            row->setText(KindColumn, tr("original"));
            row->setFont(UnitColumn, bold);
        } else if (u.is_block) {
            kind = QStringLiteral("added");
            row->setText(KindColumn, isNew[p] ? tr("added (new)") : tr("added"));
            for (int c = 0; c < tree_->columnCount(); ++c) {
                row->setForeground(c, kAddedColor);
                row->setBackground(c, addedBack);
                row->setFont(c, italic);
            }
            if (isNew[p])
                row->setFont(KindColumn, [&] { QFont f = italic; f.setBold(true); return f; }());
        } else {
            kind = QStringLiteral("layer");
            row->setText(KindColumn, tr("layer"));
            row->setForeground(UnitColumn, dim);
            row->setForeground(KindColumn, dim);
        }
        row->setData(UnitColumn, KindRole, kind);
        rows << row;
    }
    tree_->addTopLevelItems(rows);
    tree_->expandAll();
    fitTreeColumns();

    QString text = tr("total <b>%1</b> parameters").arg(formatCount(s.parameters));
    if (total != s.parameters) // a summary whose units do not add up is worth saying so
        text += tr(" (units sum to %1)").arg(formatCount(total));
    if (current_ > 0)
        text += tr(" &nbsp;·&nbsp; %1 since step 0").arg(signedCount(*this, s.parameters - summaryAt(0).parameters));
    total_->setText(text);
}

bool ArchitectureInspector::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == tree_->viewport() && event->type() == QEvent::Resize)
        fitTreeColumns();
    return QWidget::eventFilter(watched, event);
}

void ArchitectureInspector::fitTreeColumns()
{
    // A narrow tree (a laptop screen, the docks shown) cut "9,312" to "9,3" at its edge, with no
    // ellipsis to say so (issue 43, item 21): the counts are never cut; the unit and kind names
    // give way first, elided ("added block (De…"), and the layers take what is left.
    auto* h = tree_->header();
    const QAbstractItemView* view = tree_; // sizeHintForColumn is public there, protected in QTreeView
    const auto wanted = [&](int column) {
        return std::max(view->sizeHintForColumn(column), h->sectionSizeHint(column));
    };
    const int parameters = wanted(ParametersColumn);
    const int unit = wanted(UnitColumn);
    const int kind = wanted(KindColumn);
    constexpr int kLeastLayers = 40;
    const int room = std::max(0, tree_->viewport()->width() - parameters - kLeastLayers);
    const int unitWidth = std::min(unit, std::max(room - kind, room / 2));
    const int kindWidth = std::min(kind, std::max(0, room - unitWidth));
    h->resizeSection(UnitColumn, unitWidth);
    h->resizeSection(KindColumn, kindWidth);
    h->resizeSection(ParametersColumn, parameters);
}

void ArchitectureInspector::rebuildDiff()
{
    diffTree_->clear();
    checkTree_->clear();
    refreshGraph();
    if (stepCount() == 0) {
        diffSummary_->setText(tr("<i>No steps</i>"));
        return;
    }
    const StepDiff d = diff();
    const auto& sb = summaryAt(d.to);
    const auto& sa = summaryAt(d.from);
    diffSummary_->setText(tr("step %1 → step %2: <span style='color:%7'>%3 added</span>, "
                             "<span style='color:%8'>%4 removed</span>; parameters %5 → %6 (<b>%9</b>)")
                              .arg(d.from)
                              .arg(d.to)
                              .arg(d.added.size())
                              .arg(d.removed.size())
                              .arg(formatCount(d.parameters_from), formatCount(d.parameters_to),
                                   kAddedColor.name(), kRemovedColor.name(),
                                   signedCount(*this, d.parameter_delta)) +
                          (d.resized.empty() ? QString() : tr("; %n resized by a widening", nullptr,
                                                              static_cast<int>(d.resized.size()))));

    auto addRow = [&](const QString& change, const QString& detail, const QString& params, const QString& kind) {
        auto* row = new QTreeWidgetItem(diffTree_);
        row->setText(0, change);
        row->setText(1, detail);
        row->setText(2, params);
        row->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        row->setData(0, KindRole, kind);
        return row;
    };
    // Positions of unmatched units, to name them as in their own step. A resized block is one
    // row, its first changed layer old → new.
    const auto [onlyA, onlyB, resized] = m::diff_units(sa.units, sb.units);
    for (const auto& [i, j] : resized) {
        const auto& u = sa.units[i];
        const auto& v = sb.units[j];
        QString detail;
        for (std::size_t l = 0; l < u.layers.size() && detail.isEmpty(); ++l)
            if (u.layers[l] != v.layers[l])
                detail = QString::fromStdString(u.layers[l]) + QStringLiteral(" → ") + QString::fromStdString(v.layers[l]);
        auto* row = addRow(QStringLiteral("~ ") + unitName(sb.units, j), detail,
                           signedCount(*this, v.parameters - u.parameters), QStringLiteral("widened"));
        row->setData(2, ValueRole, QVariant::fromValue<qint64>(v.parameters - u.parameters));
        row->setData(0, ActionRole, u.original_index);
        row->setToolTip(1, detail);
    }
    for (auto j : onlyB) {
        const auto& u = sb.units[j];
        auto* row = addRow(QStringLiteral("+ ") + unitName(sb.units, j), typesOf(u),
                           signedCount(*this, u.parameters), QStringLiteral("added"));
        row->setData(2, ValueRole, QVariant::fromValue<qint64>(u.parameters));
        row->setData(0, ActionRole, m::deepened_block_before(sb.units, j));
        for (int c = 0; c < 3; ++c)
            row->setForeground(c, kAddedColor);
    }
    for (auto i : onlyA) {
        const auto& u = sa.units[i];
        auto* row = addRow(QStringLiteral("− ") + unitName(sa.units, i), typesOf(u),
                           signedCount(*this, -u.parameters), QStringLiteral("removed"));
        row->setData(2, ValueRole, QVariant::fromValue<qint64>(-u.parameters));
        row->setData(0, ActionRole, m::deepened_block_before(sa.units, i));
        for (int c = 0; c < 3; ++c)
            row->setForeground(c, kRemovedColor);
    }
    for (const auto& c : d.checks) {
        auto* row = new QTreeWidgetItem(checkTree_);
        row->setText(0, QString::number(c.step));
        row->setTextAlignment(0, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(1, c.did_nothing ? tr("do nothing")
                                      : tr("%1 block %2").arg(QString::fromStdString(c.operation)).arg(c.block));
        // Do Nothing changes no weights, so there is nothing to preserve.
        row->setText(2, c.did_nothing ? tr("no change") : preservationText(c.max_abs_diff));
        row->setData(0, KindRole, QStringLiteral("check"));
        row->setData(0, ActionRole, c.did_nothing ? -1 : c.action);
        row->setData(2, ValueRole, c.max_abs_diff);
        if (!c.did_nothing && c.measured())
            row->setForeground(2, c.passed() ? kAddedColor : kRemovedColor);
        row->setToolTip(2, tr("Eval-mode outputs before vs. after the operation; pass at max |Δ| ≤ %1")
                               .arg(kPreservationTolerance));
    }
}

} // namespace rlda::widgets
