// PNG through QCustomPlot's rasteriser (scaled for the DPI), PDF through its vector path, SVG by
// painting the plot into a QSvgGenerator; other drawings paint into a QImage, QPdfWriter or QSvgGenerator.
#include "widgets/plot_export.h"

#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include "widgets/qcp.h"

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

QString exportPlot(QCustomPlot& plot, const QString& path, const ExportSettings& settings)
{
    if (const QString problem = checkRequest(path, settings); !problem.isEmpty())
        return problem;
    const auto format = exportFormatFor(path);

    const int w = settings.size.width();
    const int h = settings.size.height();
    bool ok = false;
    switch (*format) {
    case ExportFormat::Png:
        ok = plot.savePng(path, w, h, settings.dpi / 96.0, -1, settings.dpi);
        break;
    case ExportFormat::Pdf:
        ok = plot.savePdf(path, w, h, QCP::epNoCosmetic, QStringLiteral("RLDA Workbench"));
        break;
    case ExportFormat::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(QSize(w, h));
        generator.setViewBox(QRect(0, 0, w, h));
        generator.setResolution(settings.dpi);
        generator.setTitle(QStringLiteral("RLDA Workbench plot"));
        QCPPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            plot.toPainter(&painter, w, h);
            ok = painter.end();
        }
        break;
    }
    }
    return written(path, ok);
}

QString exportPainting(const std::function<void(QPainter&, const QSize&)>& paint, const QString& path,
                       const ExportSettings& settings)
{
    if (const QString problem = checkRequest(path, settings); !problem.isEmpty())
        return problem;
    const QSize size = settings.size;
    // A vector page (PDF, SVG): white, then the painting, in logical pixels.
    const auto paintPage = [&](QPaintDevice& device) {
        QPainter painter;
        if (!painter.begin(&device))
            return false;
        painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
        paint(painter, size);
        return painter.end();
    };
    bool ok = false;
    switch (*exportFormatFor(path)) {
    case ExportFormat::Png: {
        const double scale = settings.dpi / 96.0;
        QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32);
        image.setDotsPerMeterX(qRound(settings.dpi / 0.0254));
        image.setDotsPerMeterY(qRound(settings.dpi / 0.0254));
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.scale(scale, scale);
        paint(painter, size);
        painter.end();
        ok = image.save(path, "PNG");
        break;
    }
    case ExportFormat::Pdf: {
        // One point per logical pixel, as exportPlot's PDFs.
        QPdfWriter writer(path);
        writer.setCreator(QStringLiteral("RLDA Workbench"));
        writer.setResolution(72);
        writer.setPageLayout(QPageLayout(QPageSize(QSizeF(size), QPageSize::Point, QString(), QPageSize::ExactMatch),
                                         QPageLayout::Portrait, QMarginsF()));
        ok = paintPage(writer);
        break;
    }
    case ExportFormat::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setResolution(settings.dpi);
        generator.setTitle(QStringLiteral("RLDA Workbench plot"));
        ok = paintPage(generator);
        break;
    }
    }
    return written(path, ok);
}

} // namespace rlda::widgets
