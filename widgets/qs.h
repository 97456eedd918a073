// qs(s): a core string (UTF-8) as a QString, the one spelling every widget uses for
// QString::fromStdString.
#pragma once

#include <QString>

#include <string>

namespace rlda::widgets {

inline QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace rlda::widgets
