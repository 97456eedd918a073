// SeriesPlot: the data live here at full resolution; QCustomPlot only ever holds what is drawn.
#include "widgets/plot/series_plot.h"

#include "widgets/qcp.h"

#include <QEvent>
#include <QFile>
#include <QMouseEvent>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>

namespace rlda::widgets {
namespace {

constexpr int kRefreshMs = 30;
const QString kOverlayLayer = QStringLiteral("overlay");

struct MarkerLook {
    QColor color;
    Qt::PenStyle pen;
    bool labelLeft; // allocation labels sit left of their line, decisions right: both often share an x
};

MarkerLook lookOf(MarkerKind kind)
{
    switch (kind) {
    case MarkerKind::AllocationUp:
        return {QColor(0x2e, 0x7d, 0x32), Qt::DashLine, true};
    case MarkerKind::AllocationDown:
        return {QColor(0xc6, 0x28, 0x28), Qt::DashLine, true};
    case MarkerKind::Adaptation:
        return {QColor(0x15, 0x65, 0xc0), Qt::SolidLine, false};
    case MarkerKind::DidNothing:
        return {QColor(0x75, 0x75, 0x75), Qt::DotLine, false};
    case MarkerKind::Final:
        return {QColor(0x21, 0x21, 0x21), Qt::DashDotLine, true};
    case MarkerKind::Other:
        break;
    }
    return {QColor(0x6a, 0x1b, 0x9a), Qt::DotLine, false};
}

QString number(double v)
{
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return QString::fromLatin1(buf, int(res.ptr - buf));
}

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

// A growable array of doubles in fixed chunks. A std::vector doubles its storage by copying:
// with five series growing in step, five copies of millions of points land in the same batch and
// stall the GUI thread for tens of milliseconds. Chunks never move.
class Column {
public:
    static constexpr std::size_t kShift = 15; // 32768 doubles, 256 KiB a chunk
    static constexpr std::size_t kChunk = std::size_t(1) << kShift;
    static constexpr std::size_t kMask = kChunk - 1;

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    double operator[](std::size_t i) const { return chunks_[i >> kShift][i & kMask]; }
    double front() const { return (*this)[0]; }
    double back() const { return (*this)[size_ - 1]; }
    void push_back(double v)
    {
        if ((size_ & kMask) == 0 && (size_ >> kShift) == chunks_.size())
            chunks_.push_back(std::make_unique<double[]>(kChunk));
        chunks_[size_ >> kShift][size_ & kMask] = v;
        ++size_;
    }
    void clear()
    {
        chunks_.clear();
        size_ = 0;
    }
    void assign(const std::vector<double>& v)
    {
        clear();
        for (double d : v)
            push_back(d);
    }
    std::vector<double> toVector() const
    {
        std::vector<double> v;
        v.reserve(size_);
        for (std::size_t i = 0; i < size_; ++i)
            v.push_back((*this)[i]);
        return v;
    }
    void insert(std::size_t pos, double value) // rare (out-of-order points): O(n) is fine
    {
        auto v = toVector();
        v.insert(v.begin() + std::ptrdiff_t(pos), value);
        assign(v);
    }
    // First index whose value is >= v (lower) or > v (upper); the column must be sorted.
    std::size_t lowerIndex(double v) const { return search(v, false); }
    std::size_t upperIndex(double v) const { return search(v, true); }

private:
    std::size_t search(double v, bool upper) const
    {
        std::size_t lo = 0;
        std::size_t hi = size_;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            const double m = (*this)[mid];
            if (upper ? m <= v : m < v)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }

    std::vector<std::unique_ptr<double[]>> chunks_;
    std::size_t size_ = 0;
};

// Min/max of blocks of kBase·2^j consecutive points, level by level, kept up to date as points
// arrive (O(1) amortised each). A refresh then reads about 2 points per pixel column from the
// right level instead of scanning every point: the cost of a redraw no longer grows with the run.
class MinMaxPyramid {
public:
    static constexpr std::size_t kBase = 8;

    void clear() { levels_.clear(); }
    void rebuild(const Column& ys)
    {
        clear();
        for (std::size_t n = kBase; n <= ys.size(); n += kBase)
            addBlock(ys, n);
    }
    void grew(const Column& ys) // after one push_back
    {
        if (ys.size() % kBase == 0)
            addBlock(ys, ys.size());
    }
    std::size_t levelCount() const { return levels_.size(); }
    std::size_t blockSize(std::size_t level) const { return kBase << level; }
    // Entry k of a level covers points [k·b, (k+1)·b); a level holds floor(n / b) entries.
    std::pair<std::uint32_t, std::uint32_t> block(std::size_t level, std::size_t k) const
    {
        return {levels_[level][k].min, levels_[level][k].max};
    }
    std::size_t blocks(std::size_t level) const { return levels_[level].size(); }

private:
    struct MinMax {
        std::uint32_t min;
        std::uint32_t max;
    };

