// Policy inspector, per decision: the agent's action probabilities as bars, the chosen action marked.
#include "widgets/inspect/decision_view.h"

#include "widgets/qcp.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace rlda::widgets {
namespace {

// Muted blue for the field, orange for the choice: tells them apart in colour-blind vision too.
const QColor kBarColor(0x4c, 0x72, 0xb0);
const QColor kChosenColor(0xdd, 0x84, 0x52);

// The run's action space, when its actions are of more operations than deepening.
std::optional<core::model::ActionSpace> spaceOf(const core::train::AdaptationEvent& e)
{
    const int blocks = std::max(e.before.original_blocks, e.after.original_blocks);
    if (blocks < 1 || e.operations == std::vector<std::string>{"deepen"})
        return std::nullopt;
    try {
        return core::model::ActionSpace(blocks, core::model::parse_operations(e.operations));
    } catch (const std::exception&) {
        return std::nullopt; // a record of operations this version does not know is shown by number
    }
}

int actionCountOf(const core::train::AdaptationEvent& e)
{
    int n = 0;
    if (!e.probabilities.empty())
        n = static_cast<int>(e.probabilities.size());
    else if (const auto space = spaceOf(e))
        n = space->size();
    else if (e.before.original_blocks > 0)
        n = e.before.original_blocks + 1;
    else if (e.after.original_blocks > 0)
        n = e.after.original_blocks + 1;
    return std::max(n, e.action + 1);
}

} // namespace

QString DecisionView::actionLabel(int action, int actionCount)
{
    if (action == actionCount - 1)
        return tr("do nothing");
    return tr("block %1").arg(action);
}

QStringList DecisionView::actionLabels(const core::train::AdaptationEvent& e)
{
    const int n = actionCountOf(e);
    QStringList out;
    const auto space = spaceOf(e);
    for (int a = 0; a < n; ++a) {
        if (space && space->size() == n) {
            const auto action = space->at(a);
            out << (action.nothing ? tr("do nothing")
                                   : tr("%1 %2").arg(QString::fromStdString(core::model::to_string(action.op)))
                                         .arg(action.block));
        } else {
            out << actionLabel(a, n);
        }
    }
    return out;
}

QString DecisionView::preservationText(const core::train::AdaptationEvent& e)
{
    return e.max_abs_diff < 0.0 ? QStringLiteral("—") : QString::number(e.max_abs_diff, 'g', 2);
}

DecisionView::DecisionView(QWidget* parent)
    : QWidget(parent)
{
    list_ = new QTreeWidget(this);
    list_->setObjectName(QStringLiteral("decisionList"));
    list_->setColumnCount(5);
    list_->setHeaderLabels({tr("#"), tr("t (s)"), tr("Action"), tr("Agent"), tr("max |Δ|")});
    list_->headerItem()->setToolTip(PreservedColumn, tr("Function preservation: the largest change of the model's "
                                                        "outputs the operation made, in eval mode"));
    list_->setRootIsDecorated(false);
    list_->setUniformRowHeights(true);
    list_->setAlternatingRowColors(true);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    list_->headerItem()->setTextAlignment(TimeColumn, Qt::AlignRight | Qt::AlignVCenter);

    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("decisionNote"));
    note_->setWordWrap(true);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("decisionPlot"));
    plot_->setMinimumSize(280, 110);
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setName(tr("probability"));
    bars_->setWidth(0.6);
    bars_->setPen(QPen(kBarColor.darker(130)));
    bars_->setBrush(kBarColor);
    chosen_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    chosen_->setObjectName(QStringLiteral("chosen"));
    chosen_->setName(tr("chosen"));
    chosen_->setWidth(0.6);
    chosen_->setPen(QPen(kChosenColor.darker(130), 1.5));
    chosen_->setBrush(kChosenColor);
    plot_->yAxis->setLabel(tr("probability"));
    plot_->yAxis->setRange(0.0, 1.08);
    plot_->xAxis->grid()->setVisible(false);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(note_);
    rightLayout->addWidget(plot_, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(list_);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({260, 740});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(list_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item)
            setCurrentDecision(item->data(DecisionColumn, IndexRole).toInt());
    });

    clear();
}

void DecisionView::clear()
{
    events_.clear();
    list_->clear();
    current_ = -1;
    showCurrent();
}

void DecisionView::appendRow(int index)
{
    const auto& e = events_[static_cast<std::size_t>(index)];
    const QStringList labels = actionLabels(e);
    auto* row = new QTreeWidgetItem(list_);
    row->setText(DecisionColumn, QString::number(index + 1));
    row->setData(DecisionColumn, IndexRole, index);
    row->setToolTip(DecisionColumn, tr("decision %1 of its adaptation mode").arg(e.decision));
    row->setText(TimeColumn, QString::number(e.time, 'f', 1));
    row->setTextAlignment(TimeColumn, Qt::AlignRight | Qt::AlignVCenter);
    row->setText(ActionColumn, labels.value(e.action, QString::number(e.action)));
    row->setData(ActionColumn, ActionRole, e.action);
    row->setText(AgentColumn, QString::fromStdString(e.agent));
    row->setData(AgentColumn, HasProbabilitiesRole, !e.probabilities.empty());
    row->setText(PreservedColumn, preservationText(e));
    row->setTextAlignment(PreservedColumn, Qt::AlignRight | Qt::AlignVCenter);
}

