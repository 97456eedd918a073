// TrainingView: maps core's training value types and run files onto one SeriesPlot.
#include "widgets/plot/training_view.h"

#include "core/job/scheduler.h"
#include "widgets/adaptation_text.h"
#include "widgets/flow_layout.h"
#include "widgets/plot/series_plot.h"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace rlda::widgets {
namespace {

// "up", "down": the config's names of a change (core/config/names.h), as the markers read them.
QString changeName(core::train::Allocation a) { return QString::fromStdString(core::train::to_string(a)); }

struct Quantity {
    const char* id;      // the series id, also the metrics/<id>.csv name
    const char* alias;   // another file name for the same quantity, or nullptr
    const char* label;   // legend and check box
    const char* axis;
    QColor color;         // one run: the quantity's colour
    Qt::PenStyle compare; // several runs (each its colour): the quantity's dash pattern
    bool steps; // piecewise constant between epochs: drawn as steps, never smoothed
};

const std::array<Quantity, 5>& quantities()
{
    // Compared, test accuracy (what runs are judged by) keeps the solid line.
    static const std::array<Quantity, 5> q{{
        {"train_acc", nullptr, "train accuracy", "accuracy", QColor(0x1f, 0x77, 0xb4), Qt::DashLine, false},
        {"test_acc", nullptr, "test accuracy", "accuracy", QColor(0xff, 0x7f, 0x0e), Qt::SolidLine, false},
        {"train_loss", "loss", "train loss", "loss", QColor(0xd6, 0x27, 0x28), Qt::DotLine, false},
        {"lr", nullptr, "learning rate", "lr", QColor(0x7f, 0x7f, 0x7f), Qt::DashDotLine, true},
        {"params", "parameters", "parameters", "parameters", QColor(0x2c, 0xa0, 0x2c), Qt::DashDotDotLine, true},
    }};
    return q;
}

// Compared runs: tab10 without its grey (the learning rate's) and olive (too pale on white).
const std::array<QColor, 8>& runColors()
{
    static const std::array<QColor, 8> c{{QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                                          QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                          QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)}};
    return c;
}

constexpr int kRunsPerLegendRow = 4;

const Quantity* quantityFor(const std::string& fileName)
{
    for (const auto& q : quantities())
        if (fileName == q.id || (q.alias && fileName == q.alias))
            return &q;
    return nullptr;
}

// The run's points of quantity q (under its id or its alias); nullptr when it has none.
const std::vector<core::io::SeriesPoint>* pointsOf(const core::io::RunData& run, const Quantity& q)
{
    for (const auto& [name, points] : run.series)
        if (quantityFor(name) == &q)
            return &points;
    return nullptr;
}

void splitPoints(const std::vector<core::io::SeriesPoint>& points, std::vector<double>& xs, std::vector<double>& ys)
{
    xs.reserve(points.size());
    ys.reserve(points.size());
    for (const auto& p : points) {
        xs.push_back(p.time);
        ys.push_back(p.value);
    }
}

SeriesStyle styleOf(const Quantity& q, Qt::PenStyle pen = Qt::SolidLine)
{
    SeriesStyle s;
    s.pen = pen;
    s.steps = q.steps;
    s.smoothable = !q.steps;
    return s;
}

} // namespace

TrainingView::TrainingView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new FlowLayout; // its toggles wrap on a narrow window
    layout->addLayout(bar);

    bar->addWidget(new QLabel(tr("Smoothing:"), this));
    smoothing_ = new QSpinBox(this);
    smoothing_->setObjectName(QStringLiteral("smoothingSpan"));
    smoothing_->setRange(1, 999);
    smoothing_->setSpecialValueText(tr("off"));
    smoothing_->setSuffix(tr(" epochs"));
    smoothing_->setToolTip(tr("Exponential moving average over about this many epochs (drawn over the faint raw "
                              "values); lr and parameter count are never smoothed"));
    bar->addWidget(smoothing_);

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
    updateLegend(); // compared runs list the quantities shown
}

QStringList TrainingView::runNames() const
{
    return QStringList{baseName_.isEmpty() ? tr("this run") : baseName_} + overlays_;
}

QColor TrainingView::runColor(int index)
{
    const auto& c = runColors();
    return c[std::size_t(std::max(0, index)) % c.size()];
}