    void addBlock(const Column& ys, std::size_t end)
    {
        MinMax m{std::uint32_t(end - kBase), std::uint32_t(end - kBase)};
        for (std::size_t i = end - kBase + 1; i < end; ++i) {
            if (ys[i] < ys[m.min])
                m.min = std::uint32_t(i);
            if (ys[i] > ys[m.max])
                m.max = std::uint32_t(i);
        }
        push(0, m, ys);
    }
    void push(std::size_t level, MinMax m, const Column& ys)
    {
        if (levels_.size() <= level)
            levels_.emplace_back();
        auto& l = levels_[level];
        l.push_back(m);
        if (l.size() % 2 != 0)
            return;
        const MinMax a = l[l.size() - 2];
        const MinMax b = l.back();
        push(level + 1, {ys[b.min] < ys[a.min] ? b.min : a.min, ys[b.max] > ys[a.max] ? b.max : a.max}, ys);
    }

    std::vector<std::vector<MinMax>> levels_;
};

// Points [i0, i1) of (xs, ys) in at most about 2·pixels points: the min and the max of each block
// (in the order they occur, so the line's shape between them is kept), every peak included.
void decimate(const Column& xs, const Column& ys, const MinMaxPyramid& pyramid,
              std::size_t i0, std::size_t i1, int pixels, QVector<double>& kx, QVector<double>& ky)
{
    auto emit1 = [&](std::size_t k) {
        kx.push_back(xs[k]);
        ky.push_back(ys[k]);
    };
    auto emitPair = [&](std::size_t mn, std::size_t mx) {
        emit1(std::min(mn, mx));
        if (mn != mx)
            emit1(std::max(mn, mx));
    };
    auto emitRange = [&](std::size_t a, std::size_t e) {
        if (a >= e)
            return;
        std::size_t mn = a;
        std::size_t mx = a;
        for (std::size_t i = a + 1; i < e; ++i) {
            if (ys[i] < ys[mn])
                mn = i;
            if (ys[i] > ys[mx])
                mx = i;
        }
        emitPair(mn, mx);
    };
    const std::size_t count = i1 - i0;
    std::size_t level = 0;
    while (level + 1 < pyramid.levelCount() && count / pyramid.blockSize(level) > std::size_t(pixels))
        ++level;
    if (pyramid.levelCount() == 0) {
        emitRange(i0, i1);
        return;
    }
    const std::size_t b = pyramid.blockSize(level);
    const std::size_t first = (i0 + b - 1) / b;
    const std::size_t last = std::min(i1 / b, pyramid.blocks(level));
    if (first >= last) {
        emitRange(i0, i1);
        return;
    }
    emitRange(i0, first * b);
    for (std::size_t k = first; k < last; ++k) {
        const auto [mn, mx] = pyramid.block(level, k);
        emitPair(mn, mx);
    }
    emitRange(last * b, i1);
}

} // namespace

struct SeriesPlot::Series {
    QString name;
    QString label;
    QString axisId;
    QColor color;
    SeriesStyle style;
    Column x;
    Column y;
    Column s; // EMA of y; empty while smoothing is off for this series
    MinMaxPyramid rawBlocks;
    MinMaxPyramid smoothBlocks;
    QCPGraph* graph = nullptr; // what the legend names: smoothed when smoothing is on, else raw
    QCPGraph* raw = nullptr;   // the raw data, faint, under the smoothed line
    QCPItemTracer* tracer = nullptr;
    bool visible = true;
    bool dirty = true;
    int displayed = 0;