void DecisionView::addDecision(const core::train::AdaptationEvent& event)
{
    const bool follow = current_ == decisionCount() - 1;
    events_.push_back(event);
    appendRow(decisionCount() - 1);
    if (follow)
        setCurrentDecision(decisionCount() - 1);
}

void DecisionView::setDecisions(const std::vector<core::train::AdaptationEvent>& events)
{
    events_ = events;
    {
        const QSignalBlocker block(list_);
        list_->clear();
        for (int i = 0; i < decisionCount(); ++i)
            appendRow(i);
    }
    current_ = -1;
    if (events_.empty())
        showCurrent();
    else
        setCurrentDecision(decisionCount() - 1);
}

void DecisionView::setCurrentDecision(int index)
{
    if (index < 0 || index >= decisionCount() || index == current_)
        return;
    current_ = index;
    if (auto* item = list_->topLevelItem(index); item && list_->currentItem() != item) {
        const QSignalBlocker block(list_);
        list_->setCurrentItem(item);
    }
    showCurrent();
    Q_EMIT currentDecisionChanged(current_);
}

bool DecisionView::hasProbabilities() const
{
    return current_ >= 0 && !events_[static_cast<std::size_t>(current_)].probabilities.empty();
}

QString DecisionView::exportPlot(const QString& path, const ExportSettings& settings)
{
    return widgets::exportPlot(*plot_, path, settings);
}

void DecisionView::showCurrent()
{
    bars_->data()->clear();
    chosen_->data()->clear();
    plot_->clearItems();
    labels_.clear();
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot_->xAxis->ticker());
    ticker->clear();

    if (current_ < 0) {
        note_->setText(tr("No decisions yet"));
        plot_->xAxis->setRange(-0.5, 3.5);
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }

    const auto& e = events_[static_cast<std::size_t>(current_)];
    const int n = actionCountOf(e);
    const QStringList names = actionLabels(e);
    for (int a = 0; a < n; ++a) {
        labels_ << names[a];
        // The choice is named under its bar as well, for print and for readers who miss colour.
        ticker->addTick(a, a == e.action ? labels_.back() + tr("\n(chosen)") : labels_.back());
    }
    plot_->xAxis->setRange(-0.5, n - 0.5);

    // A band behind the chosen column marks the choice even when there are no bars to colour.
    auto* band = new QCPItemRect(plot_);
    band->setObjectName(QStringLiteral("chosenBand"));
    band->setLayer(QStringLiteral("grid"));
    band->topLeft->setCoords(e.action - 0.45, 1.08);
    band->bottomRight->setCoords(e.action + 0.45, 0.0);
    band->setPen(Qt::NoPen);
    QColor bandColor = kChosenColor;
    bandColor.setAlpha(40);
    band->setBrush(bandColor);

    const QString head = tr("decision %1 at t=%2 s (%3 s left) · agent %4 · chosen: %5")
                             .arg(current_ + 1)
                             .arg(e.time, 0, 'f', 1)
                             .arg(e.time_left, 0, 'f', 1)
                             .arg(QString::fromStdString(e.agent), names.value(e.action))
                         + (e.max_abs_diff >= 0.0 ? tr(" · max |Δ| %1").arg(preservationText(e)) : QString());
    if (e.probabilities.empty()) {
        note_->setText(head + tr(" · no probabilities (fixed/random agent)"));
        auto* text = new QCPItemText(plot_);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.45);
        text->setText(tr("no probabilities (fixed/random agent)"));
        text->setColor(palette().color(QPalette::Disabled, QPalette::Text));
    } else {
        // A malformed event (action past its probabilities) is drawn with p = 0 rather than refused:
        // the inspector is where such a record should become visible.
        auto prob = [&e](int a) {
            return a < static_cast<int>(e.probabilities.size()) ? e.probabilities[static_cast<std::size_t>(a)] : 0.0;
        };
        note_->setText(head + tr(" · p = %1").arg(prob(e.action), 0, 'f', 3));
        for (int a = 0; a < n; ++a) {
            const double p = prob(a);
            (a == e.action ? chosen_ : bars_)->addData(a, p);
            auto* label = new QCPItemText(plot_);
            label->position->setCoords(a, p);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            label->setPadding(QMargins(0, 0, 0, 3));
            label->setText(QString::number(100.0 * p, 'f', 1) + QLatin1Char('%'));
            if (a == e.action) {
                QFont f = label->font();
                f.setBold(true);
                label->setFont(f);
            }
        }
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace rlda::widgets
