// writeSeriesCsv: SeriesPlot's CSV export, every point at full resolution, series after series:
// series,x,y,smoothed (the smoothed column repeats y while smoothing is off), shortest round-trip
// numbers.
#pragma once

#include <QString>

#include <vector>

namespace rlda::widgets {

class SeriesData;

struct NamedSeries {
    QString name;
    const SeriesData* data = nullptr;
};

// The empty string on success, else one line naming the file.
QString writeSeriesCsv(const QString& path, const std::vector<NamedSeries>& series);

} // namespace rlda::widgets
