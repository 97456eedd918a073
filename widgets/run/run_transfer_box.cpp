// The Runs page's transfer metrics of two learning runs.
#include "widgets/run/run_transfer_box.h"

#include "widgets/qs.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSpinBox>

namespace rlda::widgets {

using core::io::RunData;

namespace {

// Which run of a pair continued a trained policy: a "settings" event naming a policy it started
// from, else the one whose episode counter did not start at 1 (it counts over the policy's life).
bool startedFromPolicy(const RunData& run)
{
    if (const auto settings = core::io::learn_settings(run))
        return !settings->from.empty();
    return !run.episodes.empty() && run.episodes.front().episode > 1;
}

std::vector<double> episodeSeries(const RunData& run, bool accuracy)
{
    std::vector<double> v;
    v.reserve(run.episodes.size());
    for (const auto& e : run.episodes)
        v.push_back(accuracy ? e.accuracy : e.objective);
    return v;
}

QString episodesText(const std::optional<std::int64_t>& n)
{
    return n ? QObject::tr("%1 episodes").arg(QLocale().toString(qint64(*n))) : QObject::tr("never");
}

} // namespace

RunTransferBox::RunTransferBox(QWidget* parent)
    : QGroupBox(tr("Transfer"), parent)
    , run_(new QComboBox(this))
    , series_(new QComboBox(this))
    , window_(new QSpinBox(this))
    , threshold_(new QDoubleSpinBox(this))
    , result_(new QLabel(this))
{
    setObjectName(QStringLiteral("transferBox"));
    run_->setObjectName(QStringLiteral("transferRun"));
    run_->setToolTip(tr("The run that started from a trained policy; the other learned from scratch"));
    series_->setObjectName(QStringLiteral("transferSeries"));
    series_->addItems({tr("accuracy"), tr("objective")});
    window_->setObjectName(QStringLiteral("transferWindow"));
    window_->setRange(1, 1000000);
    window_->setValue(100);
    window_->setSuffix(tr(" episodes"));
    threshold_->setObjectName(QStringLiteral("transferThreshold"));
    threshold_->setRange(-1e9, 1e9);
    threshold_->setDecimals(4);
    threshold_->setSingleStep(0.01);
    threshold_->setValue(0.8);
    result_->setObjectName(QStringLiteral("transferResult"));
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Three lines of results: a word-wrapped label in a squeezed splitter pane would otherwise
    // shrink to one.
    result_->setMinimumHeight(3 * result_->fontMetrics().lineSpacing() + 6);
    result_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* form = new QFormLayout(this);
    auto* settings = new QHBoxLayout;
    settings->addWidget(series_);
    settings->addWidget(new QLabel(tr("window"), this));
    settings->addWidget(window_);
    settings->addWidget(new QLabel(tr("threshold"), this));
    settings->addWidget(threshold_);
    settings->addStretch(1);
    form->addRow(tr("Transfer run"), run_);
    form->addRow(tr("Series"), settings);
    form->addRow(result_);
    hide();
    connect(run_, &QComboBox::currentIndexChanged, this, &RunTransferBox::update);
    connect(series_, &QComboBox::currentIndexChanged, this, &RunTransferBox::update);
    connect(window_, &QSpinBox::valueChanged, this, &RunTransferBox::update);
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, &RunTransferBox::update);
}

void RunTransferBox::setRuns(const QList<RunData>& runs)
{
    const bool pair = runs.size() == 2 && runs[0].kind == core::io::RunKind::Learning &&
                      runs[1].kind == core::io::RunKind::Learning;
    setVisible(pair);
    runs_ = pair ? runs : QList<RunData>();
    if (pair) {
        const QSignalBlocker block(run_);
        run_->clear();
        run_->addItem(qs(runs[0].name));
        run_->addItem(qs(runs[1].name));
        run_->setCurrentIndex(startedFromPolicy(runs[0]) && !startedFromPolicy(runs[1]) ? 0 : 1);
    }
    update();
}

void RunTransferBox::update()
{
    metrics_.reset();
    if (runs_.size() != 2) {
        result_->clear();
        return;
    }
    const int t = run_->currentIndex() == 0 ? 0 : 1;
    const bool accuracy = series_->currentIndex() == 0;
    const auto m = core::sim::transfer_metrics(episodeSeries(runs_[t], accuracy), episodeSeries(runs_[1 - t], accuracy),
                                               std::size_t(window_->value()), threshold_->value());
    metrics_ = m;
    QStringList lines;
    lines << (m.jumpstart ? tr("Jumpstart: <b>%1</b> (mean of the first %2 episodes, %3 minus %4)")
                                .arg(QString::asprintf("%+.4g", *m.jumpstart))
                                .arg(m.window)
                                .arg(qs(runs_[t].name).toHtmlEscaped(), qs(runs_[1 - t].name).toHtmlEscaped())
                          : tr("Jumpstart: — (a run without episodes)"));
    // Named by their runs: two runs that both learned from scratch (two seeds, say) are not a
    // "transfer" and a "scratch" run, and the box says which it compares (issue 43, item 17).
    const QString first = qs(runs_[t].name).toHtmlEscaped();
    const QString second = qs(runs_[1 - t].name).toHtmlEscaped();
    lines << tr("Rolling mean ≥ %1 reached after: %2 <b>%3</b>, %4 <b>%5</b>")
                 .arg(threshold_->value())
                 .arg(first, episodesText(m.transfer_episodes), second, episodesText(m.scratch_episodes));
    if (m.episodes_saved)
        lines << tr("Episodes saved by %1 over %2: <b>%3</b>")
                     .arg(first, second, QLocale().toString(qint64(*m.episodes_saved)));
    if (!startedFromPolicy(runs_[0]) && !startedFromPolicy(runs_[1]))
        lines
            << tr("<i>Neither run started from a trained policy: %1 is compared with %2, not a transfer with "
                  "learning from scratch</i>")
                   .arg(first, second);
    result_->setText(lines.join(QStringLiteral("<br>")));
}

} // namespace rlda::widgets
