// PNG through QCustomPlot's rasteriser (scaled for the DPI), PDF through its vector path, SVG by
// painting the plot into a QSvgGenerator.
#include "widgets/plot_export.h"

#include <QFileInfo>
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

QString exportPlot(QCustomPlot& plot, const QString& path, const ExportSettings& settings)
{
    const auto format = exportFormatFor(path);
    if (!format)
        return QStringLiteral("%1: unknown export format (use .png, .pdf or .svg)").arg(path);
    if (settings.size.width() < 16 || settings.size.height() < 16 || settings.size.width() > 20000 ||
        settings.size.height() > 20000)
        return QStringLiteral("%1: size %2x%3 is out of range (16 to 20000 pixels a side)")
            .arg(path)
            .arg(settings.size.width())
            .arg(settings.size.height());
    if (settings.dpi < 24 || settings.dpi > 2400)
        return QStringLiteral("%1: %2 DPI is out of range (24 to 2400)").arg(path).arg(settings.dpi);

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
    if (!ok || !QFileInfo(path).isFile() || QFileInfo(path).size() == 0)
        return QStringLiteral("%1: cannot write the file").arg(path);
    return {};
}

} // namespace rlda::widgets
