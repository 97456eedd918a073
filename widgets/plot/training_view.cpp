// TrainingView: maps core's training value types and run files onto one SeriesPlot.
#include "widgets/plot/training_view.h"

#include "widgets/plot/series_plot.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace rlda::widgets {
namespace {

struct Quantity {
    const char* id;      // the series id, also the metrics/<id>.csv name
    const char* alias;   // another file name for the same quantity, or nullptr
    const char* label;   // legend and check box
    const char* axis;
    QColor color;
    bool steps; // piecewise constant between epochs: drawn as steps, never smoothed
};

const std::array<Quantity, 5>& quantities()
{
    static const std::array<Quantity, 5> q{{
        {"train_acc", nullptr, "train accuracy", "accuracy", QColor(0x1f, 0x77, 0xb4), false},
        {"test_acc", nullptr, "test accuracy", "accuracy", QColor(0xff, 0x7f, 0x0e), false},
        {"train_loss", "loss", "train loss", "loss", QColor(0xd6, 0x27, 0x28), false},
        {"lr", nullptr, "learning rate", "lr", QColor(0x7f, 0x7f, 0x7f), true},
        {"params", "parameters", "parameters", "parameters", QColor(0x2c, 0xa0, 0x2c), true},
    }};
    return q;
}

const Quantity* quantityFor(const std::string& fileName)
{
    for (const auto& q : quantities())
        if (fileName == q.id || (q.alias && fileName == q.alias))
            return &q;
    return nullptr;
}

SeriesStyle styleOf(const Quantity& q, Qt::PenStyle pen = Qt::SolidLine)
{
    SeriesStyle s;
    s.pen = pen;
    s.steps = q.steps;
    s.smoothable = !q.steps;
    return s;
}

QString adaptationLabel(const core::train::AdaptationEvent& e)
{
    return e.did_nothing ? QStringLiteral("do nothing") : QStringLiteral("deepen %1").arg(e.action);
}

} // namespace

TrainingView::TrainingView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    layout->addLayout(bar);

    bar->addWidget(new QLabel(tr("Smoothing:"), this));
    smoothing_ = new QSpinBox(this);
    smoothing_->setRange(1, 999);
    smoothing_->setSpecialValueText(tr("off"));
    smoothing_->setSuffix(tr(" epochs"));
    smoothing_->setToolTip(tr("Exponential moving average over about this many epochs (drawn over the faint raw "
                              "values); lr and parameter count are never smoothed"));
    bar->addWidget(smoothing_);
    bar->addSpacing(12);

    plot_ = new SeriesPlot(this);
    plot_->setXAxisTitle(tr("time (s)"));
    plot_->addAxis(QStringLiteral("accuracy"), tr("accuracy"), AxisSide::Left);
    plot_->addAxis(QStringLiteral("loss"), tr("loss"), AxisSide::Right);
    plot_->addAxis(QStringLiteral("parameters"), tr("parameters"), AxisSide::Left);
    plot_->addAxis(QStringLiteral("lr"), tr("learning rate"), AxisSide::Right);
    for (const auto& q : quantities()) {
        const QString id = QString::fromLatin1(q.id);
        plot_->addSeries(id, QString::fromLatin1(q.axis), q.color, tr(q.label), styleOf(q));
        auto* box = new QCheckBox(tr(q.label), this);
        box->setChecked(true);
        connect(box, &QCheckBox::toggled, this, [this, id](bool on) { setQuantityVisible(id, on); });
        visibility_.insert(id, box);
        if (QString::fromLatin1(q.axis) != QLatin1String("accuracy")) // the one axis two curves share
            plot_->setAxisColor(QString::fromLatin1(q.axis), q.color.darker(115));
        bar->addWidget(box);
    }
    bar->addStretch(1);
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Show all data and follow new data again (also: double-click the plot)"));
    connect(fit, &QPushButton::clicked, this, &TrainingView::fitAll);
    bar->addWidget(fit);
    layout->addWidget(plot_, 1);

    connect(smoothing_, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int span) { plot_->setSmoothing(span <= 1 ? 0.0 : 2.0 / (span + 1.0)); });
}

void TrainingView::setSmoothingSpan(int epochs) { smoothing_->setValue(epochs); }

int TrainingView::smoothingSpan() const { return smoothing_->value(); }

QStringList TrainingView::seriesIds()
{
    QStringList ids;
    for (const auto& q : quantities())
        ids << QString::fromLatin1(q.id);
    return ids;
}

