// The model graph: boxes laid out once per summary (and font), painted the same on screen and in
// an export; shapes come from core::model::layer_shapes, without a file or a forward.
#include "widgets/inspect/model_graph.h"

#include "core/model/layer.h"
#include "core/util/error_text.h"
#include "core/util/overloaded.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>
#include <exception>

namespace rlda::widgets {
namespace {

namespace m = core::model;

// Layout, in logical pixels.
constexpr double kMargin = 16;
constexpr double kPad = 10;     // inside a box, left and right
constexpr double kGap = 14;     // between a row's columns
constexpr double kArrow = 22;   // between two boxes
constexpr double kMinBox = 220; // the narrowest box
constexpr double kRadius = 5;

const QColor kText(0x20, 0x20, 0x20);
const QColor kDim(0x70, 0x70, 0x70);
const QColor kLayerBorder(0x90, 0x90, 0x90);
const QColor kLayerFill(0xf3, 0xf3, 0xf3);
const QColor kProblem(0xb2, 0x22, 0x22);

// Pixel-sized fonts, so that text keeps its size against the boxes on every paint device (a PDF
// at 72 DPI would draw a point-sized font smaller than the screen laid it out).
QFont pixelFont(const QFont& base, bool bold = false)
{
    QFont f = base;
    if (f.pixelSize() <= 0)
        f.setPixelSize(std::max(8, qRound(f.pointSizeF() * 96.0 / 72.0)));
    f.setBold(bold);
    return f;
}

QString countText(const QLocale& locale, std::int64_t n)
{
    QLocale loc = locale;
    loc.setNumberOptions(loc.numberOptions() & ~QLocale::OmitGroupSeparator);
    return loc.toString(static_cast<qint64>(n));
}

// "Conv2d 3→32 3×3": the type and what tells it apart, for a box row; the tooltip has the rest.
QString shortLabel(const std::string& pytorch)
{
    const auto layer = m::parse_pytorch_string(pytorch);
    const QString s = QString::fromStdString(pytorch);
    if (!layer)
        return s.left(s.indexOf(QLatin1Char('(')) < 0 ? s.size() : s.indexOf(QLatin1Char('(')));
    const auto window = [](std::int64_t a, std::int64_t b) { return QStringLiteral("%1×%2").arg(a).arg(b); };
    return std::visit(
        core::overloaded{
            [&](const m::Conv2d& c) {
                QString t = QStringLiteral("Conv2d %1→%2 %3").arg(c.in_channels).arg(c.out_channels).arg(
                    window(c.kernel_size, c.kernel_size));
                if (c.stride != 1)
                    t += QStringLiteral(" /%1").arg(c.stride);
                if (c.padding != 0)
                    t += QStringLiteral(" pad %1").arg(c.padding);
                return t;
            },
            [](const m::BatchNorm2d& b) { return QStringLiteral("BatchNorm2d %1").arg(b.num_features); },
            [](const m::ReLU&) { return QStringLiteral("ReLU"); },
            [](const m::Tanh&) { return QStringLiteral("Tanh"); },
            [](const m::Sigmoid&) { return QStringLiteral("Sigmoid"); },
            [&](const m::AvgPool2d& p) {
                QString t = QStringLiteral("AvgPool2d %1").arg(window(p.kernel_size, p.kernel_size));
                if (p.effective_stride() != p.kernel_size)
                    t += QStringLiteral(" /%1").arg(p.effective_stride());
                return t;
            },
            [&](const m::AdaptiveAvgPool2d& p) {
                return QStringLiteral("AdaptiveAvgPool2d %1").arg(window(p.output_h, p.output_w));
            },
            [](const m::Flatten&) { return QStringLiteral("Flatten"); },
            [](const m::Linear& l) { return QStringLiteral("Linear %1→%2").arg(l.in_features).arg(l.out_features); },
        },
        *layer);
}

std::int64_t layerParameters(const std::string& pytorch)
{
    const auto layer = m::parse_pytorch_string(pytorch);
    try {
        return layer ? m::parameter_count(*layer) : 0;
    } catch (const std::exception&) { // a count beyond 64 bits: the unit's total says so
        return 0;
    }
}

QString shapeText(const m::Shape& s) { return QString::fromStdString(m::shape_string(s)); }

struct Fonts {
    QFont text, bold, small;
    explicit Fonts(const QFont& base)
        : text(pixelFont(base)), bold(pixelFont(base, true)), small(pixelFont(base))
    {
        small.setPixelSize(std::max(8, text.pixelSize() - 1));
    }
};

// Heights derived from the font, shared by layout and paint.
struct Metrics {
    double row, title, line;
    explicit Metrics(const Fonts& f)
    {
        const QFontMetricsF fm(f.text);
        line = fm.height();
        row = line + 6;
        title = line + 8;
    }
};

} // namespace

ModelGraph::ModelGraph(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("modelGraph"));
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    clear();
}

