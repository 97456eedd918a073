// Every export lays its figure out at exactly the size asked for and paints it into a QImage (PNG),
// a QPdfWriter (PDF) or a QSvgGenerator (SVG): one drawing path for plots and other drawings.
#include "widgets/plot_export.h"

#include "widgets/qcp.h"

#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>


namespace rlda::widgets {

std::optional<ExportFormat> exportFormatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    return std::nullopt;
}

QStringList exportSuffixes() { return {QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg")}; }

namespace {

// The checks every export makes before it writes: a known format, a size and a resolution in range.
QString checkRequest(const QString& path, const ExportSettings& settings)
{
    if (!exportFormatFor(path))
        return QStringLiteral("%1: unknown export format (use .png, .pdf or .svg)").arg(path);
    if (settings.size.width() < 16 || settings.size.height() < 16 || settings.size.width() > 20000 ||
        settings.size.height() > 20000)
        return QStringLiteral("%1: size %2x%3 is out of range (16 to 20000 pixels a side)")
            .arg(path)
            .arg(settings.size.width())
            .arg(settings.size.height());
    if (settings.dpi < 24 || settings.dpi > 2400)
        return QStringLiteral("%1: %2 DPI is out of range (24 to 2400)").arg(path).arg(settings.dpi);
    return {};
}

QString written(const QString& path, bool ok)
{
    if (!ok || !QFileInfo(path).isFile() || QFileInfo(path).size() == 0)
        return QStringLiteral("%1: cannot write the file").arg(path);
    return {};
}

} // namespace

namespace {

// The one drawing path of every export: `draw` lays the figure out at settings.size on a PNG
// (marked with its resolution), a PDF page of that many points or an SVG; `vector` marks PDF and
// SVG for QCustomPlot (no pixel-snapping, pens that scale).
using Draw = std::function<void(QCPPainter&, const QSize& size)>;

bool drawOn(QPaintDevice& device, bool vector, const QSize& size, const Draw& draw)
{
    QCPPainter painter;
    if (!painter.begin(&device))
        return false;
    painter.setMode(QCPPainter::pmNoCaching);
    if (vector) {
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNonCosmetic);
    }
    draw(painter, size);
    return painter.end();
}

QString exportDrawing(const QString& path, const ExportSettings& settings, const Draw& draw)
{
    if (QString problem = checkRequest(path, settings); !problem.isEmpty())
        return problem;
    bool ok = false;
    switch (*exportFormatFor(path)) {
    case ExportFormat::Png: {
        QImage image(settings.size, QImage::Format_ARGB32);
        image.fill(Qt::white);
        ok = drawOn(image, false, settings.size, draw);
        // The resolution is marked after drawing: a painter on an image of 150 DPI draws text in
        // points 1.56 times as large as the layout (made on screen) left room for, clipping titles
        // and legends. The pixels are the plot's at settings.size; the mark says how large to print.
        image.setDotsPerMeterX(qRound(settings.dpi / 0.0254));
        image.setDotsPerMeterY(qRound(settings.dpi / 0.0254));
        ok = ok && image.save(path, "PNG");
        break;
    }
    case ExportFormat::Pdf: {
        QPdfWriter writer(path);
        writer.setCreator(QStringLiteral("RLDA Workbench"));
        writer.setResolution(72); // one point a pixel
        writer.setPageLayout(QPageLayout(QPageSize(QSizeF(settings.size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                                         QPageLayout::Portrait, QMarginsF()));
        ok = drawOn(writer, true, settings.size, draw);
        break;
    }
    case ExportFormat::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(settings.size);
        generator.setViewBox(QRect(QPoint(0, 0), settings.size));
        generator.setResolution(settings.dpi);
        generator.setTitle(QStringLiteral("RLDA Workbench plot"));
        ok = drawOn(generator, true, settings.size, draw);
        break;
    }
    }
    return written(path, ok);
}

} // namespace

QString exportPlot(QCustomPlot& plot, const QString& path, const ExportSettings& settings)
{
    // toPainter fills the plot's background and lays it out at the size given.
    return exportDrawing(path, settings,
                         [&plot](QCPPainter& painter, const QSize& size) { plot.toPainter(&painter, size.width(), size.height()); });
}

QString exportPainting(const std::function<void(QPainter&, const QSize&)>& paint, const QString& path,
                       const ExportSettings& settings)
{
    return exportDrawing(path, settings, [&paint](QCPPainter& painter, const QSize& size) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        paint(painter, size);
    });
}

} // namespace rlda::widgets