void TrainingView::setQuantityVisible(const QString& id, bool visible)
{
    if (auto* box = visibility_.value(id); box && box->isChecked() != visible) {
        box->setChecked(visible); // comes back here through toggled()
        return;
    }
    plot_->setSeriesVisible(id, visible);
    for (const auto& run : std::as_const(overlays_))
        plot_->setSeriesVisible(run + QStringLiteral(": ") + id, visible);
}

void TrainingView::addEpoch(const core::train::EpochMetrics& m)
{
    if (m.final) {
        // The budget ran out: the same numbers as the last epoch, reported once more. Files keep
        // it as an event, not a point, and so does the plot.
        plot_->addMarker(m.time, tr("final %1").arg(m.test_acc, 0, 'f', 3), MarkerKind::Final);
        return;
    }
    plot_->append(QStringLiteral("train_acc"), m.time, m.train_acc);
    plot_->append(QStringLiteral("test_acc"), m.time, m.test_acc);
    plot_->append(QStringLiteral("train_loss"), m.time, m.train_loss);
    plot_->append(QStringLiteral("lr"), m.time, m.lr);
    plot_->append(QStringLiteral("params"), m.time, static_cast<double>(m.parameters));
}

void TrainingView::addEpochs(const std::vector<core::train::EpochMetrics>& ms)
{
    for (const auto& m : ms)
        addEpoch(m);
}

void TrainingView::addAllocation(const core::train::AllocationRecord& r)
{
    // "same" changes nothing the plot could show; a line per report would only hide the others.
    if (r.change == core::train::Allocation::Up)
        plot_->addMarker(r.time, tr("up"), MarkerKind::AllocationUp);
    else if (r.change == core::train::Allocation::Down)
        plot_->addMarker(r.time, tr("down"), MarkerKind::AllocationDown);
}

void TrainingView::addAdaptation(const core::train::AdaptationEvent& e)
{
    plot_->addMarker(e.time, adaptationLabel(e), e.did_nothing ? MarkerKind::DidNothing : MarkerKind::Adaptation);
}

void TrainingView::clear()
{
    clearOverlays();
    plot_->clearData();
}

void TrainingView::setRun(const core::io::RunData& run)
{
    clear();
    for (const auto& [name, points] : run.series) {
        const Quantity* q = quantityFor(name);
        if (!q)
            continue; // a series this view has no axis for (e.g. a future metric)
        std::vector<double> xs;
        std::vector<double> ys;
        xs.reserve(points.size());
        ys.reserve(points.size());
        for (const auto& p : points) {
            xs.push_back(p.time);
            ys.push_back(p.value);
        }
        plot_->setSeriesData(QString::fromLatin1(q->id), std::move(xs), std::move(ys));
    }
    for (const auto& r : run.allocations)
        addAllocation(r);
    for (const auto& e : run.adaptations)
        addAdaptation(e);
    plot_->fitAll();
}

void TrainingView::addOverlay(const QString& runName, const core::io::RunData& run)
{
    // Each compared run gets its own dash pattern; the colour keeps saying which quantity it is.
    static const std::array<Qt::PenStyle, 4> pens{Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
    const QString prefix = runName + QStringLiteral(": ");
    if (overlays_.contains(runName))
        for (const auto& q : quantities())
            plot_->removeSeries(prefix + QString::fromLatin1(q.id));
    else
        overlays_ << runName;
    const Qt::PenStyle pen = pens[std::size_t(overlays_.indexOf(runName)) % pens.size()];

    for (const auto& [name, points] : run.series) {
        const Quantity* q = quantityFor(name);
        if (!q)
            continue;
        const QString id = prefix + QString::fromLatin1(q->id);
        plot_->addSeries(id, QString::fromLatin1(q->axis), q->color.darker(125), prefix + tr(q->label),
                         styleOf(*q, pen));
        std::vector<double> xs;
        std::vector<double> ys;
        for (const auto& p : points) {
            xs.push_back(p.time);
            ys.push_back(p.value);
        }
        plot_->setSeriesData(id, std::move(xs), std::move(ys));
        if (auto* box = visibility_.value(QString::fromLatin1(q->id)))
            plot_->setSeriesVisible(id, box->isChecked());
    }
}

void TrainingView::clearOverlays()
{
    for (const auto& run : std::as_const(overlays_))
        for (const auto& q : quantities())
            plot_->removeSeries(run + QStringLiteral(": ") + QString::fromLatin1(q.id));
    overlays_.clear();
}

void TrainingView::fitAll() { plot_->fitAll(); }

} // namespace rlda::widgets