void ModelGraph::setSummary(const core::model::ModelSummary& summary)
{
    summary_ = summary;
    reference_.reset();
    referenceName_.clear();
    rebuild();
}

void ModelGraph::setSummary(const core::model::ModelSummary& summary, const core::model::ModelSummary& reference,
                            const QString& referenceName)
{
    summary_ = summary;
    reference_ = reference;
    referenceName_ = referenceName;
    rebuild();
}

void ModelGraph::clear()
{
    summary_.reset();
    reference_.reset();
    referenceName_.clear();
    rebuild();
}

QString ModelGraph::newLegend() const
{
    return reference_ ? tr("new since %1").arg(referenceName_) : QString();
}

void ModelGraph::rebuild()
{
    boxes_.clear();
    problem_.clear();
    header_.clear();
    if (!summary_) {
        layoutBoxes();
        return;
    }
    const auto& s = *summary_;
    const QLocale loc = locale();

    std::vector<std::vector<m::Shape>> shapes;
    if (s.units.empty()) { // an older run folder's summary may hold its counts only
        problem_ = tr("this summary lists no layers");
    } else {
        try {
            shapes = m::layer_shapes(s);
        } catch (const std::exception& e) {
            problem_ = tr("shapes unknown: %1").arg(QString::fromStdString(core::error_line(e)));
            shapes.clear();
        }
    }
    std::vector<bool> isNew(s.units.size(), false);
    if (reference_) {
        const auto units = m::diff_units(reference_->units, s.units);
        for (auto j : units.only_b)
            isNew[j] = true;
        for (const auto& pair : units.resized) // a widened block is new since the reference too
            isNew[pair.second] = true;
    }

    header_ = tr("%1 · input %2 · %3 parameters")
                  .arg(s.name.empty() ? tr("model") : QString::fromStdString(s.name),
                       s.input.empty() ? tr("unknown") : shapeText(s.input), countText(loc, s.parameters));

    Box input;
    input.kind = BoxKind::Input;
    input.title = tr("input");
    input.rows.push_back({tr("input"), shapeText(s.input), 0, QString(), QString(), {}});
    input.rows.back().toolTip = tr("input of one sample: %1").arg(input.rows.back().shape);
    input.toolTip = input.rows.back().toolTip;
    boxes_.push_back(input);

    QString last = shapeText(s.input);
    for (std::size_t u = 0; u < s.units.size(); ++u) {
        const auto& unit = s.units[u];
        Box box;
        box.unit = static_cast<int>(u);
        box.isNew = isNew[u];
        box.parameters = unit.parameters;
        const bool residual = unit.residual >= 0;
        if (unit.is_block && unit.original) {
            box.kind = BoxKind::Original;
            box.title = (residual ? tr("residual block %1") : tr("block %1")).arg(unit.original_index);
        } else if (unit.is_block) {
            box.kind = BoxKind::Added;
            box.title = (residual ? tr("added residual block (Deepen %1)") : tr("added block (Deepen %1)"))
                            .arg(m::deepened_block_before(s.units, u));
        } else {
            box.kind = BoxKind::Layer;
        }
        QStringList strings;
        for (std::size_t l = 0; l < unit.layers.size(); ++l) {
            if (residual && l == static_cast<std::size_t>(unit.residual)) {
                // The sum: the branch above plus the skip path, named by its layers.
                Row sum;
                QStringList skip;
                std::int64_t skipParameters = 0;
                for (const auto& k : unit.skip) {
                    skip << shortLabel(k);
                    skipParameters += layerParameters(k);
                }
                sum.label = skip.isEmpty() ? tr("+ skip (identity)") : tr("+ skip: %1").arg(skip.join(QStringLiteral(", ")));
                sum.shape = last;
                sum.parameters = skipParameters;
                sum.layer = skip.isEmpty() ? tr("identity skip") : QString::fromStdString(fmt::format("{}", fmt::join(unit.skip, "\n")));
                sum.toolTip = tr("the branch's output plus the skip path's:\n%1").arg(sum.layer);
                strings << sum.label;
                box.rows.push_back(std::move(sum));
            }
            Row row;
            row.layer = QString::fromStdString(unit.layers[l]);
            row.label = shortLabel(unit.layers[l]);
            if (u < shapes.size() && l < shapes[u].size())
                row.shape = shapeText(shapes[u][l]);
            row.parameters = layerParameters(unit.layers[l]);
            row.toolTip = row.layer;
            if (!row.shape.isEmpty())
                row.toolTip += QLatin1Char('\n') + tr("output %1 · %2 parameters").arg(row.shape, countText(loc, row.parameters));
            strings << row.layer;
            if (!row.shape.isEmpty())
                last = row.shape;
            box.rows.push_back(std::move(row));
        }
        box.toolTip = (box.title.isEmpty() ? QString() : box.title + QLatin1Char('\n')) + strings.join(QLatin1Char('\n'));
        boxes_.push_back(std::move(box));
    }

    Box output;
    output.kind = BoxKind::Output;
    output.title = tr("output");
    output.rows.push_back({s.classes > 0 ? tr("output (%1 classes)").arg(s.classes) : tr("output"), shapes.empty() ? QString() : last, 0, QString(),
                           QString(), {}});
    output.rows.back().toolTip = shapes.empty() ? tr("output shape unknown") : tr("output of one sample: %1").arg(last);
    output.toolTip = output.rows.back().toolTip;
    boxes_.push_back(output);
    layoutBoxes();
}

