#include "widgets/run/seed_list.h"

#include <QCoreApplication>

#include <algorithm>

namespace rlda::widgets {

std::vector<std::uint64_t> parseSeeds(const QString& text, QString* problem)
{
    std::vector<std::uint64_t> out;
    const auto fail = [&](const QString& why) {
        if (problem)
            *problem = why;
        return std::vector<std::uint64_t>{};
    };
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong seed = word.toLongLong(&ok);
        if (!ok || seed < 0)
            return fail(
                QCoreApplication::translate("Seeds", "Seeds: \"%1\" is not a whole number of 0 or more")
                    .arg(word));
        const auto value = static_cast<std::uint64_t>(seed);
        if (std::find(out.begin(), out.end(), value) != out.end())
            return fail(QCoreApplication::translate("Seeds", "Seeds: %1 is given twice").arg(seed));
        out.push_back(value);
    }
    return out;
}

} // namespace rlda::widgets