    const Column& shown() const { return s.empty() ? y : s; }
};

struct SeriesPlot::Marker {
    double x = 0.0;
    QString label;
    MarkerKind kind = MarkerKind::Other;
    QColor color; // the kind's, or the one addMarker() was given
    QCPItemStraightLine* line = nullptr;
    QCPItemText* text = nullptr;
};

SeriesPlot::SeriesPlot(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    layout->addWidget(plot_);
    plot_->setMinimumSize(320, 220);
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    plot_->setNoAntialiasingOnDrag(true);

    plot_->yAxis->setVisible(false);
    plot_->xAxis2->setVisible(false);
    plot_->yAxis2->setVisible(false);

    plot_->setAutoAddPlottableToLegend(false); // rebuildLegend() decides what the legend shows
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setWrap(6);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setBrush(Qt::NoBrush);
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    syncLegend();

    // The crosshair lives on a buffered layer of its own: moving it repaints only that layer.
    if (!plot_->layer(kOverlayLayer)) // QCustomPlot may already have one of that name
        plot_->addLayer(kOverlayLayer, nullptr, QCustomPlot::limAbove);
    plot_->layer(kOverlayLayer)->setMode(QCPLayer::lmBuffered);
    crossLine_ = new QCPItemStraightLine(plot_);
    crossLine_->setLayer(kOverlayLayer);
    crossLine_->setPen(QPen(QColor(0, 0, 0, 110), 1, Qt::DashLine));
    crossLine_->setVisible(false);
    crossText_ = new QCPItemText(plot_);
    crossText_->setLayer(kOverlayLayer);
    crossText_->position->setType(QCPItemPosition::ptAbsolute);
    crossText_->setTextAlignment(Qt::AlignLeft);
    crossText_->setPadding(QMargins(6, 4, 6, 4));
    crossText_->setBrush(QColor(255, 255, 255, 225));
    crossText_->setPen(QPen(QColor(0, 0, 0, 90)));
    crossText_->setClipToAxisRect(false);
    crossText_->setVisible(false);

    refreshTimer_ = new QTimer(this);
    refreshTimer_->setSingleShot(true);
    refreshTimer_->setInterval(kRefreshMs);
    connect(refreshTimer_, &QTimer::timeout, this, &SeriesPlot::refresh);

    // The axis rect's width is known only after a replot lays it out; decimate again if it moved.
    connect(plot_, &QCustomPlot::afterReplot, this, [this] {
        if (plot_->axisRect()->width() >= 50 && plot_->axisRect()->width() != lastPixels_)
            scheduleRefresh();
    });

    // Any range change we did not make ourselves is the user's zoom or drag: stop following.
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (inRefresh_)
            return;
        stopFollowing();
        rangeDirty_ = true;
        scheduleRefresh();
    });
}

SeriesPlot::~SeriesPlot()
{
    // QCustomPlot deletes what its layout holds; a legend parked outside it would leak.
    if (!plot_->legend->layout())
        plot_->plotLayout()->addElement(1, 0, plot_->legend);
}

void SeriesPlot::syncLegend()
{
    // The legend sits in a row of its own below the axis rect, so it never covers the data, and
    // only while it has entries: a layout column is as narrow as its narrowest element's maximum,
    // and an empty legend's maximum is next to nothing.
    auto* grid = plot_->plotLayout();
    const bool want = plot_->legend->itemCount() > 0;
    const bool in = plot_->legend->layout() == grid;
    if (want && !in) {
        grid->addElement(1, 0, plot_->legend);
        grid->setRowStretchFactor(1, 0.001);
        grid->setRowSpacing(0);
    } else if (!want && in) {
        grid->take(plot_->legend);
        grid->simplify();
    }
    plot_->legend->setVisible(want);
}

void SeriesPlot::setXAxisTitle(const QString& title) { plot_->xAxis->setLabel(title); }

QString SeriesPlot::xAxisTitle() const { return plot_->xAxis->label(); }

void SeriesPlot::addAxis(const QString& id, const QString& title, AxisSide side)
{
    if (auto* existing = axes_.value(id)) {
        existing->setLabel(title);
        return;
    }
    QCPAxisRect* rect = plot_->axisRect();
    QCPAxis* ax = nullptr;
    if (side == AxisSide::Left)
        ax = leftAxes_++ == 0 ? plot_->yAxis : rect->addAxis(QCPAxis::atLeft);
    else
        ax = rightAxes_++ == 0 ? plot_->yAxis2 : rect->addAxis(QCPAxis::atRight);
    ax->setVisible(true);
    ax->setTickLabels(true);
    ax->setLabel(title);
    ax->setNumberPrecision(4);
    ax->setNumberFormat(QStringLiteral("gbc")); // 1.2·10⁶ rather than 1.2e+06
    axes_.insert(id, ax);
    axisOrder_ << id;
    connect(ax, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (!inRefresh_)
            stopFollowing();
    });

    QList<QCPAxis*> values;
    for (const auto& a : std::as_const(axisOrder_))
        values << axes_.value(a);
    rect->setRangeDragAxes({plot_->xAxis}, values);
    rect->setRangeZoomAxes({plot_->xAxis}, values);
}