void TrainingView::addEvent(std::vector<Event>& into, double x, const QString& label, int kind, int run)
{
    into.push_back({x, label, kind});
    plot_->addMarker(x, label, static_cast<MarkerKind>(kind), overlays_.isEmpty() ? QColor() : runColor(run));
}

void TrainingView::restyle()
{
    const bool comparing = !overlays_.isEmpty();
    const QString base = runNames().front();
    for (const auto& q : quantities()) {
        const QString id = QString::fromLatin1(q.id);
        plot_->setSeriesStyle(id, comparing ? runColor(0) : q.color, styleOf(q, comparing ? q.compare : Qt::SolidLine));
        plot_->setSeriesLabel(id, comparing ? base + QStringLiteral(": ") + tr(q.label) : tr(q.label));
        // An axis coloured like its curve says which curve it scales; compared, colours mean runs.
        if (QString::fromLatin1(q.axis) != QLatin1String("accuracy"))
            plot_->setAxisColor(QString::fromLatin1(q.axis), comparing ? QColor(Qt::black) : q.color.darker(115));
    }
    updateLegend();
    // Markers again, each run's in its colour (one run: each kind's own).
    plot_->clearMarkers();
    std::vector<Event> events;
    std::swap(events, baseEvents_);
    for (const auto& e : events)
        addEvent(baseEvents_, e.x, e.label, e.kind, 0);
    for (int i = 0; i < overlays_.size(); ++i)
        for (const auto& e : overlayEvents_.value(overlays_[i]))
            plot_->addMarker(e.x, e.label, static_cast<MarkerKind>(e.kind), runColor(i + 1));
}

void TrainingView::updateLegend()
{
    if (overlays_.isEmpty()) {
        plot_->setLegendKeys({}); // one entry per series
        return;
    }
    QList<QList<LegendKey>> rows;
    const QStringList names = runNames();
    for (int i = 0; i < names.size(); ++i) {
        if (i % kRunsPerLegendRow == 0)
            rows.append(QList<LegendKey>{});
        rows.back() << LegendKey{names[i], runColor(i), Qt::SolidLine, 3.0};
    }
    QList<LegendKey> shown;
    for (const auto& q : quantities())
        if (auto* box = visibility_.value(QString::fromLatin1(q.id)); !box || box->isChecked())
            shown << LegendKey{tr(q.label), QColor(0x42, 0x42, 0x42), q.compare, 1.6};
    rows << shown;
    plot_->setLegendKeys(rows);
}

