// writeSeriesCsv: RFC 4180 quoting of the names, std::to_chars for the numbers, written in 1 MiB pieces.
#include "widgets/plot/series_csv.h"

#include "widgets/plot/series_data.h"

#include <QByteArray>
#include <QFile>

#include <charconv>

namespace rlda::widgets {
namespace {

void appendNumber(QByteArray& out, double v)
{
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, int(res.ptr - buf));
}

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

} // namespace

QString writeSeriesCsv(const QString& path, const std::vector<NamedSeries>& series)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return QStringLiteral("%1: cannot write the file (%2)").arg(path, file.errorString());
    QByteArray out = "series,x,y,smoothed\n";
    for (const auto& [name, data] : series) {
        const QByteArray field = csvField(name).toUtf8();
        for (std::size_t i = 0; i < data->size(); ++i) {
            out += field;
            out += ',';
            appendNumber(out, data->x(i));
            out += ',';
            appendNumber(out, data->y(i));
            out += ',';
            appendNumber(out, data->shown(i));
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

} // namespace rlda::widgets