void SeriesPlot::setAxisColor(const QString& id, const QColor& color)
{
    if (auto* ax = axes_.value(id)) {
        ax->setLabelColor(color);
        ax->setTickLabelColor(color);
    }
}

QString SeriesPlot::axisTitle(const QString& id) const
{
    auto* ax = axes_.value(id);
    return ax ? ax->label() : QString();
}

QCPAxis* SeriesPlot::axis(const QString& id) const { return axes_.value(id); }

QStringList SeriesPlot::axisIds() const { return axisOrder_; }

void SeriesPlot::addSeries(const QString& name, const QString& axisId, const QColor& color, const QString& label,
                           const SeriesStyle& style)
{
    if (find(name))
        return;
    if (!axes_.contains(axisId))
        addAxis(axisId, axisId, leftAxes_ <= rightAxes_ ? AxisSide::Left : AxisSide::Right);
    QCPAxis* valueAxis = axes_.value(axisId);

    auto s = std::make_unique<Series>();
    s->name = name;
    s->label = label.isEmpty() ? name : label;
    s->axisId = axisId;

    s->raw = plot_->addGraph(plot_->xAxis, valueAxis);
    s->raw->setAdaptiveSampling(false);
    s->raw->setAntialiased(false); // faint and dense: antialiasing costs more than it shows
    s->raw->setVisible(false);

    s->graph = plot_->addGraph(plot_->xAxis, valueAxis);
    s->graph->setName(s->label);
    // Our own decimation already bounds the points; QCP's sampling would only re-scan them.
    s->graph->setAdaptiveSampling(false);

    s->tracer = new QCPItemTracer(plot_);
    s->tracer->setLayer(kOverlayLayer);
    s->tracer->setStyle(QCPItemTracer::tsCircle);
    s->tracer->setSize(6);
    s->tracer->setBrush(Qt::white);
    s->tracer->setVisible(false);

    applyStyle(*s, color, style);
    index_.insert(name, s.get());
    series_.push_back(std::move(s));
    rebuildLegend();
    scheduleRefresh();
}

void SeriesPlot::applyStyle(Series& s, const QColor& color, const SeriesStyle& style)
{
    const bool wasSmoothable = s.style.smoothable;
    s.color = color;
    s.style = style;
    QColor lineColor = color;
    lineColor.setAlpha(style.opacity);
    QColor faint = color;
    faint.setAlpha(std::max(30, style.opacity / 4));
    s.raw->setPen(QPen(faint, 1.0, style.pen));
    s.graph->setPen(QPen(lineColor, style.width, style.pen));
    const auto line = style.steps ? QCPGraph::lsStepLeft : QCPGraph::lsLine;
    s.graph->setLineStyle(line);
    s.raw->setLineStyle(line);
    s.tracer->setPen(QPen(color, 1.2));
    if (s.s.empty() || wasSmoothable != style.smoothable)
        recomputeSmoothing(s);
    s.dirty = true;
}

void SeriesPlot::setSeriesStyle(const QString& name, const QColor& color, const SeriesStyle& style)
{
    auto* s = find(name);
    if (!s)
        return;
    const bool inLegend = s->style.inLegend;
    applyStyle(*s, color, style);
    if (style.inLegend != inLegend)
        rebuildLegend();
    scheduleRefresh();
}

QColor SeriesPlot::seriesColor(const QString& name) const
{
    auto* s = find(name);
    return s ? s->color : QColor();
}

SeriesStyle SeriesPlot::seriesStyle(const QString& name) const
{
    auto* s = find(name);
    return s ? s->style : SeriesStyle{};
}

void SeriesPlot::setLegendKeys(const QList<QList<LegendKey>>& rows)
{
    plot_->legend->clearItems(); // before the graphs its items point at go
    for (QCPGraph* g : std::as_const(keyGraphs_))
        plot_->removeGraph(g);
    keyGraphs_.clear();
    legendKeys_.clear();
    for (const auto& row : rows) {
        if (row.isEmpty())
            continue;
        legendKeys_ << row;
        for (const LegendKey& key : row) {
            // A graph without data draws nothing and is no series: it only lends the legend its pen.
            QCPGraph* g = plot_->addGraph(plot_->xAxis, plot_->yAxis);
            g->setName(key.label);
            g->setPen(QPen(key.color, key.width, key.pen));
            keyGraphs_ << g;
        }
    }
    rebuildLegend();
    scheduleRefresh();
}