void ModelGraph::layoutBoxes()
{
    const Fonts f(font());
    const Metrics mt(f);
    const QFontMetricsF fm(f.text), fb(f.bold), fs(f.small);
    const QLocale loc = locale();

    double labelW = 0, shapeW = fm.horizontalAdvance(tr("output")), paramW = fm.horizontalAdvance(tr("parameters"));
    double titleW = 0;
    for (const auto& b : boxes_) {
        for (const auto& r : b.rows) {
            labelW = std::max(labelW, fm.horizontalAdvance(r.label));
            shapeW = std::max(shapeW, fm.horizontalAdvance(r.shape));
            if (r.parameters > 0)
                paramW = std::max(paramW, fm.horizontalAdvance(countText(loc, r.parameters)));
        }
        if (b.kind == BoxKind::Original || b.kind == BoxKind::Added)
            titleW = std::max(titleW, fb.horizontalAdvance(b.title + tr("  · new")) + kGap +
                                          fb.horizontalAdvance(countText(loc, b.parameters)));
    }
    // Slack for hinting differences between paint devices, so that no text is cut.
    const double slack = 6;
    const double boxW = std::max({kMinBox, 2 * kPad + labelW + shapeW + paramW + 2 * kGap + slack, 2 * kPad + titleW + slack});

    // Header: name line, legend line, the problem if any, then the column captions.
    double y = kMargin + mt.line + 4 + mt.line + 8;
    double width = boxW;
    const double legendW = fs.horizontalAdvance(tr("original block") + tr("added by deepening") + newLegend()) + 3 * 40;
    width = std::max({width, legendW, fb.horizontalAdvance(header_)});
    if (!problem_.isEmpty()) {
        const QRectF r = fm.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, problem_);
        y += r.height() + 6;
    }
    y += mt.line + 2; // column captions
    const double x0 = kMargin + (width - boxW) / 2;
    for (auto& b : boxes_) {
        const bool titled = b.kind == BoxKind::Original || b.kind == BoxKind::Added;
        const double top = y;
        double ry = top + (titled ? mt.title : 0);
        for (auto& r : b.rows) {
            r.rect = QRectF(x0, ry, boxW, mt.row);
            ry += mt.row;
        }
        b.rect = QRectF(x0, top, boxW, ry - top + (titled ? 4 : 0));
        y = b.rect.bottom() + kArrow;
    }
    y -= kArrow;
    graphSize_ = QSizeF(width + 2 * kMargin, y + kMargin).toSize();
    updateGeometry();
    update();
    Q_EMIT laidOut();
}

QPointF ModelGraph::origin() const { return {std::max(0.0, (width() - graphSize_.width()) / 2.0), 0.0}; }

QSize ModelGraph::sizeHint() const { return graphSize_; }
QSize ModelGraph::minimumSizeHint() const { return graphSize_; }