void TrainingView::addEpoch(const core::train::EpochMetrics& m)
{
    if (m.final) {
        // The budget ran out: the same numbers as the last epoch, reported once more. Files keep
        // it as an event, not a point, and so does the plot.
        // A cancel that stopped the final test: the marker says the model was not tested again.
        const QString label =
            m.tested ? tr("final %1").arg(m.test_acc, 0, 'f', 3) : tr("cancelled, not tested");
        addEvent(baseEvents_, m.time, label, int(MarkerKind::Final), 0);
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
        addEvent(baseEvents_, r.time, changeName(r.change), int(MarkerKind::AllocationUp), 0);
    else if (r.change == core::train::Allocation::Down)
        addEvent(baseEvents_, r.time, changeName(r.change), int(MarkerKind::AllocationDown), 0);
}

void TrainingView::addAdaptation(const core::train::AdaptationEvent& e)
{
    addEvent(baseEvents_, e.time, adaptationText(e),
             int(e.did_nothing ? MarkerKind::DidNothing : MarkerKind::Adaptation), 0);
    addParameterStep(QStringLiteral("params"), e);
}

void TrainingView::addParameterStep(const QString& series, const core::train::AdaptationEvent& e)
{
    // The model grows at the adaptation, not at the next epoch: the epoch's point at the same time
    // holds the count before it, and this one the count after, so the line steps at the marker.
    if (!e.did_nothing && e.after.parameters > 0)
        plot_->append(series, e.time, static_cast<double>(e.after.parameters));
}

void TrainingView::clear()
{
    baseEvents_.clear();
    baseName_.clear();
    runPath_.clear();
    clearOverlays();
    plot_->clearData();
}

void TrainingView::setRun(const core::io::RunData& run)
{
    clear();
    baseName_ = QString::fromStdString(run.name);
    runPath_ = run.path;
    for (const auto& q : quantities()) { // a series this view has no axis for (e.g. a future metric) stays out
        const auto* points = pointsOf(run, q);
        if (!points)
            continue;
        std::vector<double> xs;
        std::vector<double> ys;
        splitPoints(*points, xs, ys);
        plot_->setSeriesData(QString::fromLatin1(q.id), std::move(xs), std::move(ys));
    }
    for (const auto& r : run.allocations)
        addAllocation(r);
    for (const auto& e : run.adaptations)
        addAdaptation(e);
    plot_->fitAll();
}

void TrainingView::setRuns(const QList<core::io::RunData>& runs)
{
    if (runs.isEmpty()) {
        clear();
        return;
    }
    setRun(runs.front());
    const QStringList names = legendNames(runs);
    for (qsizetype i = 1; i < runs.size(); ++i)
        addOverlay(names[i], runs[i]);
}

QStringList TrainingView::legendNames(const QList<core::io::RunData>& runs)
{
    QStringList names;
    for (const auto& run : runs) {
        const QString folder = QString::fromStdString(run.name);
        QString name = folder;
        for (int k = 2; names.contains(name); ++k) // two runs/x and other/x
            name = QStringLiteral("%1 (%2)").arg(folder).arg(k);
        names << name;
    }
    return names;
}

void TrainingView::addOverlay(const QString& runName, const core::io::RunData& run)
{
    // A colour per run, a dash pattern per quantity: restyle() turns the base run the same way.
    const QString prefix = runName + QStringLiteral(": ");
    if (overlays_.contains(runName))
        for (const auto& q : quantities())
            plot_->removeSeries(prefix + QString::fromLatin1(q.id));
    else
        overlays_ << runName;
    const QColor color = runColor(int(overlays_.indexOf(runName)) + 1);

    for (const auto& q : quantities()) { // in quantity order, as the base run's
        const auto* points = pointsOf(run, q);
        if (!points)
            continue;
        const QString id = prefix + QString::fromLatin1(q.id);
        plot_->addSeries(id, QString::fromLatin1(q.axis), color, prefix + tr(q.label), styleOf(q, q.compare));
        std::vector<double> xs;
        std::vector<double> ys;
        splitPoints(*points, xs, ys);
        plot_->setSeriesData(id, std::move(xs), std::move(ys));
        if (auto* box = visibility_.value(QString::fromLatin1(q.id)))
            plot_->setSeriesVisible(id, box->isChecked());
    }

    std::vector<Event> events;
    for (const auto& r : run.allocations)
        if (r.change == core::train::Allocation::Up || r.change == core::train::Allocation::Down)
            events.push_back({r.time, changeName(r.change),
                              int(r.change == core::train::Allocation::Up ? MarkerKind::AllocationUp
                                                                          : MarkerKind::AllocationDown)});
    for (const auto& e : run.adaptations) {
        events.push_back({e.time, adaptationText(e), int(e.did_nothing ? MarkerKind::DidNothing : MarkerKind::Adaptation)});
        addParameterStep(prefix + QStringLiteral("params"), e);
    }
    overlayEvents_.insert(runName, events);
    restyle();
}

void TrainingView::appendRun(const core::io::RunData& more)
{
    if (runPath_.empty() || more.path != runPath_)
        return;
    for (const auto& [name, points] : more.series)
        if (const Quantity* q = quantityFor(name)) // as setRun(): a series without an axis stays out
            for (const auto& p : points)
                plot_->append(QString::fromLatin1(q->id), p.time, p.value);
    for (const auto& r : more.allocations)
        addAllocation(r);
    for (const auto& e : more.adaptations)
        addAdaptation(e);
    if (more.final_metrics)
        addEpoch(*more.final_metrics);
}

void TrainingView::clearOverlays()
{
    for (const auto& run : std::as_const(overlays_))
        for (const auto& q : quantities())
            plot_->removeSeries(run + QStringLiteral(": ") + QString::fromLatin1(q.id));
    const bool had = !overlays_.isEmpty();
    overlays_.clear();
    overlayEvents_.clear();
    if (had)
        restyle(); // back to one run's looks
}

void TrainingView::fitAll() { plot_->fitAll(); }

} // namespace rlda::widgets