void SeriesPlot::rebuildLegend()
{
    // While there are keys the legend shows them alone, row by row; without, one entry per series.
    QCPLegend* legend = plot_->legend;
    legend->clearItems();
    legend->simplify();
    if (legendKeys_.isEmpty()) {
        for (const auto& s : series_)
            if (s->style.inLegend)
                s->graph->addToLegend(legend);
    } else {
        int k = 0;
        for (int r = 0; r < legendKeys_.size(); ++r)
            for (int c = 0; c < legendKeys_[r].size(); ++c)
                legend->addElement(r, c, new QCPPlottableLegendItem(legend, keyGraphs_[k++]));
    }
    syncLegend();
}

QStringList SeriesPlot::legendLabels() const
{
    QStringList labels;
    for (int i = 0; i < plot_->legend->elementCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot_->legend->elementAt(i)))
            labels << item->plottable()->name();
    return labels;
}

bool SeriesPlot::hasSeries(const QString& name) const { return find(name) != nullptr; }

QStringList SeriesPlot::seriesNames() const
{
    QStringList names;
    for (const auto& s : series_)
        names << s->name;
    return names;
}

void SeriesPlot::removeSeries(const QString& name)
{
    auto it = std::find_if(series_.begin(), series_.end(), [&](const auto& s) { return s->name == name; });
    if (it == series_.end())
        return;
    plot_->removeItem((*it)->tracer);
    plot_->removeGraph((*it)->graph);
    plot_->removeGraph((*it)->raw);
    index_.remove(name);
    series_.erase(it);
    syncLegend();
    scheduleRefresh();
}

void SeriesPlot::setSeriesLabel(const QString& name, const QString& label)
{
    if (auto* s = find(name)) {
        s->label = label;
        s->graph->setName(label);
        scheduleRefresh();
    }
}

QString SeriesPlot::seriesLabel(const QString& name) const
{
    auto* s = find(name);
    return s ? s->label : QString();
}

void SeriesPlot::setSeriesVisible(const QString& name, bool visible)
{
    if (auto* s = find(name)) {
        s->visible = visible;
        s->dirty = true;
        scheduleRefresh();
    }
}

bool SeriesPlot::isSeriesVisible(const QString& name) const
{
    auto* s = find(name);
    return s && s->visible;
}

void SeriesPlot::append(const QString& name, double x, double y)
{
    auto* s = find(name);
    if (!s || !std::isfinite(x) || !std::isfinite(y))
        return; // a diverged loss (NaN) must not poison the EMA or the min/max buckets
    if (!s->x.empty() && x < s->x.back()) {
        // Out of order (rare: a resumed run): keep the keys sorted, which everything else assumes.
        const auto pos = s->x.upperIndex(x);
        s->x.insert(pos, x);
        s->y.insert(pos, y);
        s->rawBlocks.rebuild(s->y);
        recomputeSmoothing(*s);
    } else {
        s->x.push_back(x);
        s->y.push_back(y);
        s->rawBlocks.grew(s->y);
        if (smoothingOn() && s->style.smoothable) {
            s->s.push_back(s->s.empty() ? y : alpha_ * y + (1.0 - alpha_) * s->s.back());
            s->smoothBlocks.grew(s->s);
        }
    }
    s->dirty = true;
    scheduleRefresh();
}

void SeriesPlot::setSeriesData(const QString& name, std::vector<double> xs, std::vector<double> ys)
{
    auto* s = find(name);
    if (!s)
        return;
    const auto n = std::min(xs.size(), ys.size());
    std::vector<std::size_t> order;
    order.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(xs[i]) && std::isfinite(ys[i]))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return xs[a] < xs[b]; });
    s->x.clear();
    s->y.clear();
    for (auto i : order) {
        s->x.push_back(xs[i]);
        s->y.push_back(ys[i]);
    }
    s->rawBlocks.rebuild(s->y);
    recomputeSmoothing(*s);
    s->dirty = true;
    scheduleRefresh();
}

void SeriesPlot::clearData()
{
    for (auto& s : series_) {
        s->x.clear();
        s->y.clear();
        s->s.clear();
        s->rawBlocks.clear();
        s->smoothBlocks.clear();
        s->dirty = true;
    }
    clearMarkers();
    hideCrosshair();
    follow_ = true;
    scheduleRefresh();
}

void SeriesPlot::setSmoothing(double alpha)
{
    alpha = std::clamp(alpha, 0.0, 1.0);
    if (alpha == alpha_)
        return;
    alpha_ = alpha;
    for (auto& s : series_) {
        recomputeSmoothing(*s);
        s->dirty = true;
    }
    scheduleRefresh();
}

