// LearningView: episodes from simulation learning onto one SeriesPlot, rolling means kept here.
#include "widgets/plot/learning_view.h"

#include "widgets/flow_layout.h"
#include "widgets/plot/series_plot.h"
#include "widgets/plot/training_view.h"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace rlda::widgets {
namespace {

const QString kObjective = QStringLiteral("objective");
const QString kObjectiveMean = QStringLiteral("objective_mean");
const QString kAccuracy = QStringLiteral("accuracy");
const QString kAccuracyMean = QStringLiteral("accuracy_mean");
const QString kTemperature = QStringLiteral("temperature");
const QString kLr = QStringLiteral("lr");

} // namespace

LearningView::LearningView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new FlowLayout; // its toggles wrap on a narrow window
    layout->addLayout(bar);

    bar->addWidget(new QLabel(tr("Rolling mean over:"), this));
    window_ = new QSpinBox(this);
    window_->setRange(1, 100000);
    window_->setValue(kDefaultWindow);
    window_->setSuffix(tr(" episodes"));
    window_->setToolTip(tr("The paper plots rolling means over 50 and 75 episodes"));
    bar->addWidget(window_);

    plot_ = new SeriesPlot(this);
    plot_->setXAxisTitle(tr("episode"));
    plot_->addAxis(kObjective, tr("objective"), AxisSide::Left);
    plot_->addAxis(kTemperature, tr("temperature"), AxisSide::Right);
    plot_->addAxis(kAccuracy, tr("accuracy"), AxisSide::Left);
    plot_->addAxis(kLr, tr("learning rate"), AxisSide::Right);

    SeriesStyle faint;
    faint.width = 1.0;
    faint.opacity = 70;
    faint.smoothable = false;
    SeriesStyle mean;
    mean.width = 2.2;
    mean.smoothable = false;
    SeriesStyle step;
    step.width = 1.4;
    step.smoothable = false;
    step.steps = true;
    step.pen = Qt::DashLine;

    const QColor objectiveColor(0x1f, 0x77, 0xb4);
    const QColor accuracyColor(0xff, 0x7f, 0x0e);
    plot_->addSeries(kObjective, kObjective, objectiveColor, tr("objective"), faint);
    plot_->addSeries(kAccuracy, kAccuracy, accuracyColor, tr("accuracy"), faint);
    plot_->addSeries(kObjectiveMean, kObjective, objectiveColor.darker(115), QString(), mean);
    plot_->addSeries(kAccuracyMean, kAccuracy, accuracyColor.darker(115), QString(), mean);
    plot_->addSeries(kTemperature, kTemperature, QColor(0x94, 0x67, 0xbd), tr("temperature"), step);
    plot_->addSeries(kLr, kLr, QColor(0x7f, 0x7f, 0x7f), tr("learning rate"), step);
    relabel();
    plot_->setAxisColor(kObjective, objectiveColor.darker(115));
    plot_->setAxisColor(kAccuracy, accuracyColor.darker(115));
    plot_->setAxisColor(kTemperature, QColor(0x94, 0x67, 0xbd));
    plot_->setAxisColor(kLr, QColor(0x60, 0x60, 0x60));

    const QString toggles[] = {tr("raw"), tr("objective"), tr("accuracy"), tr("temperature"), tr("lr")};
    for (std::size_t i = 0; i < boxes_.size(); ++i) {
        boxes_[i] = new QCheckBox(toggles[i], this);
        boxes_[i]->setChecked(true);
        connect(boxes_[i], &QCheckBox::toggled, this, &LearningView::applyVisibility);
        bar->addWidget(boxes_[i]);
    }
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Show all data and follow new data again (also: double-click the plot)"));
    connect(fit, &QPushButton::clicked, this, &LearningView::fitAll);
    bar->addWidget(fit);
    layout->addWidget(plot_, 1);

    connect(window_, qOverload<int>(&QSpinBox::valueChanged), this, &LearningView::setWindow);
}

void LearningView::addEpisode(const core::sim::EpisodeRecord& e)
{
    const auto x = static_cast<double>(e.episode);
    episodes_.push_back(x);
    plot_->append(kObjective, x, e.objective);
    plot_->append(kAccuracy, x, e.accuracy);
    plot_->append(kObjectiveMean, x, objective_.push(e.objective));
    plot_->append(kAccuracyMean, x, accuracy_.push(e.accuracy));
    plot_->append(kTemperature, x, e.temperature);
    plot_->append(kLr, x, e.lr);
}

void LearningView::addEpisodes(const std::vector<core::sim::EpisodeRecord>& es)
{
    for (const auto& e : es)
        addEpisode(e);
}