void ModelGraph::paintGraph(QPainter& p) const
{
    const Fonts f(font());
    const Metrics mt(f);
    const QFontMetricsF fm(f.text);
    const QLocale loc = locale();
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    const double width = graphSize_.width() - 2 * kMargin;

    if (!summary_) {
        p.setFont(f.text);
        p.setPen(kDim);
        p.drawText(QRectF(QPointF(0, 0), QSizeF(graphSize_)), Qt::AlignCenter, tr("No model"));
        p.restore();
        return;
    }

    // Header and legend.
    double y = kMargin;
    p.setFont(f.bold);
    p.setPen(kText);
    p.drawText(QRectF(kMargin, y, width, mt.line), Qt::AlignLeft | Qt::AlignVCenter, header_);
    y += mt.line + 4;
    p.setFont(f.small);
    double x = kMargin;
    const auto swatch = [&](const QColor& fill, const QColor& border, double borderWidth, const QString& text) {
        const QRectF r(x, y + 2, 14, mt.line - 4);
        p.setPen(QPen(border, borderWidth));
        p.setBrush(fill);
        p.drawRoundedRect(r, 2, 2);
        p.setPen(kText);
        const double w = QFontMetricsF(f.small).horizontalAdvance(text);
        p.drawText(QRectF(x + 20, y, w + 2, mt.line), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += 20 + w + 20;
    };
    swatch(originalColor(), originalColor(), 1, tr("original block"));
    swatch(addedColor(), addedColor(), 1, tr("added by deepening"));
    if (reference_)
        swatch(Qt::white, newColor(), 3, newLegend());
    y += mt.line + 8;
    if (!problem_.isEmpty()) {
        p.setFont(f.text);
        p.setPen(kProblem);
        const QRectF r = fm.boundingRect(QRectF(kMargin, y, width, 1e6), Qt::TextWordWrap, problem_);
        p.drawText(r, Qt::TextWordWrap, problem_);
        y += r.height() + 6;
    }

    // Column captions over the first box.
    if (!boxes_.empty() && !boxes_.front().rows.empty()) {
        const QRectF r = boxes_.front().rows.front().rect;
        p.setFont(f.small);
        p.setPen(kDim);
        const QRectF cap(r.left() + kPad, y, r.width() - 2 * kPad, mt.line);
        p.drawText(cap, Qt::AlignLeft | Qt::AlignVCenter, tr("layer"));
        p.drawText(cap, Qt::AlignRight | Qt::AlignVCenter, tr("parameters"));
    }

    // Column positions shared by every row: the shape column ends where the parameters begin.
    double paramW = fm.horizontalAdvance(tr("parameters"));
    for (const auto& b : boxes_)
        for (const auto& r : b.rows)
            if (r.parameters > 0)
                paramW = std::max(paramW, fm.horizontalAdvance(countText(loc, r.parameters)));
    if (!boxes_.empty() && !boxes_.front().rows.empty()) {
        const QRectF r = boxes_.front().rows.front().rect;
        const QRectF cap(r.left(), y, r.width() - kPad - paramW - kGap, mt.line);
        p.drawText(cap, Qt::AlignRight | Qt::AlignVCenter, tr("output"));
    }

    for (std::size_t i = 0; i < boxes_.size(); ++i) {
        const Box& b = boxes_[i];
        const bool titled = b.kind == BoxKind::Original || b.kind == BoxKind::Added;
        const QColor tone = b.kind == BoxKind::Added ? addedColor() : originalColor();
        QColor fill = titled ? tone : kLayerFill;
        if (titled)
            fill = QColor::fromRgbF(1 - (1 - fill.redF()) * 0.12, 1 - (1 - fill.greenF()) * 0.12,
                                    1 - (1 - fill.blueF()) * 0.12);
        if (b.kind == BoxKind::Input || b.kind == BoxKind::Output)
            fill = QColor(0xe4, 0xe8, 0xee);

        // The arrow into this box.
        if (i > 0) {
            const QPointF from(boxes_[i - 1].rect.center().x(), boxes_[i - 1].rect.bottom());
            // It ends on the outline a new box wears outside its edge.
            const QPointF to(b.rect.center().x(), b.rect.top() - (b.isNew ? 4 : 0));
            p.setPen(QPen(kDim, 1.5));
            p.drawLine(from, to - QPointF(0, 5));
            QPainterPath head;
            head.moveTo(to);
            head.lineTo(to + QPointF(-5, -7));
            head.lineTo(to + QPointF(5, -7));
            head.closeSubpath();
            p.fillPath(head, kDim);
        }

        QPainterPath outline;
        outline.addRoundedRect(b.rect, kRadius, kRadius);
        p.fillPath(outline, fill);
        if (titled) {
            // The title bar takes the box's rounded top corners and a square bottom edge.
            p.save();
            p.setClipPath(outline);
            p.fillRect(QRectF(b.rect.left(), b.rect.top(), b.rect.width(), mt.title), tone);
            p.restore();
            p.setFont(f.bold);
            p.setPen(Qt::white);
            const QRectF t(b.rect.left() + kPad, b.rect.top(), b.rect.width() - 2 * kPad, mt.title);
            p.drawText(t, Qt::AlignLeft | Qt::AlignVCenter, b.isNew ? b.title + tr("  · new") : b.title);
            p.drawText(t, Qt::AlignRight | Qt::AlignVCenter, countText(loc, b.parameters));
        }
        const QColor border = titled ? tone : kLayerBorder;
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(border, 1));
        p.drawPath(outline);
        if (b.isNew) {
            p.setPen(QPen(newColor(), 3));
            p.drawRoundedRect(b.rect.adjusted(-2.5, -2.5, 2.5, 2.5), kRadius + 2, kRadius + 2);
        }

        for (std::size_t k = 0; k < b.rows.size(); ++k) {
            const Row& r = b.rows[k];
            if (k > 0) {
                p.setPen(QPen(QColor(0, 0, 0, 30), 1));
                p.drawLine(QPointF(r.rect.left() + kPad, r.rect.top()), QPointF(r.rect.right() - kPad, r.rect.top()));
            }
            const QRectF in = r.rect.adjusted(kPad, 0, -kPad, 0);
            const bool terminal = b.kind == BoxKind::Input || b.kind == BoxKind::Output;
            p.setFont(terminal ? f.bold : f.text);
            p.setPen(kText);
            p.drawText(in, Qt::AlignLeft | Qt::AlignVCenter, r.label);
            p.setFont(f.text);
            const QRectF shapeCell(in.left(), in.top(), in.width() - paramW - kGap, in.height());
            p.drawText(shapeCell, Qt::AlignRight | Qt::AlignVCenter, r.shape.isEmpty() && !terminal ? tr("?") : r.shape);
            if (!terminal) {
                p.setPen(r.parameters > 0 ? kText : kDim);
                p.drawText(in, Qt::AlignRight | Qt::AlignVCenter,
                           r.parameters > 0 ? countText(loc, r.parameters) : QStringLiteral("–"));
            }
        }
    }
    p.restore();
}