void SeriesPlot::recomputeSmoothing(Series& s)
{
    s.s.clear();
    s.smoothBlocks.clear();
    if (!smoothingOn() || !s.style.smoothable)
        return;
    for (std::size_t i = 0; i < s.y.size(); ++i)
        s.s.push_back(i == 0 ? s.y[0] : alpha_ * s.y[i] + (1.0 - alpha_) * s.s.back());
    s.smoothBlocks.rebuild(s.s);
}

void SeriesPlot::addMarker(double x, const QString& label, MarkerKind kind, const QColor& color)
{
    if (!std::isfinite(x))
        return;
    const MarkerLook look = lookOf(kind);
    const QColor c = color.isValid() ? color : look.color;
    // Two events of the same side, colour and time (several decisions in one step) share one
    // line and one label instead of printing over each other; another colour (another run's
    // events) stacks its label below theirs.
    const Marker* above = nullptr;
    for (auto& m : markers_)
        if (m.x == x && lookOf(m.kind).labelLeft == look.labelLeft) {
            if (m.color == c) {
                m.label += QStringLiteral(", ") + label;
                m.text->setText(m.label);
                scheduleRefresh();
                return;
            }
            above = &m;
        }

    Marker m;
    m.x = x;
    m.label = label;
    m.kind = kind;
    m.color = c;
    m.line = new QCPItemStraightLine(plot_);
    m.line->setPen(QPen(c, 1.2, look.pen));
    m.line->point1->setCoords(x, 0.0);
    m.line->point2->setCoords(x, 1.0);
    m.line->setSelectable(false);

    m.text = new QCPItemText(plot_);
    m.text->setText(label);
    m.text->setColor(c);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    m.text->setFont(f);
    m.text->setRotation(-90);
    m.text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    if (above) {
        // Rotated -90°, the text's left end is its bottom: hang this label 4 px below that one.
        m.text->position->setTypeY(QCPItemPosition::ptAbsolute);
        m.text->position->setParentAnchorY(above->text->left);
        m.text->position->setCoords(x, 4.0);
    } else {
        m.text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        m.text->position->setCoords(x, 0.015);
    }
    // Rotated -90°, the text's right end is its top and its top edge faces left: anchored at
    // (right, top) it runs down the right side of its line; (right, bottom) the left side.
    m.text->setPositionAlignment(Qt::AlignRight | (look.labelLeft ? Qt::AlignBottom : Qt::AlignTop));
    m.text->setPadding(QMargins(2, 1, 2, 1));
    m.text->setBrush(QColor(255, 255, 255, 190));
    m.text->setSelectable(false);
    markers_.push_back(m);
    scheduleRefresh();
}

int SeriesPlot::markerCount() const { return static_cast<int>(markers_.size()); }

QList<QColor> SeriesPlot::markerColors() const
{
    QList<QColor> colors;
    for (const auto& m : markers_)
        colors << m.color;
    return colors;
}

void SeriesPlot::clearMarkers()
{
    // Later labels hang from earlier ones: remove the dependants first.
    for (auto it = markers_.rbegin(); it != markers_.rend(); ++it) {
        plot_->removeItem(it->line);
        plot_->removeItem(it->text);
    }
    markers_.clear();
    scheduleRefresh();
}

QStringList SeriesPlot::markerLabels() const
{
    QStringList labels;
    for (const auto& m : markers_)
        labels << m.label;
    return labels;
}

void SeriesPlot::fitAll()
{
    follow_ = true;
    rangeDirty_ = true;
    flush();
}

void SeriesPlot::stopFollowing() { follow_ = false; }

void SeriesPlot::flush()
{
    refreshTimer_->stop();
    refresh();
}

void SeriesPlot::scheduleRefresh()
{
    if (!refreshTimer_->isActive())
        refreshTimer_->start();
}

int SeriesPlot::plotPixels() const
{
    int px = plot_->axisRect()->width();
    if (px < 50)
        px = plot_->width() - 120;
    return px < 50 ? 800 : px;
}

