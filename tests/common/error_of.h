// What a call throws, as a test compares it: the message of the rlda::core::Error it throws, or
// "(no error)" when it throws none. Any other exception escapes, and Qt Test fails the test on it.
#pragma once

#include "core/util/error.h"

#include <QString>

#include <functional>
#include <string>

namespace rlda::test {

inline std::string error_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const core::Error& e) {
        return e.what();
    }
    return "(no error)";
}

// error_of as a QString, for QCOMPARE and QString::contains.
inline QString qerror_of(const std::function<void()>& f)
{
    return QString::fromStdString(error_of(f));
}

} // namespace rlda::test
