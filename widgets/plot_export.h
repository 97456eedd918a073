// Writing a QCustomPlot to PNG, PDF or SVG at a chosen size and resolution: the one export path
// every plot of the workbench (and `rlda figures`) goes through.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QCustomPlot;
class QPainter;

namespace rlda::widgets {

enum class ExportFormat { Png, Pdf, Svg };

// From a file name's suffix (case-insensitive): .png, .pdf, .svg; nullopt otherwise.
std::optional<ExportFormat> exportFormatFor(const QString& path);
QStringList exportSuffixes(); // {"png", "pdf", "svg"}

// What a user asks an export for: the figure's size in pixels, exactly (a PNG is size.width() x
// size.height() pixels, laid out at that size; a PDF page of that many points; an SVG of that
// size), and the resolution written into the PNG and the SVG, which says how large they print
// (pixels / dpi inches) and changes no pixel.
struct ExportSettings {
    QSize size{800, 500};
    int dpi = 96;
};

// Writes `plot` to `path` in the format its suffix names. Returns an empty string on success,
// otherwise a one-line reason that names the file. The plot on screen is left as it was.
QString exportPlot(QCustomPlot& plot, const QString& path, const ExportSettings& settings = {});

// The same for a drawing that is not a QCustomPlot: `paint` draws into a painter whose area is
// settings.size in logical pixels, on a white page.
QString exportPainting(const std::function<void(QPainter&, const QSize&)>& paint, const QString& path,
                       const ExportSettings& settings = {});

} // namespace rlda::widgets