void SeriesPlot::refresh()
{
    inRefresh_ = true;
    const int px = plotPixels();
    bool all = rangeDirty_ || px != lastPixels_;
    if (follow_) {
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (const auto& s : series_)
            if (s->visible && !s->x.empty()) {
                lo = std::min(lo, s->x.front());
                hi = std::max(hi, s->x.back());
            }
        for (const auto& m : markers_) {
            lo = std::min(lo, m.x);
            hi = std::max(hi, m.x);
        }
        if (std::isfinite(lo)) {
            if (hi - lo < 1e-12) {
                lo -= 0.5;
                hi += 0.5;
            }
            const QCPRange wanted(lo, hi + 0.02 * (hi - lo));
            if (wanted != plot_->xAxis->range()) {
                plot_->xAxis->setRange(wanted);
                all = true;
            }
        }
    }
    for (auto& s : series_)
        if (all || s->dirty)
            updateDisplay(*s, px);
    // An axis whose curves are all hidden would only show ticks for nothing.
    for (const auto& id : std::as_const(axisOrder_)) {
        QCPAxis* ax = axes_.value(id);
        ax->setVisible(std::any_of(series_.begin(), series_.end(), [ax](const auto& s) {
            return s->visible && s->graph->valueAxis() == ax;
        }));
    }
    if (follow_)
        applyFollowRanges();
    lastPixels_ = px;
    rangeDirty_ = false;
    inRefresh_ = false;
    plot_->replot(QCustomPlot::rpQueuedReplot);
    ++replots_;
}

void SeriesPlot::updateDisplay(Series& s, int pixels)
{
    s.dirty = false;
    const bool smoothed = !s.s.empty();
    s.graph->setVisible(s.visible);
    if (auto* item = plot_->legend->itemWithPlottable(s.graph))
        item->setTextColor(s.visible ? Qt::black : QColor(160, 160, 160));
    s.raw->setVisible(s.visible && smoothed);
    s.tracer->setVisible(false);

    const QCPRange range = plot_->xAxis->range();
    const auto n = s.x.size();
    std::size_t i0 = 0;
    std::size_t i1 = n;
    const bool decimating = n > static_cast<std::size_t>(2 * pixels);
    if (decimating) {
        // Only what is in view (plus one point either side, for lines crossing the border).
        i0 = s.x.lowerIndex(range.lower);
        i1 = s.x.upperIndex(range.upper);
        i0 = i0 > 0 ? i0 - 1 : 0;
        i1 = std::min(n, i1 + 1);
    }
    auto fill = [&](QCPGraph* graph, const Column& ys) {
        QVector<double> kx;
        QVector<double> ky;
        if (decimating && i1 - i0 > static_cast<std::size_t>(2 * pixels)) {
            kx.reserve(2 * pixels + 8);
            ky.reserve(2 * pixels + 8);
            decimate(s.x, ys, &ys == &s.y ? s.rawBlocks : s.smoothBlocks, i0, i1, pixels, kx, ky);
        } else {
            kx.reserve(int(i1 - i0));
            ky.reserve(int(i1 - i0));
            for (auto i = i0; i < i1; ++i) {
                kx.push_back(s.x[i]);
                ky.push_back(ys[i]);
            }
        }
        graph->setData(kx, ky, true);
        return int(kx.size());
    };
    s.displayed = fill(s.graph, s.shown());
    if (smoothed)
        fill(s.raw, s.y);
    else
        s.raw->data()->clear();
}

void SeriesPlot::applyFollowRanges()
{
    for (const auto& id : std::as_const(axisOrder_)) {
        QCPAxis* ax = axes_.value(id);
        bool any = false;
        QCPRange total;
        for (const auto& s : series_) {
            if (!s->visible || s->graph->valueAxis() != ax)
                continue;
            for (QCPGraph* g : {s->graph, s->raw}) {
                if (!g->visible())
                    continue;
                bool found = false;
                const QCPRange r = g->getValueRange(found, QCP::sdBoth, plot_->xAxis->range());
                if (!found)
                    continue;
                total = any ? QCPRange(std::min(total.lower, r.lower), std::max(total.upper, r.upper)) : r;
                any = true;
            }
        }
        if (!any)
            continue;
        double span = total.upper - total.lower;
        if (span < 1e-12 * std::max(1.0, std::abs(total.upper)))
            span = std::max(std::abs(total.upper) * 0.1, 1e-9);
        ax->setRange(total.lower - 0.06 * span, total.upper + 0.06 * span);
    }
}

QString SeriesPlot::valuesAt(double x) const
{
    QStringList lines;
    const QString title = plot_->xAxis->label().isEmpty() ? QStringLiteral("x") : plot_->xAxis->label();
    lines << QStringLiteral("%1: %2").arg(title, QString::number(x, 'g', 6));
    for (const auto& s : series_) {
        if (!s->visible || s->x.empty())
            continue;
        std::size_t i = s->x.lowerIndex(x);
        if (i == s->x.size() || (i > 0 && x - s->x[i - 1] < s->x[i] - x))
            i = i == 0 ? 0 : i - 1;
        lines << QStringLiteral("%1: %2").arg(s->label, QString::number(s->shown()[i], 'g', 6));
    }
    return lines.join(QLatin1Char('\n'));
}