void LearningView::setWindow(int window)
{
    window = std::max(1, window);
    if (window_->value() != window) {
        window_->setValue(window); // comes back here through valueChanged()
        return;
    }
    if (window == objective_.window())
        return;
    objective_.setWindow(window);
    accuracy_.setWindow(window);
    plot_->setSeriesData(kObjectiveMean, episodes_, objective_.means());
    plot_->setSeriesData(kAccuracyMean, episodes_, accuracy_.means());
    drawOverlayMeans();
    relabel();
}

void LearningView::clear()
{
    objective_.clear();
    accuracy_.clear();
    episodes_.clear();
    runPath_.clear();
    for (const auto& o : overlays_) {
        plot_->removeSeries(o.name + QStringLiteral("/objective"));
        plot_->removeSeries(o.name + QStringLiteral("/accuracy"));
    }
    overlays_.clear();
    plot_->setLegendKeys({});
    plot_->clearData();
    applyVisibility();
}

void LearningView::setRuns(const QList<core::io::RunData>& runs)
{
    if (runs.size() == 1) {
        setRun(runs.front());
        return;
    }
    clear();
    QList<LegendKey> keys;
    QList<LegendKey> quantities;
    const QStringList names = TrainingView::legendNames(runs);
    for (int i = 0; i < runs.size(); ++i) {
        const auto& run = runs[i];
        Overlay o;
        o.name = names[i];
        for (const auto& e : run.episodes) {
            o.episodes.push_back(static_cast<double>(e.episode));
            o.objective.push_back(e.objective);
            o.accuracy.push_back(e.accuracy);
        }
        const QColor color = TrainingView::runColor(i);
        SeriesStyle solid;
        solid.width = 2.0;
        solid.smoothable = false;
        solid.inLegend = false;
        SeriesStyle dashed = solid;
        dashed.pen = Qt::DashLine;
        plot_->addSeries(o.name + QStringLiteral("/objective"), kObjective, color, o.name, solid);
        plot_->addSeries(o.name + QStringLiteral("/accuracy"), kAccuracy, color, o.name, dashed);
        keys.push_back({o.name, color});
        overlays_.push_back(std::move(o));
    }
    // Only the runs' means show: the one-run series (raw points, temperature, lr) have no data.
    quantities.push_back({tr("objective, rolling mean"), QColor(Qt::darkGray), Qt::SolidLine});
    quantities.push_back({tr("accuracy, rolling mean"), QColor(Qt::darkGray), Qt::DashLine});
    plot_->setLegendKeys({keys, quantities});
    drawOverlayMeans();
    applyVisibility();
    plot_->fitAll();
}

QStringList LearningView::overlayNames() const
{
    QStringList out;
    for (const auto& o : overlays_)
        out << o.name;
    return out;
}

void LearningView::drawOverlayMeans()
{
    const int w = objective_.window();
    for (const auto& o : overlays_) {
        plot_->setSeriesData(o.name + QStringLiteral("/objective"), o.episodes, rollingMeans(o.objective, w));
        plot_->setSeriesData(o.name + QStringLiteral("/accuracy"), o.episodes, rollingMeans(o.accuracy, w));
    }
}

void LearningView::fitAll() { plot_->fitAll(); }

void LearningView::setRun(const core::io::RunData& run)
{
    clear();
    runPath_ = run.path;
    addEpisodes(run.episodes);
}

void LearningView::appendRun(const core::io::RunData& more)
{
    if (!runPath_.empty() && more.path == runPath_ && !more.episodes.empty())
        addEpisodes(more.episodes);
}

void LearningView::applyVisibility()
{
    // A raw series shows only while both its quantity's box and "raw" are ticked.
    const bool raw = boxes_[0]->isChecked();
    const bool objective = boxes_[1]->isChecked();
    const bool accuracy = boxes_[2]->isChecked();
    plot_->setSeriesVisible(kObjective, raw && objective);
    plot_->setSeriesVisible(kObjectiveMean, objective);
    plot_->setSeriesVisible(kAccuracy, raw && accuracy);
    plot_->setSeriesVisible(kAccuracyMean, accuracy);
    plot_->setSeriesVisible(kTemperature, boxes_[3]->isChecked());
    plot_->setSeriesVisible(kLr, boxes_[4]->isChecked());
    for (const auto& o : overlays_) {
        plot_->setSeriesVisible(o.name + QStringLiteral("/objective"), objective);
        plot_->setSeriesVisible(o.name + QStringLiteral("/accuracy"), accuracy);
    }
}

void LearningView::relabel()
{
    const int w = objective_.window();
    plot_->setSeriesLabel(kObjectiveMean, tr("objective, mean of %1").arg(w));
    plot_->setSeriesLabel(kAccuracyMean, tr("accuracy, mean of %1").arg(w));
}

} // namespace rlda::widgets