QString ModelGraph::exportTo(const QString& path, const ExportSettings& settings) const
{
    return exportPainting(
        [this](QPainter& p, const QSize& area) {
            // Scaled to fit the page, centred; never enlarged beyond twice its size.
            const QSizeF g = graphSize_;
            const double scale = std::min({area.width() / g.width(), area.height() / g.height(), 2.0});
            p.translate((area.width() - g.width() * scale) / 2, (area.height() - g.height() * scale) / 2);
            p.scale(scale, scale);
            paintGraph(p);
        },
        path, settings);
}

QString ModelGraph::toolTipAt(const QPoint& pos) const
{
    const QPointF g = QPointF(pos) - origin();
    for (const auto& b : boxes_) {
        if (!b.rect.contains(g))
            continue;
        for (const auto& r : b.rows)
            if (r.rect.contains(g))
                return r.toolTip;
        return b.toolTip;
    }
    return {};
}

bool ModelGraph::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            e->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(e);
}

void ModelGraph::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::FontChange || e->type() == QEvent::LocaleChange)
        rebuild();
    QWidget::changeEvent(e);
}

void ModelGraph::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    p.translate(origin());
    paintGraph(p);
}

QScrollArea* scrollAreaFor(ModelGraph* graph, QWidget* parent)
{
    auto* area = new QScrollArea(parent);
    area->setObjectName(QStringLiteral("graphScroll"));
    area->setWidget(graph);
    area->setWidgetResizable(true);
    area->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the area is as wide as the graph
    const auto fit = [area, graph] {
        area->setMinimumWidth(graph->graphSize().width() + area->verticalScrollBar()->sizeHint().width() +
                              2 * area->frameWidth());
    };
    QObject::connect(graph, &ModelGraph::laidOut, area, fit);
    fit();
    return area;
}

} // namespace rlda::widgets