void SeriesPlot::updateCrosshair(double x, int pixelX)
{
    const QRect rect = plot_->axisRect()->rect();
    crossLine_->point1->setCoords(x, 0.0);
    crossLine_->point2->setCoords(x, 1.0);
    crossLine_->setVisible(true);
    crossText_->setText(valuesAt(x));
    const bool rightHalf = pixelX > rect.center().x();
    crossText_->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    crossText_->position->setCoords(pixelX + (rightHalf ? -12 : 12), rect.top() + 24);
    crossText_->setVisible(true);
    for (const auto& s : series_) {
        const bool show = s->visible && s->graph->dataCount() > 0;
        s->tracer->setVisible(show);
        if (show) {
            // Bound only now: QCPItemTracer::setGraph warns when the graph is still empty.
            if (s->tracer->graph() != s->graph)
                s->tracer->setGraph(s->graph);
            s->tracer->setGraphKey(x);
        }
    }
    plot_->layer(kOverlayLayer)->replot();
}

void SeriesPlot::hideCrosshair()
{
    crossLine_->setVisible(false);
    crossText_->setVisible(false);
    for (const auto& s : series_)
        s->tracer->setVisible(false);
    if (auto* layer = plot_->layer(kOverlayLayer))
        layer->replot();
}

bool SeriesPlot::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot_) {
        switch (event->type()) {
        case QEvent::MouseMove: {
            const auto* me = static_cast<QMouseEvent*>(event);
            const QPoint pos = me->position().toPoint();
            if (plot_->axisRect()->rect().contains(pos) && !(me->buttons() & Qt::LeftButton))
                updateCrosshair(plot_->xAxis->pixelToCoord(pos.x()), pos.x());
            else
                hideCrosshair();
            break;
        }
        case QEvent::Leave:
            hideCrosshair();
            break;
        case QEvent::MouseButtonDblClick:
            fitAll();
            return true;
        case QEvent::Resize:
            scheduleRefresh();
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QString SeriesPlot::exportTo(const QString& path, const ExportSettings& settings)
{
    flush();
    // Decimate for the width of the file, not of the screen, so a large export keeps its detail.
    const int exportPixels = std::max(50, settings.size.width() * settings.dpi / 96 - 120);
    for (auto& s : series_)
        updateDisplay(*s, exportPixels);
    hideCrosshair();
    const QString error = exportPlot(*plot_, path, settings);
    for (auto& s : series_)
        s->dirty = true;
    scheduleRefresh();
    return error;
}

QString SeriesPlot::exportCsv(const QString& path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return QStringLiteral("%1: cannot write the file (%2)").arg(path, file.errorString());
    QByteArray out = "series,x,y,smoothed\n";
    for (const auto& s : series_) {
        const QByteArray name = csvField(s->name).toUtf8();
        const auto& sm = s->shown();
        for (std::size_t i = 0; i < s->x.size(); ++i) {
            out += name;
            out += ',';
            out += number(s->x[i]).toLatin1();
            out += ',';
            out += number(s->y[i]).toLatin1();
            out += ',';
            out += number(sm[i]).toLatin1();
            out += '\n';
        }
        if (out.size() > (1 << 20)) {
            file.write(out);
            out.clear();
        }
    }
    if (file.write(out) != out.size() || !file.flush())
        return QStringLiteral("%1: cannot write the file (%2)").arg(path, file.errorString());
    return {};
}

int SeriesPlot::pointCount(const QString& name) const
{
    auto* s = find(name);
    return s ? static_cast<int>(s->x.size()) : 0;
}

int SeriesPlot::displayedPointCount(const QString& name) const
{
    auto* s = find(name);
    return s ? s->displayed : 0;
}

std::vector<double> SeriesPlot::values(const QString& name) const
{
    auto* s = find(name);
    return s ? s->y.toVector() : std::vector<double>{};
}

std::vector<double> SeriesPlot::smoothedValues(const QString& name) const
{
    auto* s = find(name);
    return s ? s->shown().toVector() : std::vector<double>{};
}

SeriesPlot::Series* SeriesPlot::find(const QString& name) const { return index_.value(name); }

} // namespace rlda::widgets
