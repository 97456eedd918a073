// Reading a SeriesPlot as it is drawn, through its drawing surface (SeriesPlot::plot()): a series'
// line is the QCPGraph named after it, a marker's label a QCPItemText named "marker", the smoothed
// values the CSV export's column. The plot's suites and the views' suites share these readers.
#pragma once

#include "widgets/plot/series_plot.h"
#include "widgets/qcp.h"

#include <QFile>
#include <QTemporaryDir>

#include <charconv>
#include <vector>

namespace plot_reading {

// The line that draws series `name`; null when there is no such series.
inline QCPGraph* line(const rlda::widgets::SeriesPlot& p, const QString& name)
{
    return p.plot()->findChild<QCPGraph*>(name, Qt::FindDirectChildrenOnly);
}

// What the legend shows, entry by entry, row by row.
inline QStringList legendLabels(const rlda::widgets::SeriesPlot& p)
{
    QStringList labels;
    QCPLegend* legend = p.plot()->legend;
    for (int i = 0; i < legend->elementCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->elementAt(i)))
            labels << item->plottable()->name();
    return labels;
}

inline QList<QCPItemText*> markers(const rlda::widgets::SeriesPlot& p)
{
    return p.plot()->findChildren<QCPItemText*>(QStringLiteral("marker"), Qt::FindDirectChildrenOnly);
}

// The markers' labels and colours, in the order they were added.
inline QStringList markerLabels(const rlda::widgets::SeriesPlot& p)
{
    QStringList labels;
    for (const QCPItemText* t : markers(p))
        labels << t->text();
    return labels;
}

inline QList<QColor> markerColors(const rlda::widgets::SeriesPlot& p)
{
    QList<QColor> colors;
    for (const QCPItemText* t : markers(p))
        colors << t->color();
    return colors;
}

// Series `name`'s smoothed values at full resolution, read back from the CSV export (its last
// column repeats y while smoothing is off); empty if the export failed.
inline std::vector<double> smoothedValues(const rlda::widgets::SeriesPlot& p, const QString& name)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("series.csv"));
    // exportCsv() is const: the plot's state is not touched.
    if (!p.exportCsv(path).isEmpty())
        return {};
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    std::vector<double> out;
    const QByteArray prefix = name.toUtf8() + ',';
    for (const QByteArray& row : f.readAll().split('\n')) {
        if (!row.startsWith(prefix))
            continue;
        const QByteArray last = row.mid(row.lastIndexOf(',') + 1);
        double v = 0.0;
        std::from_chars(last.constData(), last.constData() + last.size(), v);
        out.push_back(v);
    }
    return out;
}

} // namespace plot_reading
